// The two API calls the page makes itself; MapLibre fetches tiles, glyphs and sprites.

/** A readable sentence for a failed answer: the API's error (with detail or code), else the status. */
async function failure(response) {
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // plain-text errors (tiles, unserved paths) are shown as they are
  }
  const message = body && typeof body.error === 'string' ? body.error : text.trim() || response.statusText;
  const detail = Array.isArray(body?.detail) ? `: ${body.detail.join('; ')}` : '';
  return new Error(`${response.status} ${message}${detail}`);
}

export async function fetchStyle(url) {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** Catalog rows that have tile archives (the ones a style can draw as overlays). */
export async function fetchOverlayLayers(origin, key) {
  const response = await fetch(`${origin}/layers?key=${encodeURIComponent(key)}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  const rows = await response.json();
  return rows
    .filter((row) => Array.isArray(row.archives) && row.archives.length > 0)
    .map((row) => ({ id: row.id, label: row.display_name?.en ?? row.id, addon: row.addon }));
}
