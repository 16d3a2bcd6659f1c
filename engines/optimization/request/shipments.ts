/** model.shipments[] and their visit requests (volume 3 planning rules 1–4). */
import type { Place, RequestShipment, RequestVisit } from '../request-model.ts';
import { noteLoadType, type CheckContext } from './context.ts';
import { fieldPath, indexPath, keyPath } from './fields.ts';
import { visitCell } from './matrices.ts';
import { readCoordinates, sameLatLng } from './places.ts';
import { put } from './normalize.ts';
import { present, type Message } from './reader.ts';
import { parseInt32 } from './values.ts';
import { readTimeWindows } from './time-windows.ts';

const NOT_YET = 'FIELD_NOT_SUPPORTED_YET' as const;

export function readShipments(ctx: CheckContext, model: Message, path: string): (RequestShipment | undefined)[] {
  return ctx.r.messages(model, 'shipments', path).map(({ item, path: at }) => (ctx.r.issues.full ? undefined : readShipment(ctx, item, at)));
}

function readShipment(ctx: CheckContext, s: Message, path: string): RequestShipment | undefined {
  const { r } = ctx;
  const before = r.issues.count;
  const label = r.string(s, 'label', path);
  r.string(s, 'displayName', path);
  r.refuse(s, 'shipmentType', path, NOT_YET, 'shipment types are not supported');
  r.refuse(s, 'costsPerVehicle', path, NOT_YET, 'per-vehicle shipment costs are not supported');
  r.refuse(s, 'costsPerVehicleIndices', path, NOT_YET, 'per-vehicle shipment costs are not supported');
  r.refuse(s, 'pickupToDeliveryAbsoluteDetourLimit', path, NOT_YET, 'detour limits are not supported');
  r.refuse(s, 'pickupToDeliveryRelativeDetourLimit', path, NOT_YET, 'detour limits are not supported');
  r.refuse(s, 'pickupToDeliveryTimeLimit', path, NOT_YET, 'pickup-to-delivery time limits are not supported');
  r.refuse(s, 'demands', path, NOT_YET, 'deprecated; use loadDemands');

  const visit = (key: 'pickups' | 'deliveries'): RequestVisit | null | undefined => {
    const items = r.messages(s, key, path);
    if (items.length > 1) {
      r.issue(NOT_YET, indexPath(fieldPath(path, key), 1), `${key}: more than one pickup or delivery alternative per shipment is not supported`);
      return undefined;
    }
    return items[0] ? readVisit(ctx, items[0].item, items[0].path) : null;
  };
  const pickup = visit('pickups');
  const delivery = visit('deliveries');
  if (pickup === null && delivery === null) {
    r.issue('MISSING_REQUIRED_FIELD', path, 'a shipment needs a pickup or a delivery (pickups[] or deliveries[])');
  }

  const loadDemands: Record<string, number> = {};
  const demandsPath = fieldPath(path, 'loadDemands');
  for (const [type, load] of Object.entries(r.map(s, 'loadDemands', path))) {
    const at = keyPath(demandsPath, type);
    if (!noteLoadType(ctx, type, at)) continue;
    if (typeof load !== 'object' || load === null || Array.isArray(load)) {
      r.issue('INVALID_TYPE', at, 'a load demand must be an object {amount}');
      continue;
    }
    const amount = r.int64(load as Message, 'amount', at, { nonNegative: true });
    if (amount !== undefined) put(loadDemands, type, amount);
  }

  const penaltyCost = r.double(s, 'penaltyCost', path, { nonNegative: true });
  const ignore = r.boolean(s, 'ignore', path) ?? false;
  const allowedVehicleIndices = readVehicleIndices(ctx, s, path);
  if (r.issues.count > before || pickup === undefined || delivery === undefined) return undefined;
  return {
    ...(label !== undefined ? { label } : {}),
    pickup,
    delivery,
    loadDemands,
    penaltyCost: present(s, 'penaltyCost') ? (penaltyCost ?? 0) : null,
    ignore,
    allowedVehicleIndices,
  };
}

function readVehicleIndices(ctx: CheckContext, s: Message, path: string): number[] | null {
  const { r } = ctx;
  const listPath = fieldPath(path, 'allowedVehicleIndices');
  const out: number[] = [];
  r.list(s, 'allowedVehicleIndices', path).forEach((v, i) => {
    const at = indexPath(listPath, i);
    const parsed = parseInt32(v);
    if (!parsed.ok) {
      r.issue(parsed.issue, at, `allowedVehicleIndices ${parsed.message}`);
      return;
    }
    const index = parsed.value;
    if (index < 0 || index >= ctx.vehicleCount) r.issue('OUT_OF_RANGE', at, `allowedVehicleIndices: ${index} is not a vehicle index (0 to ${ctx.vehicleCount - 1})`);
    else if (out.includes(index)) r.issue('DUPLICATE_VALUE', at, `allowedVehicleIndices: ${index} is listed twice`);
    else out.push(index);
  });
  return out.length > 0 ? out : null;
}

function readVisit(ctx: CheckContext, v: Message, path: string): RequestVisit | undefined {
  const { r } = ctx;
  const before = r.issues.count;
  r.refuse(v, 'loadDemands', path, NOT_YET, 'per-visit load demands are not supported; use the shipment loadDemands');
  r.refuse(v, 'demands', path, NOT_YET, 'deprecated; use the shipment loadDemands');
  r.refuse(v, 'visitTypes', path, NOT_YET, 'visit types are not supported');
  r.refuse(v, 'cost', path, NOT_YET, 'visit costs are not supported');
  r.boolean(v, 'avoidUTurns', path);
  const label = r.string(v, 'label', path);
  const tags = r.strings(v, 'tags', path);
  const duration = r.duration(v, 'duration', path) ?? 0;
  const timeWindows = readTimeWindows(ctx, v, 'timeWindows', path);
  const place = visitPlace(ctx, v, tags, path);
  if (r.issues.count > before || place === undefined) return undefined;
  return { place, duration, timeWindows: timeWindows.filter((w) => w !== undefined), tags, ...(label !== undefined ? { label } : {}) };
}

function visitPlace(ctx: CheckContext, v: Message, tags: string[], path: string): Place | undefined {
  const { r } = ctx;
  const arrival = readCoordinates(r, v, 'arrivalLocation', 'arrivalWaypoint', path);
  const departure = readCoordinates(r, v, 'departureLocation', 'departureWaypoint', path);
  if (ctx.matrices) {
    for (const c of [arrival, departure]) {
      if (c.given) r.issue('CONFLICTING_FIELDS', c.field, 'with own matrices, place stops by tags, not coordinates');
    }
    const cell = visitCell(r, ctx.matrices, tags, fieldPath(path, 'tags'));
    return cell && !arrival.given && !departure.given ? { kind: 'tags', ...cell } : undefined;
  }
  if (!arrival.given) {
    r.issue('MISSING_REQUIRED_FIELD', fieldPath(path, 'arrivalLocation'), 'a visit needs arrivalLocation {latitude, longitude} (or arrivalWaypoint.location.latLng)');
    return undefined;
  }
  if (!arrival.latLng) return undefined;
  if (departure.given && departure.latLng && !sameLatLng(departure.latLng, arrival.latLng)) {
    r.issue(NOT_YET, departure.field, 'a departure place different from the arrival place is not supported');
    return undefined;
  }
  return { kind: 'coordinates', latLng: arrival.latLng };
}
