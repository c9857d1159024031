// The starter page: the sinusoidal table from the wasm core, redrawn as the
// sliders move. All numbers come from the core; this file only draws.
import { loadPosenc } from './posenc.js';

const $ = (id) => document.getElementById(id);

function colour(v) {
  // -1 -> blue, 0 -> white, +1 -> red
  const t = Math.max(-1, Math.min(1, v));
  const a = Math.round(255 * (1 - Math.abs(t)));
  return t >= 0 ? [255, a, a] : [a, a, 255];
}

// numpy-style row: fixed 4 decimals, padded to a common width.
function formatRow(values) {
  const cells = Array.from(values, (v) => v.toFixed(4));
  const width = Math.max(...cells.map((c) => c.length));
  return `[${cells.map((c) => c.padStart(width)).join(', ')}]`;
}

const pe = await loadPosenc();
$('build').textContent = pe.simd ? 'WebAssembly SIMD' : 'WebAssembly (scalar fallback)';

function render() {
  const maxLen = Number($('max-len').value);
  const dModel = Number($('d-model').value);
  const base = Number($('base').value);
  $('max-len-value').textContent = maxLen;
  $('d-model-value').textContent = dModel;
  let table;
  let frequencies;
  try {
    table = pe.sinusoidal(maxLen, dModel, { base });
    frequencies = pe.sinusoidalFrequencies(dModel, { base });
    $('error').hidden = true;
  } catch (e) {
    $('error').textContent = e.message;
    $('error').hidden = false;
    return;
  }
  const canvas = $('heatmap');
  canvas.width = dModel;
  canvas.height = maxLen;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(dModel, maxLen);
  for (let i = 0; i < table.length; i++) {
    const [r, g, b] = colour(table[i]);
    image.data.set([r, g, b, 255], i * 4);
  }
  ctx.putImageData(image, 0, 0);
  const shown = Math.min(maxLen, 4);
  const lines = [];
  for (let p = 0; p < shown; p++) lines.push(`pe[${p}] = ${formatRow(table.subarray(p * dModel, p * dModel + Math.min(dModel, 8)))}${dModel > 8 ? ' …' : ''}`);
  $('rows').textContent = lines.join('\n');
  canvas.onmousemove = (event) => {
    const rect = canvas.getBoundingClientRect();
    const col = Math.floor(((event.clientX - rect.left) / rect.width) * dModel);
    const row = Math.floor(((event.clientY - rect.top) / rect.height) * maxLen);
    if (col < 0 || row < 0 || col >= dModel || row >= maxLen) return;
    const wavelength = (2 * Math.PI) / frequencies[col >> 1];
    $('readout').textContent = `position ${row}, dimension ${col}: ${table[row * dModel + col].toFixed(4)} (wavelength ${wavelength.toFixed(1)})`;
  };
}

$('controls').addEventListener('input', render);
render();
