// What the page shows, kept in its query string so a view can be shared or reloaded:
// ?key=K&style=base-light&theme=u1&overlays=a,b&terrain=1 (the camera lives in the #hash).

export const DEFAULT_STYLE = 'base-light';

export function readState(location) {
  const q = new URLSearchParams(location.search);
  const list = (q.get('overlays') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    key: (q.get('key') ?? '').trim(),
    style: q.get('style') || DEFAULT_STYLE,
    theme: (q.get('theme') ?? '').trim(),
    overlays: [...new Set(list)],
    terrain: q.get('terrain') === '1',
  };
}

export function writeState(state) {
  const q = new URLSearchParams({ key: state.key, style: state.style });
  if (state.theme) q.set('theme', state.theme);
  if (state.overlays.length) q.set('overlays', state.overlays.join(','));
  if (state.terrain) q.set('terrain', '1');
  history.replaceState(null, '', `${location.pathname}?${q}${location.hash}`);
}

/** The style document URL the API serves for this state (what a MapLibre app would load). */
export function styleUrl(origin, state) {
  const q = new URLSearchParams({ key: state.key });
  if (state.theme) q.set('theme', state.theme);
  if (state.overlays.length) q.set('overlays', state.overlays.join(','));
  return `${origin}/styles/${encodeURIComponent(state.style)}.json?${q}`;
}
