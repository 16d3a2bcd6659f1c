/** The printed side-by-side of bench/maps/build.ts: ours vs tilemaker, whole build and per zoom. */
import type { OursRun } from './ours-build.ts';
import { totalBytes, totalTiles, type ZoomCensus } from './tile-census.ts';
import type { TilemakerRun } from './tilemaker.ts';

export const mib = (b: number) => `${(b / 2 ** 20).toFixed(b < 10 * 2 ** 20 ? 2 : 0)} MiB`;
const secs = (s: number | null) => (s === null ? '-' : `${s.toFixed(2)} s`);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? (a / b).toFixed(2) : '-');
const count = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('en-CA'));

export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('   ').trimEnd()).join('\n');
}

export interface BuildSide {
  ours: OursRun;
  /** Our archive's tiles intersecting the extract's bbox. */
  oursInBox: ZoomCensus[];
  peer: TilemakerRun | null;
  peerName: string;
}

export function wholeBuildTable({ ours, oursInBox, peer, peerName }: BuildSide): string {
  const ok = peer?.outcome === 'ok' ? peer : null;
  const cell = (text: string) => (!peer ? 'not run' : peer.outcome === 'ok' ? text : `${peer.outcome} after ${secs(peer.seconds)}`);
  const r = ours.report;
  const peerTiles = ok ? totalTiles(ok.zooms) : null;
  const peerBytes = ok ? totalBytes(ok.zooms) : null;
  return formatTable([
    ['', 'ours (canmap basemap)', peerName, 'ours / tilemaker'],
    ['wall time (spawn to exit)', secs(ours.seconds), cell(secs(peer?.seconds ?? null)), ratio(ours.seconds, ok?.seconds)],
    ['CPU time (user + system)', secs(ours.cpuSeconds), cell(secs(peer?.cpuSeconds ?? null)), ratio(ours.cpuSeconds, ok?.cpuSeconds)],
    ['peak RSS', mib(ours.peakRssBytes), peer ? mib(peer.peakRssBytes) : 'not run', ratio(ours.peakRssBytes, peer?.peakRssBytes)],
    ['tiles inside the extract bbox', count(totalTiles(oursInBox)), cell(count(peerTiles)), ratio(totalTiles(oursInBox), peerTiles)],
    ['tile bytes inside the bbox (gzip)', count(totalBytes(oursInBox)), cell(count(peerBytes)), ratio(totalBytes(oursInBox), peerBytes)],
    ['tiles, whole archive', count(r?.addressedTiles), cell(count(peerTiles)), ratio(r?.addressedTiles, peerTiles)],
    ['archive file bytes', count(r?.archiveBytes), cell(count(ok?.fileBytes)), ratio(r?.archiveBytes, ok?.fileBytes)],
  ]);
}

export function perZoomTable(oursInBox: readonly ZoomCensus[], peer: readonly ZoomCensus[]): string {
  const rows = [['zoom', 'ours tiles', 'tilemaker tiles', 'ratio', 'ours bytes', 'tilemaker bytes', 'ratio']];
  for (const o of oursInBox) {
    const p = peer.find((z) => z.z === o.z);
    rows.push([`z${o.z}`, count(o.tiles), count(p?.tiles ?? 0), ratio(o.tiles, p?.tiles), count(o.bytes), count(p?.bytes ?? 0), ratio(o.bytes, p?.bytes)]);
  }
  return formatTable(rows);
}
