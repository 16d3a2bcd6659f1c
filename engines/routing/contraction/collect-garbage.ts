/**
 * A full garbage collection now, where the build has just dropped a large part of its memory
 * (typed arrays live outside V8's heap, and the contraction allocates almost nothing on it, so
 * without this the dropped arrays could stay resident through the build's peak). V8 offers gc()
 * only behind --expose-gc; the flag is set for this process and the function taken from a fresh
 * context, as Node's own test suite does.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null = null;

export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
