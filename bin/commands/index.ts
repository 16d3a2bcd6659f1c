import type { Command } from '../command.ts';

/**
 * Every command, in the order `canmap help` lists them, loaded only when asked for: one command's
 * run imports that command's modules, not the whole product (a CLI call starts in a fraction of
 * the time it takes to import every command).
 */
const LOADERS = {
  migrate: async () => (await import('./migrate.ts')).migrateCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  usage: async () => (await import('./usage.ts')).usageCommand,
  accounts: async () => (await import('./accounts.ts')).accountsCommand,
  ingest: async () => (await import('./ingest.ts')).ingestCommand,
  jobs: async () => (await import('./jobs.ts')).jobsCommand,
  releases: async () => (await import('./releases.ts')).releasesCommand,
  roads: async () => (await import('./roads.ts')).roadsCommand,
  feedback: async () => (await import('./feedback.ts')).feedbackCommand,
  worker: async () => (await import('./worker.ts')).workerCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  demo: async () => (await import('./demo.ts')).demoCommand,
} satisfies Record<string, () => Promise<Command>>;

export type CommandName = keyof typeof LOADERS;

export const COMMAND_NAMES = Object.keys(LOADERS) as CommandName[];

export const loadCommand = (name: CommandName): Promise<Command> => LOADERS[name]();

/** All of them (help, tests): imports every command's modules. */
export const loadCommands = (): Promise<Command[]> => Promise.all(COMMAND_NAMES.map(loadCommand));
