/**
 * Writes parcels-abbotsford.csv: `node --import tsx samples/parcels/make-sample.ts`. Thirty
 * made-up farm lots on Sumas Prairie (Abbotsford, Fraser Valley) in ParcelMap BC's parcel-fabric
 * CSV form as a BC Data Catalogue export with WKT in EPSG:4326 writes it; PIDs, plans and names
 * are invented, not ParcelMap BC data.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const WEST = -122.2;
const SOUTH = 49.06;
/** A lot 200 m east-west by 400 m north-south. */
const DX = 0.2 / (111.32 * Math.cos((SOUTH * Math.PI) / 180));
const DY = 0.4 / 111.2;

const f = (v: number) => v.toFixed(6);
const ring = (w: number, s: number, e: number, n: number) => `(${f(w)} ${f(s)}, ${f(e)} ${f(s)}, ${f(e)} ${f(n)}, ${f(w)} ${f(n)}, ${f(w)} ${f(s)})`;
const csv = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

const header = ['WKT', 'PARCEL_FABRIC_POLY_ID', 'PARCEL_NAME', 'PLAN_NUMBER', 'PIN', 'PID', 'PID_FORMATTED', 'PARCEL_STATUS',
  'PARCEL_CLASS', 'OWNER_TYPE', 'MUNICIPALITY', 'REGIONAL_DISTRICT', 'FEATURE_AREA_SQM'];
const rows: (string | number)[][] = [];
for (let i = 0; i < 30; i++) {
  const col = i % 6;
  const row = Math.floor(i / 6);
  const [w, s] = [WEST + col * DX, SOUTH + row * DY];
  const [e, n] = [w + DX * 0.98, s + DY * 0.98];
  let wkt = `POLYGON (${ring(w, s, e, n)})`;
  let area = 0.2 * 0.98 * 0.4 * 0.98 * 1e6;
  if (i === 7) {
    // a farm with a separately titled house lot cut out of it
    const [hw, hs] = [w + DX * 0.4, s + DY * 0.4];
    wkt = `POLYGON (${ring(w, s, e, n)}, ${ring(hw, hs, hw + DX * 0.2, hs + DY * 0.1).replace(/\(|\)/g, '').split(', ').reverse().join(', ').replace(/^/, '(').replace(/$/, ')')})`;
    area -= 0.04 * 0.04 * 1e6;
  }
  if (i === 13) {
    // one title over two pieces either side of a drainage ditch
    const mid = w + DX * 0.45;
    wkt = `MULTIPOLYGON ((${ring(w, s, mid, n)}), (${ring(mid + DX * 0.05, s, e, n)}))`;
    area *= 0.95;
  }
  const crown = i === 5 || i === 22 || i === 29;
  const pid = String(9123000 + i * 37).padStart(9, '0');
  rows.push([
    wkt, 5200100 + i, crown ? 'Crown land (sample)' : `Lot ${i + 1} Section ${10 + row} Township 16 NWD (sample)`,
    crown ? '' : `NWP${1200 + row * 10}`, crown ? String(80010000 + i) : '', crown ? '' : String(Number(pid)),
    crown ? '' : `${pid.slice(0, 3)}-${pid.slice(3, 6)}-${pid.slice(6)}`, 'Active', crown ? 'Crown Provincial' : 'Subdivision',
    crown ? 'Crown Provincial' : 'Private', 'City of Abbotsford', 'Fraser Valley Regional District', Math.round(area),
  ]);
}
writeFileSync(path.join(import.meta.dirname, 'parcels-abbotsford.csv'), [header, ...rows].map((r) => r.map(csv).join(',')).join('\n') + '\n');
