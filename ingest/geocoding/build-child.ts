/**
 * Entry of the geocoding build's child process (started by build-process.ts): waits for the
 * request, builds, reports progress and the outcome over IPC, and stops if the worker goes.
 */
import { InvalidInputError } from '../errors.ts';
import type { BuildRequest, ChildMessage } from './build-process.ts';
import { buildGeocodingRelease } from './release.ts';

async function runAsChild(): Promise<void> {
  const orphaned = () => process.exit(1); // the worker is gone: stop writing its staging folder
  process.on('disconnect', orphaned);
  const send = (m: ChildMessage) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
  const request = await new Promise<BuildRequest>((resolve) => {
    process.once('message', (m) => resolve(m as BuildRequest));
    void send({ type: 'ready' });
  });
  try {
    const stats = await buildGeocodingRelease(request.inputs, request.stagingDir, request.workDir, (fraction, message) => {
      void send({ type: 'progress', fraction, message });
    });
    await send({ type: 'done', stats });
  } catch (err) {
    await send({ type: 'failed', message: (err as Error).message, invalidInput: err instanceof InvalidInputError });
  }
  process.off('disconnect', orphaned);
  process.disconnect();
}

await runAsChild();
