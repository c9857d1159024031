// The per-frame update of each widget at its default size: what a learner's
// slider drag costs. Each case renders one widget with its default
// attributes, then changes one parameter back and forth and times, per
// change, the widget's whole update (compute with the core, redraw the canvas
// or SVG or text) plus the style and layout it forces. Reported: median and
// 95th percentile (the target: p95 under 16 ms, one frame at 60 Hz).
//
// Runs in a page (web/bench/bench-widgets.html); the build is chosen there with
// configureCore before any widget loads.
import { TRAIN_ENCODINGS } from '../posenc.js';

/**
 * Each widget and the parameter change one "frame" makes; `largest` holds the
 * attributes at the largest sizes the widget's controls allow (the benchmark's
 * "largest" run; a widget without a size control repeats its default case).
 * `module` is the file that defines the tag (from web/) when it is not
 * widgets/<tag>.js; `reference` marks the yardstick, which has no target.
 */
const TWELVE_WORDS = 'the dog bit the man and the man bit the dog back';
const SIXTY_FOUR_WORDS = Array.from({ length: 64 }, (_, i) => ['the', 'dog', 'bit', 'man', 'and', 'ran'][i % 6]).join(
  ' ',
);
export const widgetCases = [
  {
    tag: 'pe-heatmap',
    largest: { 'max-len': '1024', 'd-model': '1024' },
    change: (el, i) => el.setAttribute('base', i % 2 ? '10001' : '10000'),
  },
  {
    tag: 'pe-wave-barcode',
    largest: { sentence: TWELVE_WORDS, 'd-model': '128' },
    change: (el, i) => el.setAttribute('base', i % 2 ? '10001' : '10000'),
  },
  {
    tag: 'pe-binary-counter',
    largest: { positions: '128', 'd-model': '64' },
    change: (el, i) => el.setAttribute('base', i % 2 ? '10001' : '10000'),
  },
  {
    tag: 'attention-permutation',
    largest: { sentence: TWELVE_WORDS },
    change: (el, i) => el.setAttribute('encoding', TRAIN_ENCODINGS[(i + 1) % TRAIN_ENCODINGS.length]),
  },
  {
    tag: 'learned-overflow',
    largest: { rows: '4096', 'd-model': '1024' },
    change: (el, i, big) => el.setAttribute('positions', String((big ? 4095 : 600) + (i % 2))),
  },
  {
    tag: 'rope-clock',
    largest: { sentence: SIXTY_FOUR_WORDS, first: 'dog', second: 'ran', 'd-model': '64' },
    change: (el, i) => el.setAttribute('base', i % 2 ? '10001' : '10000'),
  },
  {
    tag: 'rope-offset-check',
    largest: { m: '10000', n: '9000' },
    change: (el, i) => el.setAttribute('shift', String(100 + (i % 2))),
  },
  {
    tag: 'alibi-bias',
    largest: { heads: '32', 'seq-len': '64', head: '32' },
    change: (el, i) => el.setAttribute('causal', i % 2 ? 'false' : 'true'),
  },
  {
    tag: 't5-buckets',
    largest: { 'query-len': '128', 'key-len': '128', 'num-buckets': '128', 'max-distance': '4096' },
    change: (el, i, big) => el.setAttribute('max-distance', String((big ? 4096 : 128) - (i % 2))),
  },
  {
    tag: 'rope-scaling-lab',
    largest: { dim: '512', 'seq-len': '16777216' },
    change: (el, i) => el.setAttribute('factor', i % 2 ? '4.5' : '4'),
  },
  // largest: a pasted config with the widest head the lab reads (head_dim 65536: 32768 pairs), YaRN-scaled
  {
    tag: 'rope-config-lab',
    largest: {},
    setup: (el, big) =>
      big &&
      pasteConfig(el, {
        head_dim: 65536,
        max_position_embeddings: 1 << 20,
        rope_theta: 1e6,
        rope_scaling: { rope_type: 'yarn', factor: 32, original_max_position_embeddings: 32768 },
      }),
    change: (el, i) => el.setAttribute('target', String(i % 2 ? 1 << 24 : (1 << 24) - 1)),
  },
  { tag: 't5-learned-bias', largest: {}, change: (el, i) => el.setAttribute('seed', String(1 + (i % 3))) },
  {
    tag: 'pe-quiz',
    attrs: { quiz: 'sinusoidal-fastest-pair' },
    change: (el, i) => el.setAttribute('quiz', i % 2 ? 'rope-what-rotates' : 'sinusoidal-fastest-pair'),
  },
  {
    tag: 'pe-live-output',
    attrs: { sample: 'seat-vectors' },
    change: (el, i) => el.setSampleValue('d_model', i % 2 ? 6 : 4),
  },
  // not a widget: a fixed amount of work, the yardstick of each run (reference.js)
  {
    tag: 'bench-reference',
    module: './reference.js',
    reference: true,
    largest: {},
    change: (el, i) => el.setAttribute('step', String(i % 2)),
  },
];

// rope-config-lab's own path for a config: paste it and press "Show this config"
function pasteConfig(el, config) {
  el.shadowRoot.querySelector('textarea').value = JSON.stringify(config);
  [...el.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Show this config').click();
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/**
 * Runs every case in `host` (an element of the page); returns [{ tag, median,
 * p95, max, n }]. size 'largest' sets each case's `largest` attributes and
 * leaves out the widgets that have none; only: [tags] runs those alone.
 */
export async function runWidgetBench(
  host,
  { frames = 100, size = 'default', only = null, onProgress = () => {} } = {},
) {
  const results = [];
  const big = size === 'largest';
  for (const c of widgetCases) {
    if ((big && !c.largest) || (only && !only.includes(c.tag))) continue;
    const el = document.createElement(c.tag);
    for (const [k, v] of Object.entries({ ...c.attrs, ...(big ? c.largest : {}) })) el.setAttribute(k, v);
    host.replaceChildren(el);
    el.scrollIntoView();
    // first render (loads the core and any module the widget imports)
    for (let i = 0; i < 50 && !el.hasAttribute('data-ready'); i++) {
      await el.updateNow();
      if (!el.hasAttribute('data-ready')) await new Promise((r) => setTimeout(r, 20));
    }
    if (c.setup) {
      c.setup(el, big);
      await el.updateNow();
      const error = el.shadowRoot.querySelector('.error')?.textContent;
      if (error) throw new Error(`${c.tag}: the bench's setup failed: ${error}`);
    }
    const times = [];
    for (let i = 0; i < frames + 5; i++) {
      c.change(el, i + 1, big);
      const t0 = performance.now();
      await el.updateNow();
      el.getBoundingClientRect(); // the style and layout the update forces
      const t1 = performance.now();
      if (i >= 5) times.push(t1 - t0); // the first few warm the JIT
    }
    const error = el.shadowRoot.querySelector('.error')?.textContent ?? '';
    times.sort((a, b) => a - b);
    const r = {
      tag: c.tag,
      median: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      max: times.at(-1),
      n: times.length,
      error,
    };
    results.push(r);
    onProgress(`${c.tag}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
    // let the browser paint between widgets
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  host.replaceChildren();
  return results;
}
