/**
 * `COPY … FROM STDIN` with node-postgres, which has no COPY support of its own: a Submittable
 * (node-postgres' documented hook for custom queries) that answers the server's CopyInResponse
 * with the lines, sent in chunks of about 1 MB. Resolves with the number of rows copied.
 */
import pg from 'pg';

/** The protocol messages Connection sends but @types/pg does not declare. */
interface CopyConnection extends pg.Connection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

class CopyIn implements pg.Submittable {
  private error: Error | null = null;
  private rows = 0;
  readonly done: Promise<number>;
  private settle!: { resolve: (rows: number) => void; reject: (err: Error) => void };

  constructor(private readonly sql: string, private readonly lines: Iterable<string>) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.sql);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    try {
      let buffer = '';
      for (const line of this.lines) {
        buffer += `${line}\n`;
        if (buffer.length >= 1 << 20) {
          connection.sendCopyFromChunk(Buffer.from(buffer));
          buffer = '';
        }
      }
      if (buffer) connection.sendCopyFromChunk(Buffer.from(buffer));
      connection.endCopyFrom();
    } catch (err) {
      this.error = err as Error;
      connection.sendCopyFail(String(err));
    }
  }

  handleCommandComplete(msg: { text: string }): void {
    this.rows = Number(/^COPY (\d+)/.exec(msg.text)?.[1] ?? NaN);
  }

  handleError(err: Error): void {
    this.error ??= err;
  }

  handleReadyForQuery(): void {
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve(this.rows);
  }

  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
}

export async function copyIn(client: pg.Client, sql: string, lines: Iterable<string>): Promise<number> {
  const copy = new CopyIn(sql, lines);
  void client.query(copy);
  return copy.done;
}
