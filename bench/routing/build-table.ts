/** The road graph build benchmark's table (one column per build) and per-build phase lines. */
import os from 'node:os';
import type { Measured } from '../support/measure.ts';
import type { WorkerReport } from './build-worker.ts';

export interface Build {
  label: string;
  measured: Measured;
  report: WorkerReport;
  /** 1/5/15-minute load averages as the build started and ended. */
  loadBefore: string;
  loadAfter: string;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toLocaleString('en-CA', { maximumFractionDigits: 0 })} MiB`;
const count = (n: number) => n.toLocaleString('en-CA');

export function buildTable(builds: Build[]): string {
  const rows: [string, (b: Build) => string][] = [
    ['nodes / directed edges', (b) => `${count(b.report.nodes)} / ${count(b.report.edges)}`],
    ['forbidden turns (restriction table)', (b) => count(b.report.restrictions)],
    ['restriction regions: road nodes / arrival nodes', (b) => `${count(b.report.regionNodes)} / ${count(b.report.regionEdges)}`],
    ['shortcuts', (b) => count(b.report.shortcuts)],
    ['contraction, wall / CPU', (b) => `${b.report.contractionSeconds.toFixed(1)} s / ${b.report.contractionCpuSeconds.toFixed(1)} s`],
    ['whole build, wall (spawn to exit)', (b) => `${b.measured.seconds.toFixed(1)} s`],
    ['whole build, CPU (user + system)', (b) => (b.measured.cpuSeconds === null ? 'n/a' : `${b.measured.cpuSeconds.toFixed(1)} s`)],
    ['peak RSS (GNU time)', (b) => mib(b.measured.peakRssBytes)],
    ['estimated peak (build-memory.ts)', (b) => mib(b.report.estimateBytes)],
    ['roads.graph / roads.ch', (b) => `${mib(b.report.graphBytes)} / ${mib(b.report.chBytes)}`],
    ['load average before → after', (b) => `${b.loadBefore.split(' ')[0]} → ${b.loadAfter.split(' ')[0]}`],
  ];
  return [
    `| ${[`${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`, ...builds.map((b) => b.label)].join(' | ')} |`,
    `|${'---|'.repeat(builds.length + 1)}`,
    ...rows.map(([name, cell]) => `| ${[name, ...builds.map(cell)].join(' | ')} |`),
  ].join('\n');
}

export function buildPhaseLines(build: Build): string[] {
  return [
    `${build.label}, phases (seconds, VmHWM at the end):`,
    ...build.report.phases.map((p) => `  ${p.label.padEnd(34)} ${p.seconds.toFixed(2).padStart(8)} s  ${mib(p.peakRssBytes).padStart(10)}`),
  ];
}
