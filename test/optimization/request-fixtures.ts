/** Small valid Optimization requests for the request-parsing tests. */
import { expect } from 'vitest';
import { checkOptimizationRequest, type CheckOptions, type CheckResult } from '../../engines/optimization/request/check.ts';
import type { OptimizationRequest } from '../../engines/optimization/request-model.ts';

export const OTTAWA = { latitude: 45.4215, longitude: -75.6972 };
export const GATINEAU = { latitude: 45.4765, longitude: -75.7013 };
export const KANATA = { latitude: 45.3088, longitude: -75.8987 };

/** Two shipments, two vehicles, coordinates, a day's window. */
export function baseRequest(): Record<string, any> {
  return {
    model: {
      globalStartTime: '2024-05-01T00:00:00Z',
      globalEndTime: '2024-05-02T00:00:00Z',
      shipments: [
        {
          label: 'a',
          pickups: [{ arrivalLocation: { ...OTTAWA }, duration: '60s' }],
          deliveries: [{ arrivalLocation: { ...GATINEAU }, duration: '120s', timeWindows: [{ startTime: '2024-05-01T09:00:00Z', endTime: '2024-05-01T17:00:00Z' }] }],
          loadDemands: { weight: { amount: '10' } },
        },
        { label: 'b', deliveries: [{ arrivalLocation: { ...KANATA } }], penaltyCost: 100 },
      ],
      vehicles: [
        { label: 'v0', startLocation: { ...OTTAWA }, endLocation: { ...OTTAWA }, loadLimits: { weight: { maxLoad: 100 } }, costPerKilometer: 1 },
        { label: 'v1', startLocation: { ...KANATA } },
      ],
    },
  };
}

/** The checked request, failing the test with the issues when there are any. */
export function valid(body: unknown, options?: CheckOptions): OptimizationRequest {
  const result = checkOptimizationRequest(body, options);
  expect(result.issues).toEqual([]);
  expect(result.request).not.toBeNull();
  return result.request!;
}

/** The issues of an invalid body, as `DISPLAY_NAME field` strings. */
export function issuesOf(body: unknown, options?: CheckOptions): string[] {
  const result: CheckResult = checkOptimizationRequest(body, options);
  expect(result.request).toBeNull();
  return result.issues.map((i) => `${i.displayName} ${i.fields[0]!.name}`);
}

/** The one issue of an invalid body. */
export function oneIssue(body: unknown, options?: CheckOptions): string {
  const issues = issuesOf(body, options);
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

/** A body with own matrices over tags depot, s1, s2 (all three both src and dst). */
export function matrixRequest(): Record<string, any> {
  const tags = ['depot', 's1', 's2'];
  const cell = (a: number, b: number) => Math.abs(a - b) * 100;
  return {
    model: {
      shipments: [
        { deliveries: [{ tags: ['s1'], duration: '10s' }] },
        { pickups: [{ tags: ['s2'] }], deliveries: [{ tags: ['s1'] }] },
      ],
      vehicles: [{ startTags: ['depot'], endTags: ['depot'], costPerKilometer: 1 }],
      durationDistanceMatrices: [{
        rows: tags.map((_, a) => ({ durations: tags.map((__, b) => `${cell(a, b)}s`), meters: tags.map((__, b) => cell(a, b) * 10) })),
      }],
      durationDistanceMatrixSrcTags: tags,
      durationDistanceMatrixDstTags: tags,
    },
  };
}
