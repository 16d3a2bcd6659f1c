// The usage chart, drawn by uPlot: billable calls per day and family on the left axis, the
// month's running total and the included calls on the right one.
import uPlot from './vendor/uPlot.esm.js';
import { formatCount } from './format.js';

/** Family line colours, in the order of the (sorted) families; they repeat past the tenth. */
export const FAMILY_COLOURS = ['#2680c2', '#27ab83', '#f0b429', '#9446ed', '#e8684a', '#0e7c86', '#c65d7b', '#5d6d7e', '#8cad2c', '#d64545'];
export const TOTAL_COLOUR = '#1f2933';
export const INCLUDED_COLOUR = '#e12d39';

const HEIGHT = 320;
const countTicks = (_u, values) => values.map((v) => (v === null ? '' : formatCount(v)));
/** A legend value: none (–) where the cursor is on no day or a day not drawn. */
const legendValue = (_u, v) => (v === null || v === undefined ? '–' : formatCount(v));

function options(series, width) {
  const names = Object.keys(series.families);
  const highest = Math.max(series.included[0] ?? 0, ...series.total.filter((v) => v !== null));
  return {
    width,
    height: HEIGHT,
    scales: {
      x: { time: false },
      day: { range: (_u, _min, max) => [0, Math.max(max, 1) * 1.1] },
      month: { range: () => [0, Math.max(highest, 1) * 1.1] },
    },
    axes: [
      { label: 'day of the month (UTC)' },
      { scale: 'day', label: 'calls per day', size: 70, values: countTicks },
      { scale: 'month', side: 1, label: 'calls this month', size: 80, values: countTicks, grid: { show: false } },
    ],
    series: [
      { label: 'day' },
      ...names.map((name, i) => ({ label: name, scale: 'day', stroke: FAMILY_COLOURS[i % FAMILY_COLOURS.length], width: 2, value: legendValue })),
      { label: 'billable this month', scale: 'month', stroke: TOTAL_COLOUR, width: 2, value: legendValue },
      { label: 'included', scale: 'month', stroke: INCLUDED_COLOUR, width: 1.5, dash: [8, 4], points: { show: false }, value: legendValue },
    ],
  };
}

/** Draws `series` (of usageSeries) into `container`, replacing what was there; follows the container's width. */
export function drawUsageChart(container, series) {
  container.replaceChildren();
  const width = () => Math.max(container.clientWidth, 320);
  const data = [series.x, ...Object.values(series.families), series.total, series.included];
  const chart = new uPlot(options(series, width()), data, container);
  window.addEventListener('resize', () => chart.setSize({ width: width(), height: HEIGHT }));
  return chart;
}
