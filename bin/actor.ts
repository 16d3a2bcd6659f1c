import os from 'node:os';

/** Who an enable or rollback from the command line is recorded as (release_history.actor). */
export function cliActor(): string {
  return `cli:${os.userInfo().username}@${os.hostname()}`;
}
