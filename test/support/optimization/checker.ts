/**
 * An independent checker of Optimization answers (it shares no code with engines/optimization):
 * replays every route of a response against its request with own matrices (tags), and lists what
 * breaks the model: shipments not performed exactly once, windows, time consistency, loads,
 * pickup–delivery pairs, breaks, vehicle windows, and costs and metrics that do not match a
 * recomputation from the matrices. Proto3 JSON defaults are honoured: an absent number is 0, an
 * absent boolean false, an absent duration "0s".
 */

type Json = any;

export interface CheckOptions {
  /** Relative tolerance of costs and distances. */
  costTolerance?: number;
  /** Seconds of slack on time comparisons (the answer prints nanoseconds). */
  timeTolerance?: number;
}

export interface CheckResult {
  violations: string[];
  usedVehicles: number;
  /** Recomputed from the matrices. */
  distanceMeters: number;
  travelSeconds: number;
  totalCost: number;
  performed: number;
  skipped: number;
}

export const COST_KEY = {
  fixed: 'model.vehicles.fixed_cost',
  perKilometer: 'model.vehicles.cost_per_kilometer',
  perHour: 'model.vehicles.cost_per_hour',
  perTraveledHour: 'model.vehicles.cost_per_traveled_hour',
  penalty: 'model.shipments.penalty_cost',
} as const;

const DEFAULT_GLOBAL_END = 365 * 86400; // the format's default: 1971-01-01T00:00:00Z

export const num = (v: unknown): number => (v === undefined || v === null ? 0 : Number(v));

export function parseDuration(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(String(v));
  if (!m) throw new Error(`not a duration: ${JSON.stringify(v)}`);
  return Number(m[1]);
}

/** RFC 3339 timestamp as epoch seconds, keeping sub-millisecond digits. */
export function parseTimestamp(v: unknown): number {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.exec(String(v));
  if (!m) throw new Error(`not an RFC 3339 timestamp: ${JSON.stringify(v)}`);
  const whole = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`) / 1000;
  return whole + (m[2] ? Number(`0${m[2]}`) : 0);
}

const optTime = (v: unknown, fallback: number) => (v === undefined || v === null ? fallback : parseTimestamp(v));

interface Matrix {
  src: Map<string, number>;
  dst: Map<string, number>;
  rows: { durations: number[]; meters: number[] }[];
}

function buildMatrices(model: Json): Map<string | undefined, Matrix> {
  const index = (tags: string[] | undefined) => new Map((tags ?? []).map((t, i) => [t, i]));
  const src = index(model.durationDistanceMatrixSrcTags);
  const dst = index(model.durationDistanceMatrixDstTags);
  const out = new Map<string | undefined, Matrix>();
  for (const m of model.durationDistanceMatrices ?? []) {
    const rows = (m.rows ?? []).map((r: Json) => ({
      durations: (r.durations ?? []).map(parseDuration),
      meters: (r.meters ?? []).map(num),
    }));
    out.set(m.vehicleStartTag, { src, dst, rows });
  }
  return out;
}

const matchTag = (tags: string[] | undefined, known: Map<string, number>): string | undefined => tags?.find((t) => known.has(t));

export function checkSolution(request: Json, response: Json, opts: CheckOptions = {}): CheckResult {
  const costTol = opts.costTolerance ?? 1e-6;
  const timeTol = opts.timeTolerance ?? 1e-6;
  const violations: string[] = [];
  const bad = (msg: string) => violations.push(msg);
  const close = (a: number, b: number) => Math.abs(a - b) <= costTol * Math.max(1, Math.abs(a), Math.abs(b));

  const model = request.model ?? {};
  const shipments: Json[] = model.shipments ?? [];
  const vehicles: Json[] = model.vehicles ?? [];
  const globalStart = optTime(model.globalStartTime, 0);
  const globalEnd = optTime(model.globalEndTime, DEFAULT_GLOBAL_END);
  const matrices = buildMatrices(model);
  if (matrices.size === 0) bad('request has no durationDistanceMatrices: this checker only replays own matrices');

  const matrixOf = (vehicle: Json): Matrix | undefined =>
    (matrices.size === 1 ? [...matrices.values()][0] : matrices.get(vehicle.startTags?.[0]));
  /** Travel between tags; an absent tag (open start or end) travels for free. */
  const travel = (m: Matrix | undefined, from: string | undefined, to: string | undefined) => {
    if (!m || from === undefined || to === undefined) return { seconds: 0, meters: 0 };
    const row = m.rows[m.src.get(from)!];
    const j = m.dst.get(to)!;
    return { seconds: row?.durations[j] ?? NaN, meters: row?.meters[j] ?? NaN };
  };

  // visits[s] = [{route, position, isPickup}]
  const visitsOf = shipments.map(() => [] as { vehicle: number; position: number; isPickup: boolean }[]);
  const seenVehicles = new Set<number>();
  const costSums: Record<string, number> = {};
  let used = 0, distanceTotal = 0, travelTotal = 0, routeCostTotal = 0;

  const routes: Json[] = response.routes ?? [];
  if (routes.length !== vehicles.length) bad(`response has ${routes.length} routes for ${vehicles.length} vehicles`);

  routes.forEach((route, ri) => {
    const v = num(route.vehicleIndex);
    const where = `route ${ri} (vehicle ${v})`;
    if (v !== ri) bad(`${where}: routes must follow the request's vehicle order`);
    if (seenVehicles.has(v)) bad(`${where}: vehicle appears in two routes`);
    seenVehicles.add(v);
    const vehicle = vehicles[v];
    if (!vehicle) return void bad(`${where}: no such vehicle`);
    const visits: Json[] = route.visits ?? [];
    if (visits.length === 0) {
      if (num(route.routeTotalCost) !== 0) bad(`${where}: empty route costs ${route.routeTotalCost}`);
      return;
    }
    used++;
    const m = matrixOf(vehicle);
    const startTag = matchTag(vehicle.startTags, m?.src ?? new Map());
    const endTag = matchTag(vehicle.endTags, m?.dst ?? new Map());
    if (vehicle.startTags?.length && startTag === undefined) bad(`${where}: start tags match no matrix source`);
    if (vehicle.endTags?.length && endTag === undefined) bad(`${where}: end tags match no matrix destination`);

    const start = parseTimestamp(route.vehicleStartTime);
    const end = parseTimestamp(route.vehicleEndTime);
    const inWindows = (t: number, windows: Json[] | undefined) => !windows?.length || windows.some((w) =>
      t >= optTime(w.startTime, -Infinity) - timeTol && t <= optTime(w.endTime, Infinity) + timeTol);
    if (!inWindows(start, vehicle.startTimeWindows) || start < globalStart - timeTol) bad(`${where}: start ${route.vehicleStartTime} outside its window`);
    if (!inWindows(end, vehicle.endTimeWindows) || end > globalEnd + timeTol) bad(`${where}: end ${route.vehicleEndTime} outside its window`);
    if (end < start - timeTol) bad(`${where}: ends before it starts`);

    // Loads: delivery-only shipments are on board from the start.
    const limits: Record<string, number> = {};
    for (const [type, l] of Object.entries<Json>(vehicle.loadLimits ?? {})) if (l.maxLoad !== undefined) limits[type] = num(l.maxLoad);
    const load: Record<string, number> = {};
    const addLoad = (s: Json, sign: number) => {
      for (const [type, d] of Object.entries<Json>(s.loadDemands ?? {})) load[type] = (load[type] ?? 0) + sign * num(d.amount);
    };
    for (const vis of visits) {
      const s = shipments[num(vis.shipmentIndex)];
      if (s && !vis.isPickup && !(s.pickups?.length)) addLoad(s, +1);
    }
    const checkLoad = (at: string) => {
      for (const [type, amount] of Object.entries(load)) {
        if (amount < -1e-9) bad(`${where}: load ${type} negative (${amount}) ${at}`);
        if (limits[type] !== undefined && amount > limits[type]! + 1e-9) bad(`${where}: load ${type} ${amount} over ${limits[type]} ${at}`);
      }
    };
    checkLoad('at the start');

    const breaks = (route.breaks ?? []).map((b: Json) => ({ start: parseTimestamp(b.startTime), duration: parseDuration(b.duration), used: false }));
    const breaksIn = (from: number, to: number) => {
      let total = 0;
      for (const b of breaks) {
        if (b.start >= from - timeTol && b.start + b.duration <= to + timeTol) {
          b.used = true;
          total += b.duration;
        }
      }
      return total;
    };
    const transitions: Json[] = route.transitions ?? [];
    if (transitions.length !== visits.length + 1) bad(`${where}: ${transitions.length} transitions for ${visits.length} visits`);

    let prevTag = startTag, depart = start, meters = 0, travelled = 0;
    const leg = (k: number, toTag: string | undefined, nextStart: number, what: string) => {
      const t = travel(m, prevTag, toTag);
      if (!Number.isFinite(t.seconds) || !Number.isFinite(t.meters)) return void bad(`${where}: no matrix cell for ${what}`);
      meters += t.meters;
      travelled += t.seconds;
      const brk = breaksIn(depart, nextStart);
      if (depart + t.seconds + brk > nextStart + timeTol) {
        bad(`${where}: ${what} starts at ${nextStart - globalStart}s, before it can be reached (${depart - globalStart} + travel ${t.seconds} + breaks ${brk})`);
      }
      const tr = transitions[k];
      if (tr) {
        const parts = ['travelDuration', 'waitDuration', 'breakDuration', 'delayDuration'].map((f) => parseDuration(tr[f]));
        if (!close(parseDuration(tr.travelDuration), t.seconds)) bad(`${where}: transition ${k} travelDuration ${tr.travelDuration} ≠ matrix ${t.seconds}`);
        if (!close(num(tr.travelDistanceMeters), t.meters)) bad(`${where}: transition ${k} travelDistanceMeters ${tr.travelDistanceMeters} ≠ matrix ${t.meters}`);
        if (Math.abs(parts.reduce((a, b) => a + b, 0) - parseDuration(tr.totalDuration)) > timeTol) bad(`${where}: transition ${k} totalDuration is not the sum of its parts`);
        if (tr.startTime !== undefined && Math.abs(parseTimestamp(tr.startTime) - depart) > timeTol) bad(`${where}: transition ${k} starts at ${tr.startTime}, not when the previous stop ends`);
        if (Math.abs(depart + parseDuration(tr.totalDuration) - nextStart) > timeTol) bad(`${where}: transition ${k} does not end when ${what} starts`);
      }
    };

    visits.forEach((vis, k) => {
      const si = num(vis.shipmentIndex);
      const s = shipments[si];
      const what = `visit ${k} (shipment ${si}${vis.isPickup ? ' pickup' : ''})`;
      if (!s) return void bad(`${where}: ${what}: no such shipment`);
      if (s.ignore) bad(`${where}: ${what}: shipment is ignored`);
      if (s.allowedVehicleIndices?.length && !s.allowedVehicleIndices.map(num).includes(v)) bad(`${where}: ${what}: vehicle not allowed`);
      visitsOf[si]!.push({ vehicle: v, position: k, isPickup: !!vis.isPickup });
      const vr = (vis.isPickup ? s.pickups : s.deliveries)?.[num(vis.visitRequestIndex)];
      if (!vr) return void bad(`${where}: ${what}: no such ${vis.isPickup ? 'pickup' : 'delivery'} request`);
      const tag = matchTag(vr.tags, m?.dst ?? new Map());
      if (tag === undefined) bad(`${where}: ${what}: tags match no matrix destination`);
      const at = parseTimestamp(vis.startTime);
      leg(k, tag, at, what);
      const duration = parseDuration(vr.duration);
      if (!inWindows(at, vr.timeWindows) || at < globalStart - timeTol || at + duration > globalEnd + timeTol) {
        bad(`${where}: ${what} starts at ${vis.startTime}, outside its time windows`);
      }
      addLoad(s, vis.isPickup ? +1 : -1);
      checkLoad(`after ${what}`);
      prevTag = tag;
      depart = at + duration;
    });
    leg(visits.length, endTag, end, 'the vehicle end');

    // Breaks: every break request of a used vehicle, in order, inside its window, not over a visit.
    const requests: Json[] = vehicle.breakRule?.breakRequests ?? [];
    const required = requests.filter((r) => optTime(r.earliestStartTime, -Infinity) <= end + timeTol);
    if (breaks.length < required.length) bad(`${where}: ${breaks.length} breaks for ${required.length} break requests`);
    breaks.forEach((b: { start: number; duration: number; used: boolean }, i: number) => {
      const r = requests[i];
      if (!r) return void bad(`${where}: break ${i} answers no break request`);
      if (b.start < optTime(r.earliestStartTime, -Infinity) - timeTol || b.start > optTime(r.latestStartTime, Infinity) + timeTol) bad(`${where}: break ${i} starts outside its window`);
      if (b.duration < parseDuration(r.minDuration) - timeTol) bad(`${where}: break ${i} is shorter than its minimum`);
      if (!b.used) bad(`${where}: break ${i} overlaps a visit or lies outside the route`);
    });

    // Costs, recomputed.
    const costs: Record<string, number> = {
      [COST_KEY.fixed]: num(vehicle.fixedCost),
      [COST_KEY.perKilometer]: num(vehicle.costPerKilometer) * meters / 1000,
      [COST_KEY.perHour]: num(vehicle.costPerHour) * (end - start) / 3600,
      [COST_KEY.perTraveledHour]: num(vehicle.costPerTraveledHour) * travelled / 3600,
    };
    const answered: Record<string, number> = Object.fromEntries(Object.entries<Json>(route.routeCosts ?? {}).map(([k2, c]) => [k2, num(c)]));
    for (const key of new Set([...Object.keys(costs), ...Object.keys(answered)])) {
      const mine = costs[key];
      if (mine === undefined) bad(`${where}: routeCosts ${key} = ${answered[key]} cannot be recomputed by this checker`);
      else if (!close(mine, answered[key] ?? 0)) bad(`${where}: routeCosts ${key} = ${answered[key] ?? 0}, recomputed ${mine}`);
      if (mine) costSums[key] = (costSums[key] ?? 0) + mine;
    }
    const routeCost = Object.values(costs).reduce((a, b) => a + b, 0);
    if (!close(routeCost, num(route.routeTotalCost))) bad(`${where}: routeTotalCost ${route.routeTotalCost}, recomputed ${routeCost}`);
    if (route.metrics) {
      if (!close(num(route.metrics.travelDistanceMeters), meters)) bad(`${where}: metrics.travelDistanceMeters ${route.metrics.travelDistanceMeters}, recomputed ${meters}`);
      const performed = visits.filter((vis) => {
        const s = shipments[num(vis.shipmentIndex)];
        return s && (!s.deliveries?.length || !vis.isPickup);
      }).length;
      if (num(route.metrics.performedShipmentCount) !== performed) bad(`${where}: metrics.performedShipmentCount ${route.metrics.performedShipmentCount}, counted ${performed}`);
    }
    routeCostTotal += routeCost;
    distanceTotal += meters;
    travelTotal += travelled;
  });

  // Every shipment: performed exactly once (each of its visits), or skipped.
  const skipped = new Set<number>();
  for (const s of response.skippedShipments ?? []) {
    const i = num(s.index);
    if (skipped.has(i)) bad(`shipment ${i} skipped twice`);
    skipped.add(i);
  }
  let performed = 0, penalty = 0;
  shipments.forEach((s, i) => {
    const vs = visitsOf[i]!;
    const pickups = vs.filter((x) => x.isPickup), deliveries = vs.filter((x) => !x.isPickup);
    const wantsPickup = (s.pickups?.length ?? 0) > 0, wantsDelivery = (s.deliveries?.length ?? 0) > 0;
    if (s.ignore) {
      if (vs.length) bad(`shipment ${i} is ignored but visited`);
      return;
    }
    if (skipped.has(i)) {
      if (vs.length) bad(`shipment ${i} is both skipped and visited`);
      if (s.penaltyCost === undefined) bad(`mandatory shipment ${i} skipped`);
      penalty += num(s.penaltyCost);
      return;
    }
    if (pickups.length !== (wantsPickup ? 1 : 0) || deliveries.length !== (wantsDelivery ? 1 : 0)) {
      return void bad(`shipment ${i}: ${pickups.length} pickup and ${deliveries.length} delivery visits, neither performed once nor skipped`);
    }
    performed++;
    if (wantsPickup && wantsDelivery) {
      const [p, d] = [pickups[0]!, deliveries[0]!];
      if (p.vehicle !== d.vehicle) bad(`shipment ${i}: pickup on vehicle ${p.vehicle}, delivery on vehicle ${d.vehicle}`);
      else if (p.position > d.position) bad(`shipment ${i}: delivered before it is picked up (vehicle ${p.vehicle})`);
    }
  });
  for (const i of skipped) if (!shipments[i]) bad(`skipped shipment ${i} does not exist`);

  // Global metrics.
  const metrics = response.metrics ?? {};
  const totalCost = routeCostTotal + penalty;
  if (penalty) costSums[COST_KEY.penalty] = penalty;
  if (!close(num(metrics.totalCost), totalCost)) bad(`metrics.totalCost ${metrics.totalCost}, recomputed ${totalCost}`);
  const answeredCosts: Record<string, unknown> = metrics.costs ?? {};
  for (const key of new Set([...Object.keys(costSums), ...Object.keys(answeredCosts)])) {
    if (!close(num(answeredCosts[key]), costSums[key] ?? 0)) bad(`metrics.costs ${key} = ${num(answeredCosts[key])}, recomputed ${costSums[key] ?? 0}`);
  }
  if (num(metrics.usedVehicleCount) !== used) bad(`metrics.usedVehicleCount ${metrics.usedVehicleCount}, counted ${used}`);
  const agg = metrics.aggregatedRouteMetrics;
  if (agg && !close(num(agg.travelDistanceMeters), distanceTotal)) bad(`aggregatedRouteMetrics.travelDistanceMeters ${agg.travelDistanceMeters}, recomputed ${distanceTotal}`);
  if (agg && num(agg.performedShipmentCount) !== performed) bad(`aggregatedRouteMetrics.performedShipmentCount ${agg.performedShipmentCount}, counted ${performed}`);

  return { violations, usedVehicles: used, distanceMeters: distanceTotal, travelSeconds: travelTotal, totalCost, performed, skipped: skipped.size };
}
