import { describe, expect, it } from 'vitest';
import { timeSlices } from '../../engines/optimization/slices.ts';

describe('timeSlices', () => {
  it('is due once its slice is used up, and a pause starts the next slice while its signal stands', async () => {
    const controller = new AbortController();
    const slices = timeSlices(30, controller.signal);
    expect(slices.due()).toBe(false);
    const until = performance.now() + 35;
    while (performance.now() < until);
    expect(slices.due()).toBe(true);
    await slices.pause();
    expect(slices.due()).toBe(false);
  });

  it('stops the work at its next pause once the signal is aborted (the request\'s deadline)', async () => {
    const controller = new AbortController();
    const slices = timeSlices(0, controller.signal);
    let steps = 0;
    const work = (async () => {
      for (;;) {
        steps += 1;
        if (slices.due()) await slices.pause();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error('deadline'));
    await expect(work).rejects.toThrow('deadline');
    const stoppedAt = steps;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).toBe(stoppedAt);
  });
});
