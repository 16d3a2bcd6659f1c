/**
 * Cooperative time slices for the work /optimize does on the API's event loop (travel matrices,
 * problem building, scheduling, polylines): a loop checks `due()` between small steps and awaits
 * `pause()` when its slice is used up, so no stage holds the loop for more than about SLICE_MS.
 * With a signal, `pause()` rejects with its reason once it is aborted, so work past the request's
 * deadline stops at its next slice instead of running to its end.
 */
export const SLICE_MS = 4;

export interface Slices {
  due(): boolean;
  pause(): Promise<void>;
}

export function timeSlices(sliceMs = SLICE_MS, signal?: AbortSignal): Slices {
  let since = performance.now();
  return {
    due: () => performance.now() - since >= sliceMs,
    async pause() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      since = performance.now();
    },
  };
}
