// The side panel: the key form, the pickers and what the map currently shows.

const $ = (id) => document.getElementById(id);

export function showKeyForm() {
  $('key-form').hidden = false;
  $('controls').hidden = true;
  $('key-input').focus();
}

export function setStatus(message, isError = false) {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('error', isError);
}

/** Shows the pickers for `state`; `onChange(patch)` is called when the person changes one. */
export function bindControls(state, onChange) {
  $('controls').hidden = false;
  const select = $('style-select');
  if (![...select.options].some((o) => o.value === state.style)) select.add(new Option(state.style, state.style));
  select.value = state.style;
  select.addEventListener('change', () => onChange({ style: select.value }));

  const theme = $('theme-input');
  theme.value = state.theme;
  theme.addEventListener('change', () => onChange({ theme: theme.value.trim() }));

  const terrain = $('terrain-check');
  terrain.checked = state.terrain;
  terrain.addEventListener('change', () => onChange({ terrain: terrain.checked }));
}

/** Enables the 3D-terrain box only when the loaded style has an elevation source. */
export function setTerrainAvailable(available) {
  const terrain = $('terrain-check');
  terrain.disabled = !available;
  terrain.title = available ? '' : 'this style has no elevation source';
}

export function showStyleUrl(url) {
  $('style-url').value = url;
}

export function showView(map) {
  const c = map.getCenter();
  $('view').textContent = `zoom ${map.getZoom().toFixed(2)} · centre ${c.lng.toFixed(4)}, ${c.lat.toFixed(4)}`;
}

/** One checkbox per overlay layer; `onToggle(ids)` gets the new selection in catalog order. */
export function showOverlays(layers, selected, onToggle) {
  const list = $('overlay-list');
  list.replaceChildren();
  if (layers.length === 0) {
    list.innerHTML = '<p class="hint">the catalog has no layers with tiles</p>';
    return;
  }
  for (const layer of layers) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = layer.id;
    box.checked = selected.includes(layer.id);
    box.addEventListener('change', () => {
      const ids = [...list.querySelectorAll('input:checked')].map((b) => b.value);
      onToggle(ids);
    });
    const addon = layer.addon && layer.addon !== 'core' ? ` (add-on: ${layer.addon})` : '';
    label.append(box, ` ${layer.label} `);
    const id = document.createElement('span');
    id.className = 'hint';
    id.textContent = `${layer.id}${addon}`;
    label.append(id);
    list.append(label);
  }
}

export function showOverlaysUnavailable(message) {
  const p = document.createElement('p');
  p.className = 'hint';
  p.textContent = `overlays unavailable: ${message}`;
  $('overlay-list').replaceChildren(p);
}
