/**
 * Writes the energy samples (wells-ab-st37.csv, wells-sk-st37.csv, wells-bc.csv,
 * facilities-ab-st102.csv): `node --import tsx samples/energy/make-samples.ts`. Names, operators
 * and licences are made up ("SAMPLE" operators); UWIs are well formed and coordinates fall in or
 * at their legal location (DLS: the LSD centre of engines/survey/dls.ts; NTS by the
 * exact BC grid of engines/survey).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseUwi } from '../../engines/energy/uwi.ts';
import { dlsCell } from '../../engines/survey/dls.ts';
import { parseNts } from '../../engines/survey/nts.ts';

const DIR = import.meta.dirname;
function wellPoint(uwi: string): [number, number] {
  const { location } = parseUwi(uwi);
  if (location.kind === 'dls') {
    const { lsd, section, township, range, meridian } = location;
    return dlsCell({ level: 'lsd', lsd, section, township, range, meridian }).centre;
  }
  if (location.kind !== 'nts') throw new Error(`no sample location for ${uwi}`);
  const cell = parseNts(`${location.quarterUnit}-${location.unit}-${location.block}/${location.series}-${location.mapArea}-${location.sheet}`);
  const [w, s, e, n] = cell.bounds;
  return [(w + e) / 2, (s + n) / 2];
}

const csvField = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
const write = (file: string, header: string[], rows: (string | number)[][]) =>
  writeFileSync(path.join(DIR, file), [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n');
const fix = (v: number) => Number(v.toFixed(5));

const AB_OPERATORS = ['Foothills Sample Energy Ltd.', 'Prairie Sample Resources Inc.', 'Chinook Sample Petroleum Corp.', 'Athabasca Sample Oil Ltd.'];
const STATUSES = ['Issued', 'Amended', 'Suspension', 'Abandoned', 'RecCertified'];
// [UWI display, well name]; the last is VECTORS.md's real UWI in the oil sands
const AB_WELLS: [string, string][] = [
  ['100/06-32-048-07W5/00', 'SAMPLE PEMBINA 6-32-48-7'], ['102/06-32-048-07W5/02', 'SAMPLE PEMBINA 6-32-48-7'],
  ['100/01-12-049-08W5/00', 'SAMPLE PEMBINA 1-12-49-8'], ['100/16-04-050-09W5/00', 'SAMPLE DRAYTON VALLEY 16-4-50-9'],
  ['100/10-21-051-07W5/00', 'SAMPLE DRAYTON VALLEY 10-21-51-7'], ['100/08-15-047-06W5/00', 'SAMPLE BUCK CREEK 8-15-47-6'],
  ['100/04-29-045-05W5/00', 'SAMPLE WILLESDEN GREEN 4-29-45-5'], ['100/12-33-043-06W5/00', 'SAMPLE WILLESDEN GREEN 12-33-43-6'],
  ['100/07-11-039-27W4/00', 'SAMPLE INNISFAIL 7-11-39-27'], ['100/11-02-035-01W5/00', 'SAMPLE SYLVAN LAKE 11-2-35-1'],
  ['100/05-17-029-02W5/00', 'SAMPLE CROSSFIELD 5-17-29-2'], ['100/13-10-024-29W4/00', 'SAMPLE CALGARY NORTH 13-10-24-29'],
  ['100/02-26-017-01W5/00', 'SAMPLE TURNER VALLEY 2-26-17-1'], ['100/09-19-020-02W5/00', 'SAMPLE TURNER VALLEY 9-19-20-2'],
  ['100/03-06-011-17W4/00', 'SAMPLE TABER 3-6-11-17'], ['100/14-22-009-16W4/00', 'SAMPLE TABER SOUTH 14-22-9-16'],
  ['100/06-14-016-05W4/00', 'SAMPLE MEDICINE HAT 6-14-16-5'], ['100/10-30-013-06W4/00', 'SAMPLE MEDICINE HAT 10-30-13-6'],
  ['100/15-09-031-12W4/00', 'SAMPLE HANNA 15-9-31-12'], ['100/01-05-038-20W4/00', 'SAMPLE STETTLER 1-5-38-20'],
  ['100/08-27-046-26W4/00', 'SAMPLE LEDUC 8-27-46-26'], ['100/11-16-050-26W4/00', 'SAMPLE LEDUC WOODBEND 11-16-50-26'],
  ['100/16-35-053-25W4/00', 'SAMPLE REDWATER 16-35-53-25'], ['100/04-11-057-21W4/00', 'SAMPLE REDWATER NORTH 4-11-57-21'],
  ['100/12-02-064-04W4/00', 'SAMPLE COLD LAKE 12-2-64-4'], ['100/07-18-066-03W4/00', 'SAMPLE COLD LAKE 7-18-66-3'],
  ['100/03-28-076-08W4/00', 'SAMPLE CONKLIN 3-28-76-8'], ['100/09-14-085-11W4/00', 'SAMPLE ATHABASCA 9-14-85-11'],
  ['1AA/07-22-092-08W4/00', 'SUNCOR LEWIS 7-22-92-8'], ['100/05-06-094-09W4/00', 'SAMPLE FORT MCKAY 5-6-94-9'],
  ['100/06-20-071-06W6/00', 'SAMPLE GRANDE PRAIRIE 6-20-71-6'], ['100/13-31-068-05W6/00', 'SAMPLE WEMBLEY 13-31-68-5'],
  ['100/02-10-063-03W6/00', 'SAMPLE KAKWA 2-10-63-3'], ['100/10-27-060-01W6/00', 'SAMPLE KAYBOB 10-27-60-1'],
  ['100/14-05-062-19W5/00', 'SAMPLE FOX CREEK 14-5-62-19'], ['100/08-33-083-09W6/00', 'SAMPLE PEACE RIVER ARCH 8-33-83-9'],
  ['100/11-24-080-22W5/00', 'SAMPLE PEACE RIVER 11-24-80-22'], ['100/04-09-108-05W6/00', 'SAMPLE RAINBOW LAKE 4-9-108-5'],
  ['100/01-01-115-04W6/00', 'SAMPLE ZAMA 1-1-115-4'], ['100/09-16-070-25W5/00', 'SAMPLE VALLEYVIEW 9-16-70-25'],
];
const SK_WELLS: [string, string][] = [
  ['141/01-02-003-04W2/00', 'SAMPLE WEYBURN 1-2-3-4'], ['191/08-11-006-13W2/00', 'SAMPLE WEYBURN NORTH 8-11-6-13'],
  ['101/10-22-001-08W2/00', 'SAMPLE ESTEVAN 10-22-1-8'], ['101/14-17-014-25W3/00', 'SAMPLE KINDERSLEY 14-17-14-25'],
  ['101/05-30-029-24W3/00', 'SAMPLE KINDERSLEY NORTH 5-30-29-24'], ['121/12-09-050-26W3/00', 'SAMPLE LLOYDMINSTER 12-9-50-26'],
  ['131/02-31-048-27W3/00', 'SAMPLE LLOYDMINSTER 2-31-48-27'], ['101/07-25-015-17W3/00', 'SAMPLE SWIFT CURRENT 7-25-15-17'],
  ['101/16-04-003-19W2/00', 'SAMPLE BAKKEN 16-4-3-19'], ['101/03-13-047-22W3/00', 'SAMPLE NORTH BATTLEFORD 3-13-47-22'],
];
const BC_WELLS: [string, string, string][] = [
  ['100143608517W600', 'SAMPLE MONTNEY 14-36-85-17', '31001'], ['100162512315W602', 'SAMPLE HELMET 16-25-123-15', '31002'],
  ['200D096H094A1500', 'SAMPLE BEATTON RIVER D-96-H/94-A-15', '31003'], ['200/A-044-J/094-A-16/00', 'SAMPLE BLUEBERRY A-44-J/94-A-16', '31004'],
  ['200/B-012-G/094-B-09/00', 'SAMPLE JEDNEY B-12-G/94-B-9', '31005'], ['200/C-077-K/094-G-08/00', 'SAMPLE BUCKINGHORSE C-77-K/94-G-8', '31006'],
  ['200/D-023-E/094-I-14/00', 'SAMPLE SIERRA D-23-E/94-I-14', '31007'], ['202/A-061-L/094-O-09/02', 'SAMPLE HORN RIVER A-61-L/94-O-9', '31008'],
  ['200/B-088-B/094-P-12/00', 'SAMPLE CABIN B-88-B/94-P-12', '31009'], ['100/06-04-079-14W6/00', 'SAMPLE DAWSON CREEK 6-4-79-14', '31010'],
  ['100/10-17-083-19W6/00', 'SAMPLE FORT ST JOHN 10-17-83-19', '31011'],
];

const st37Row = ([uwi, name]: [string, string], i: number, licenceBase: number) => {
  const [lng, lat] = wellPoint(uwi);
  return [uwi, name, String(licenceBase + i).padStart(7, '0'), AB_OPERATORS[i % AB_OPERATORS.length]!, STATUSES[i % STATUSES.length]!, fix(lat), fix(lng)];
};
const ST37_HEADER = ['UWI', 'Well Name', 'Licence Number', 'Licensee Name', 'Well Status', 'Surface Latitude', 'Surface Longitude'];
write('wells-ab-st37.csv', ST37_HEADER, AB_WELLS.map((w, i) => st37Row(w, i, 4000101)));
write('wells-sk-st37.csv', ST37_HEADER, SK_WELLS.map((w, i) => st37Row(w, i, 9000101)));
write('wells-bc.csv', ['WA Num', 'UWI', 'Well Name', 'Oper Abbrev', 'Well Status', 'Surf Nad83 Lat', 'Surf Nad83 Long'],
  BC_WELLS.map(([uwi, name, wa], i) => {
    const [lng, lat] = wellPoint(uwi);
    return [wa, uwi, name, ['NORTHSAMPLE GAS', 'PEACE SAMPLE ENERGY'][i % 2]!, ['ACTIVE', 'SUSPENDED', 'ABANDONED'][i % 3]!, fix(lat), fix(lng)];
  }));

// [id, name, sub-type, near well]
const FACILITIES: [string, string, string, string][] = [
  ['ABBT0100001', 'SAMPLE PEMBINA 6-32 BATTERY', 'Crude Oil Single-Well Battery', '100/06-32-048-07W5/00'],
  ['ABBT0100002', 'SAMPLE DRAYTON VALLEY MULTIWELL BATTERY', 'Crude Oil Multiwell Group Battery', '100/16-04-050-09W5/00'],
  ['ABGP0100003', 'SAMPLE WILLESDEN GREEN GAS PLANT', 'Gas Plant Sweet', '100/04-29-045-05W5/00'],
  ['ABGP0100004', 'SAMPLE CROSSFIELD SOUR GAS PLANT', 'Gas Plant Acid Gas Flaring', '100/05-17-029-02W5/00'],
  ['ABMS0100005', 'SAMPLE TABER METER STATION', 'Meter Station', '100/03-06-011-17W4/00'],
  ['ABCS0100006', 'SAMPLE MEDICINE HAT COMPRESSOR', 'Gas Gathering System Compressor', '100/06-14-016-05W4/00'],
  ['ABIF0100007', 'SAMPLE LEDUC INJECTION FACILITY', 'Water Injection Facility', '100/08-27-046-26W4/00'],
  ['ABBT0100008', 'SAMPLE REDWATER SATELLITE', 'Crude Oil Satellite', '100/16-35-053-25W4/00'],
  ['ABIF0100009', 'SAMPLE COLD LAKE IN SITU PLANT', 'In Situ Oil Sands', '100/12-02-064-04W4/00'],
  ['ABBT0100010', 'SAMPLE CONKLIN THERMAL BATTERY', 'Crude Bitumen Multiwell Group Battery', '100/03-28-076-08W4/00'],
  ['ABGP0100011', 'SAMPLE KAYBOB SOUTH GAS PLANT', 'Gas Plant Sulphur Recovery', '100/10-27-060-01W6/00'],
  ['ABGS0100012', 'SAMPLE GRANDE PRAIRIE GATHERING SYSTEM', 'Gas Gathering System', '100/06-20-071-06W6/00'],
  ['ABBT0100013', 'SAMPLE RAINBOW LAKE BATTERY', 'Crude Oil Multiwell Proration Battery', '100/04-09-108-05W6/00'],
  ['ABMS0100014', 'SAMPLE FOX CREEK SALES METER', 'Meter Station', '100/14-05-062-19W5/00'],
  ['ABWP0100015', 'SAMPLE STETTLER WASTE PLANT', 'Waste Plant', '100/01-05-038-20W4/00'],
];
write('facilities-ab-st102.csv',
  ['Facility ID', 'Facility Name', 'Operator Name', 'Licence Number', 'Facility Status', 'Facility Sub-Type Description', 'Facility Location', 'Latitude', 'Longitude'],
  FACILITIES.map(([id, name, type, near], i) => {
    const [lng, lat] = wellPoint(near);
    const { location } = parseUwi(near);
    const legal = location.kind === 'dls' ? `${String(location.lsd).padStart(2, '0')}-${String(location.section).padStart(2, '0')}-${String(location.township).padStart(3, '0')}-${String(location.range).padStart(2, '0')}${location.meridian}` : '';
    return [id, name, AB_OPERATORS[i % AB_OPERATORS.length]!, `F${String(50001 + i).padStart(6, '0')}`, i % 5 === 4 ? 'Suspended' : 'Active', type, legal, fix(lat + 0.001), fix(lng - 0.0015)];
  }));
