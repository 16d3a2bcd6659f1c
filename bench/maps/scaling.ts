/**
 * How our basemap build would scale to all of Canada, from two builds of different size (the
 * Vancouver extract and the downtown sample): the difference between them is the cost of the OSM
 * features alone, without Node's start-up and the coarse national layers both builds make alike.
 * Linear extrapolation is an assumption; so is the size of Canada.
 */
import os from 'node:os';
import type { BasemapWorkerReport } from './basemap-build-worker.ts';

/** OSM Canada, features of the basemap's layers (buildings are most of them): an assumed round figure. */
export const CANADA_FEATURES = 90e6;

export interface BuildPoint {
  /** Peak RSS of the build process (GNU time). */
  peakRssBytes: number;
  report: BasemapWorkerReport;
}

export interface Scaling {
  grossFeaturesPerSecond: number;
  /** Of the features only the larger build has: null when the two builds do not differ usefully. */
  marginalFeaturesPerSecond: number | null;
  marginalPeakBytesPerFeature: number | null;
  /** Heap + external memory retained when tiling starts, per feature (marginal). */
  marginalHeldBytesPerFeature: number | null;
  canadaSeconds: number | null;
  /**
   * What Canada's features alone would retain when tiling starts, from the retained slope: a lower
   * bound of the peak. The peak slope is not used: two peaks a few hundred MB apart, each set by
   * more than the features (GC headroom, the tiler's buffers), vary by more than their difference.
   */
  canadaHeldBytes: number | null;
}

/** What the two builds retain when tiling starts (runs with full GCs, apart from the timed ones). */
export interface HeldPoints {
  large: number;
  small: number;
}

export function scaling(large: BuildPoint, small: BuildPoint, held: HeldPoints | null): Scaling {
  const l = large.report;
  const s = small.report;
  const features = l.inputFeatures - s.inputFeatures;
  const positive = (v: number) => (features > 0 && v > 0 ? v : null);
  const secondsPerFeature = positive((l.seconds - s.seconds) / features);
  const peakPerFeature = positive((large.peakRssBytes - small.peakRssBytes) / features);
  const heldPerFeature = held === null ? null : positive((held.large - held.small) / features);
  const rest = CANADA_FEATURES - l.inputFeatures;
  return {
    grossFeaturesPerSecond: l.inputFeatures / l.seconds,
    marginalFeaturesPerSecond: secondsPerFeature === null ? null : 1 / secondsPerFeature,
    marginalPeakBytesPerFeature: peakPerFeature,
    marginalHeldBytesPerFeature: heldPerFeature,
    canadaSeconds: secondsPerFeature === null ? null : l.seconds + rest * secondsPerFeature,
    canadaHeldBytes: heldPerFeature === null ? null : CANADA_FEATURES * heldPerFeature,
  };
}

const gb = (b: number) => `${(b / 1e9).toFixed(b >= 1e11 ? 0 : 1)} GB`;
const perMillion = (b: number | null) => (b === null ? 'not derivable (the two builds do not differ enough)' : `${gb(b * 1e6)} per million features`);

export function scalingLines(large: BuildPoint, small: BuildPoint, held: HeldPoints | null): string[] {
  const sc = scaling(large, small, held);
  const hours = (s: number) => `${(s / 3600).toFixed(1)} h`;
  const lines = [
    `scaling (ours): ${large.report.inputFeatures.toLocaleString('en-CA')} features in ${large.report.seconds.toFixed(1)} s in-process = ${sc.grossFeaturesPerSecond.toFixed(0)} features/s gross,`,
    `  peak RSS ${perMillion(large.peakRssBytes / large.report.inputFeatures)} gross (Node and the coarse layers included);`,
    `  against the ${small.report.inputFeatures.toLocaleString('en-CA')}-feature downtown sample (same coarse layers), the extract's extra features cost`,
    `  ${sc.marginalFeaturesPerSecond === null ? 'an amount below the noise' : `${sc.marginalFeaturesPerSecond.toFixed(0)} features/s`}, peak RSS ${perMillion(sc.marginalPeakBytesPerFeature)}`
      + `${sc.marginalPeakBytesPerFeature === null ? '' : ' (noisy: two peaks a few hundred MB apart)'},`,
    `  retained in memory when tiling starts (after a full GC, in separate runs) ${perMillion(sc.marginalHeldBytesPerFeature)}.`,
    `Canada (assumption: ${(CANADA_FEATURES / 1e6).toFixed(0)} M features of these layers, linear extrapolation from the figures above):`,
    `  time ${sc.canadaSeconds === null ? 'not derivable' : `≈ ${hours(sc.canadaSeconds)} on one build process`};`
      + ` memory: the features alone, held before tiling, ${sc.canadaHeldBytes === null ? 'not derivable' : `≈ ${gb(sc.canadaHeldBytes)} (${(sc.canadaHeldBytes / os.totalmem()).toFixed(1)}× this machine's memory)`},`
      + ' a lower bound of the peak.',
    '  The OSM feature read (ingest/osm/features.ts via ingest/basemap/osm-layers.ts) keeps every selected',
    '  area, line and point in arrays, and buildBasemap concatenates them with the coarse layers before',
    '  tiling; the tiler itself is bounded (250,000 features / 256 MiB in memory, the rest spooled to',
    '  partition files). To stay in memory at national scale the build must hand features to the tiler as',
    '  they are assembled (an async iterable per layer, which tileToArchive already accepts) instead of',
    '  collecting arrays. The node coordinates kept for way assembly (NodeStore, 24 bytes per node a',
    '  selected way uses) are already compact: a few GB for the few hundred million such nodes Canada',
    '  may have (also an assumption).',
  ];
  return lines;
}
