/** Where the release reader and its listener log (pino's child logger in the API, silent in tests). */
export interface ReaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLog: ReaderLog = { info() {}, warn() {}, error() {} };
