/** Worker-thread entry of UploadChecker: checks one uploaded file per message, off the API's event loop. */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { QueryError } from '../../lib/query-error.ts';
import { readGeoJson } from './geojson.ts';
import { checkPmtiles } from './pmtiles-check.ts';
import type { CheckReply, UploadCheckTask } from './upload-checker.ts';

async function check(task: UploadCheckTask): Promise<CheckReply> {
  try {
    const bytes = await readFile(task.path);
    if (task.kind === 'pmtiles') return { id: task.id, archive: await checkPmtiles(bytes) };
    readGeoJson(bytes);
    return { id: task.id };
  } catch (err) {
    if (err instanceof QueryError) return { id: task.id, refusal: err.message };
    return { id: task.id, error: String((err as Error)?.stack ?? err) };
  }
}

parentPort?.on('message', (task: UploadCheckTask) => {
  parentPort!.postMessage({ id: task.id, started: true } satisfies CheckReply);
  void check(task).then((reply) => parentPort!.postMessage(reply));
});
