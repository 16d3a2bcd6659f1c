/**
 * A growth-plan-sized straight-line request (volume 1 limits: 2,000 shipments, 200 vehicles,
 * 1,000 places): deliveries around Vancouver from one depot, drawn with a seeded PRNG so every run
 * sends the same body. Used by the timeout test and `npm run bench:optimization:timeout`.
 */
import { seededRandom } from '../../../lib/seeded-random.ts';

export interface GrowthRequestOptions {
  shipments?: number;
  /** Distinct delivery places (the depot makes one more); the growth plan allows 1,000 in all. */
  places?: number;
  vehicles?: number;
  /** e.g. "1s"; absent: the API's default budget. */
  timeout?: string;
  populatePolylines?: boolean;
  /** Each shipment also has a pickup (pickup-and-delivery pairs: a much harder problem). */
  pairs?: boolean;
  seed?: number;
}

const DEPOT = { latitude: 49.2827, longitude: -123.1207 };

export function growthRequest(opts: GrowthRequestOptions = {}): Record<string, unknown> {
  const { shipments = 2000, places = 999, vehicles = 100, seed = 28 } = opts;
  const rnd = seededRandom(seed);
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  const spots = Array.from({ length: places }, () => ({
    latitude: round(DEPOT.latitude + (rnd() - 0.5) * 0.3),
    longitude: round(DEPOT.longitude + (rnd() - 0.5) * 0.5),
  }));
  const hour = (h: number) => `2026-11-26T${String(h).padStart(2, '0')}:00:00Z`;
  return {
    label: `growth-${shipments}`,
    useGeodesicDistances: true,
    geodesicMetersPerSecond: 10,
    ...(opts.timeout ? { timeout: opts.timeout } : {}),
    ...(opts.populatePolylines ? { populatePolylines: true } : {}),
    model: {
      globalStartTime: hour(6),
      globalEndTime: hour(22),
      shipments: Array.from({ length: shipments }, (_, i) => {
        const start = 8 + Math.floor(rnd() * 8);
        return {
          label: `parcel-${i}`,
          ...(opts.pairs ? { pickups: [{ arrivalLocation: spots[(i * 7 + 3) % places], duration: '60s' }] } : {}),
          deliveries: [{
            arrivalLocation: spots[i % places],
            duration: '180s',
            timeWindows: [{ startTime: hour(start), endTime: hour(start + 3) }],
          }],
          loadDemands: { boxes: { amount: String(1 + Math.floor(rnd() * 3)) } },
        };
      }),
      vehicles: Array.from({ length: vehicles }, (_, i) => ({
        label: `van-${i}`,
        startLocation: DEPOT,
        endLocation: DEPOT,
        loadLimits: { boxes: { maxLoad: '60' } },
        costPerHour: 30,
        costPerKilometer: 0.5,
      })),
    },
  };
}
