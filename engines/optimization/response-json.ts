/**
 * The Optimization response (volume 3): camelCase, durations as "95s", timestamps RFC 3339 UTC,
 * one route per vehicle in request order. Zero values are written out rather than omitted, so
 * clients need not know the format's defaults.
 */
import { COST_KEYS, type RouteSchedule } from './problem.ts';
import { durationJson, timestampJson } from './response-times.ts';

export interface SkippedShipmentJson {
  index: number;
  label?: string;
  reasons?: { code: string; exampleVehicleIndex?: number; exampleExceededCapacityType?: string }[];
}

/** One of the answer's warnings: from the checker (a harmless field ignored), the plan (timeout clamped) or the solve. */
export interface OptimizationWarning {
  code: string;
  message: string;
}

export interface SolvedFleet {
  /** Epoch seconds of the model's global start (the schedules' time 0). */
  globalStart: number;
  vehicleLabels: readonly (string | undefined)[];
  /** By request shipment index. */
  shipmentLabels: readonly (string | undefined)[];
  /** Per vehicle; visits carry request shipment indices. Null: unused. */
  schedules: readonly (RouteSchedule | null)[];
  /** Per vehicle when polylines were asked for (null: not drawn). */
  polylines?: readonly (string | null)[];
  skipped: readonly SkippedShipmentJson[];
  /** Sum of the penalty costs of skipped shipments. */
  penalty: number;
  requestLabel?: string;
  warnings: readonly OptimizationWarning[];
}

type Metrics = RouteSchedule['metrics'];
const ZERO_METRICS: Metrics = {
  performedShipmentCount: 0, travelDuration: 0, waitDuration: 0, delayDuration: 0, breakDuration: 0, visitDuration: 0, totalDuration: 0, travelDistanceMeters: 0,
};

function metricsJson(m: Metrics) {
  return {
    performedShipmentCount: m.performedShipmentCount,
    travelDuration: durationJson(m.travelDuration),
    waitDuration: durationJson(m.waitDuration),
    delayDuration: durationJson(m.delayDuration),
    breakDuration: durationJson(m.breakDuration),
    visitDuration: durationJson(m.visitDuration),
    totalDuration: durationJson(m.totalDuration),
    travelDistanceMeters: m.travelDistanceMeters,
  };
}

function routeJson(fleet: SolvedFleet, vehicleIndex: number) {
  const label = fleet.vehicleLabels[vehicleIndex];
  const head = { vehicleIndex, ...(label !== undefined ? { vehicleLabel: label } : {}) };
  const s = fleet.schedules[vehicleIndex];
  if (!s) return { ...head, visits: [], transitions: [], metrics: metricsJson(ZERO_METRICS), routeCosts: {}, routeTotalCost: 0 };
  const at = (t: number) => timestampJson(fleet.globalStart + t);
  const polyline = fleet.polylines?.[vehicleIndex];
  return {
    ...head,
    vehicleStartTime: at(s.vehicleStartTime),
    vehicleEndTime: at(s.vehicleEndTime),
    visits: s.visits.map((v) => {
      const shipmentLabel = fleet.shipmentLabels[v.shipment];
      return {
        shipmentIndex: v.shipment,
        isPickup: v.isPickup,
        visitRequestIndex: 0,
        startTime: at(v.startTime),
        detour: durationJson(v.detour),
        ...(shipmentLabel !== undefined ? { shipmentLabel } : {}),
      };
    }),
    transitions: s.transitions.map((t) => ({
      travelDuration: durationJson(t.travelDuration),
      travelDistanceMeters: t.travelDistance,
      waitDuration: durationJson(t.waitDuration),
      breakDuration: durationJson(t.breakDuration),
      delayDuration: durationJson(t.delayDuration),
      totalDuration: durationJson(t.totalDuration),
      startTime: at(t.startTime),
    })),
    ...(s.breaks.length > 0 ? { breaks: s.breaks.map((b) => ({ startTime: at(b.startTime), duration: durationJson(b.duration) })) } : {}),
    metrics: metricsJson(s.metrics),
    routeCosts: s.costs,
    routeTotalCost: s.totalCost,
    ...(polyline ? { routePolyline: { points: polyline } } : {}),
  };
}

function sumMetrics(schedules: readonly (RouteSchedule | null)[]): Metrics {
  const sum = { ...ZERO_METRICS };
  for (const s of schedules) {
    if (!s) continue;
    for (const key of Object.keys(sum) as (keyof Metrics)[]) sum[key] += s.metrics[key];
  }
  return sum;
}

export function optimizationResponseJson(fleet: SolvedFleet) {
  const used = fleet.schedules.filter((s): s is RouteSchedule => s !== null);
  const costs: Record<string, number> = {};
  for (const s of used) for (const [key, value] of Object.entries(s.costs)) costs[key] = (costs[key] ?? 0) + value;
  if (fleet.penalty > 0) costs[COST_KEYS.penalty] = fleet.penalty;
  const totalCost = Object.values(costs).reduce((a, b) => a + b, 0);
  return {
    routes: fleet.schedules.map((_, i) => routeJson(fleet, i)),
    ...(fleet.requestLabel !== undefined ? { requestLabel: fleet.requestLabel } : {}),
    ...(fleet.skipped.length > 0 ? { skippedShipments: fleet.skipped } : {}),
    metrics: {
      aggregatedRouteMetrics: metricsJson(sumMetrics(fleet.schedules)),
      skippedMandatoryShipmentCount: 0,
      usedVehicleCount: used.length,
      ...(used.length > 0
        ? {
          earliestVehicleStartTime: timestampJson(fleet.globalStart + Math.min(...used.map((s) => s.vehicleStartTime))),
          latestVehicleEndTime: timestampJson(fleet.globalStart + Math.max(...used.map((s) => s.vehicleEndTime))),
        }
        : {}),
      costs,
      totalCost,
    },
    ...(fleet.warnings.length > 0 ? { warnings: fleet.warnings } : {}),
  };
}
