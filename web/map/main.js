// The map page: loads a style from this API with the key of the page URL, over MapLibre GL JS.
// A test (or a person in the console) finds everything under window.__canmap:
//   map        the MapLibre map (null until a style loaded once)
//   ready      a promise for the current style: {ok: true} at the map's next 'idle' after it
//              was applied, {ok: false, error} when the style request failed (never rejects)
//   styleUrl   the style URL last requested
//   mapErrors  messages of the map's 'error' events (failed tiles, glyphs, sprites)
import { AttributionControl, Map, NavigationControl, ScaleControl } from './vendor/maplibre-gl.mjs';
import { fetchOverlayLayers, fetchStyle } from './api.js';
import {
  bindControls, setStatus, setTerrainAvailable, showKeyForm, showOverlays, showOverlaysUnavailable, showStyleUrl, showView,
} from './panel.js';
import { readState, styleUrl, writeState } from './state.js';

const VANCOUVER = { center: [-123.12, 49.28], zoom: 11 };
const TERRAIN_EXAGGERATION = 1.5;

const state = readState(location);
const canmap = { map: null, ready: Promise.resolve({ ok: false, error: 'no API key' }), styleUrl: '', mapErrors: [] };
window.__canmap = canmap;

function demSourceOf(style) {
  return Object.entries(style.sources ?? {}).find(([, source]) => source.type === 'raster-dem')?.[0];
}

function createMap(style) {
  // The page's centre wins over the style's own (the whole country); a #zoom/lat/lng hash wins over both.
  const map = new Map({ container: 'map', style, ...VANCOUVER, hash: true, attributionControl: false });
  map.addControl(new NavigationControl({ visualizePitch: true }), 'top-right');
  map.addControl(new ScaleControl(), 'bottom-left');
  map.addControl(new AttributionControl({ compact: true }), 'bottom-right');
  map.on('move', () => showView(map));
  map.on('load', () => showView(map));
  map.on('error', (event) => {
    const message = event.error?.message ?? String(event.error);
    canmap.mapErrors.push(message);
    setStatus(`map: ${message}`, true);
  });
  return map;
}

let generation = 0;

async function loadStyle() {
  const mine = ++generation;
  const url = styleUrl(location.origin, state);
  canmap.styleUrl = url;
  showStyleUrl(url);
  let style;
  try {
    style = await fetchStyle(url);
  } catch (err) {
    if (mine === generation) setStatus(`style: ${err.message}`, true);
    return { ok: false, error: err.message };
  }
  if (mine !== generation) return { ok: false, error: 'superseded by a newer style' };
  const dem = demSourceOf(style);
  setTerrainAvailable(dem !== undefined);
  if (state.terrain && dem !== undefined) style.terrain = { source: dem, exaggeration: TERRAIN_EXAGGERATION };
  setStatus('');
  try {
    if (canmap.map) canmap.map.setStyle(style, { diff: false });
    else canmap.map = createMap(style);
  } catch (err) {
    setStatus(`the map cannot start here: ${err.message}`, true);
    return { ok: false, error: err.message };
  }
  await new Promise((resolve) => canmap.map.once('idle', resolve));
  return { ok: true };
}

function change(patch) {
  Object.assign(state, patch);
  writeState(state);
  canmap.ready = loadStyle();
}

function start() {
  if (!state.key) {
    showKeyForm();
    return;
  }
  writeState(state);
  bindControls(state, change);
  canmap.ready = loadStyle();
  fetchOverlayLayers(location.origin, state.key).then(
    (layers) => {
      const listed = new Set(layers.map((layer) => layer.id));
      // ids the list does not show (uploads, byod:…) stay in the selection.
      const unlisted = () => state.overlays.filter((id) => !listed.has(id));
      showOverlays(layers, state.overlays, (ids) => change({ overlays: [...ids, ...unlisted()] }));
    },
    (err) => showOverlaysUnavailable(err.message),
  );
}

start();
