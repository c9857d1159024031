// <attention-permutation sentence="the dog bit the man" encoding="sinusoidal">:
// the permutation experiment. One self-attention layer (d_model 16, 2 heads of
// 8, fixed seeded W_q, W_k, W_v; token embeddings from a seeded hash of each
// word) runs on a sentence and on a shuffle of it. Un-permute the shuffled
// outputs: without any position signal they are the original outputs (self-
// attention is permutation-equivariant); with an encoding they are not.
// The attention itself, the encodings and the biases all come from the core
// (pe.attention, pe.sinusoidal, pe.learnedLookup, pe.ropeApply, ALiBi and T5
// inside pe.attention); this file only makes the toy weights, multiplies the
// 16-wide rows by them, and compares.
import {
  PeElement,
  define,
  css,
  h,
  canvasContext,
  offPageCanvas,
  sameValues,
  setText,
  patchSpecs,
} from '../lib/pe-element.js';
import { seededRandom } from '../lib/random.js';
import { rgb, sequential } from '../lib/colormap.js';
import { exponential, fixed } from '../lib/pyformat.js';

const D_MODEL = 16;
const HEADS = 2;
const HEAD_DIM = D_MODEL / HEADS;
const LEARNED_ROWS = 16; // the toy learned table: more rows than the 12 words allowed
const T5_BUCKETS = 32;
const T5_MAX_DISTANCE = 128;
const ENCODINGS = ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5'];
const ENCODING_LABELS = {
  none: 'none (no position signal)',
  sinusoidal: 'sinusoidal (added to x)',
  learned: 'learned table (added to x)',
  rope: 'RoPE (rotates q and k)',
  alibi: 'ALiBi (bias −m·|i−j|)',
  t5: 'T5 relative buckets (bias)',
};
const ROUNDING = 1e-5; // below this a difference is float32 rounding, not position

// ------------------------------------------------------------ seeded numbers

// FNV-1a: a 32-bit hash of a string, the seed of a word's embedding.
function hashString(text, seed = 0x811c9dc5) {
  let x = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 16777619);
  }
  return x >>> 0;
}

// n values uniform in [-amp, amp), from a seed.
function seededUniform(seed, n, amp = 1) {
  const random = seededRandom(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (2 * random() - 1) * amp;
  return out;
}

// The model's fixed parameters: the same on every page load.
const W_Q = seededUniform(101, D_MODEL * D_MODEL);
const W_K = seededUniform(202, D_MODEL * D_MODEL);
const W_V = seededUniform(303, D_MODEL * D_MODEL);
const LEARNED_TABLE = seededUniform(404, LEARNED_ROWS * D_MODEL);
const T5_TABLE = seededUniform(505, T5_BUCKETS * HEADS, 2); // (numBuckets, heads)

const embed = (word) => seededUniform(hashString(word), D_MODEL);

// A shuffle of the words' seats 0..n-1 whose sentence differs from the
// original and from `avoid` (the shuffled sentence shown now), so that every
// press shows a new sentence: not the identity, nor one that only swaps
// copies of the same word (n >= 2). Its copies of a repeated word are named in
// reading order (inReadingOrder). Where there is none (two words already
// swapped, one word repeated), the swap preset after 64 tries.
function seededShuffle(words, seed, avoid) {
  const n = words.length;
  const original = words.join(' ');
  for (let attempt = 0; attempt < 64; attempt++) {
    const random = seededRandom(seed + attempt * 7919);
    const p = [...Array(n).keys()];
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [p[i], p[j]] = [p[j], p[i]];
    }
    const sentence = p.map((i) => words[i]).join(' ');
    if (sentence !== original && sentence !== avoid) return inReadingOrder(p, words);
  }
  return swapOrder(n);
}

// The same shuffled sentence with the copies of each word in reading order:
// the k-th "the" of the shuffle is named as the k-th "the" of the original
// (which copy is which is not in the layer's input, see pairCopies).
function inReadingOrder(p, words) {
  const unused = new Map(); // word -> its original seats not named yet
  words.forEach((w, i) => {
    if (!unused.has(w)) unused.set(w, []);
    unused.get(w).push(i);
  });
  return p.map((i) => unused.get(words[i]).shift());
}

// The preset: swap the second and the last word ("the dog bit the man" -> "the man bit the dog").
function swapOrder(n) {
  const p = [...Array(n).keys()];
  const a = n >= 3 ? 1 : 0;
  [p[a], p[n - 1]] = [p[n - 1], p[a]];
  return p;
}

// ------------------------------------------------------------ the widget

class AttentionPermutation extends PeElement {
  static tag = 'attention-permutation';
  static description =
    'The permutation experiment: one self-attention layer on a sentence and on a shuffle of it, per positional encoding.';
  static params = {
    sentence: {
      type: 'string',
      default: 'the dog bit the man',
      maxLength: 120,
      pattern: /^\s*\S+(?:\s+\S+){1,11}\s*$/,
      patternMessage: 'must have 2 to 12 words',
      label: 'sentence',
      size: 26,
    },
    encoding: {
      type: 'enum',
      options: ENCODINGS,
      default: 'sinusoidal',
      label: 'encoding',
      optionLabels: ENCODING_LABELS,
    },
    // order[j] = which original word sits in seat j of the shuffled sentence; empty = the swap preset
    order: {
      type: 'string',
      default: '',
      maxLength: 60,
      pattern: /^\s*(?:\d+\s*(?:,\s*\d+\s*)*)?$/,
      patternMessage: 'must be comma-separated positions like 0,4,2,3,1',
      label: 'order',
    },
    head: {
      type: 'enum',
      options: ['1', '2'],
      default: '1',
      label: 'head shown',
      optionLabels: { 1: 'head 1', 2: 'head 2' },
    },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .lesson { font-weight: 600; }
    .buttons { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 10px; }
    .sentences { margin: 6px 0 10px; font-size: .95em; }
    .sentences div { margin: 2px 0; }
    .sentences .tag { display: inline-block; min-width: 6.5em; color: var(--pe-muted); }
    .perm { font-family: var(--pe-mono); font-size: .88em; color: var(--pe-muted); }
    .maps { display: flex; flex-wrap: wrap; gap: 14px 24px; align-items: flex-start; }
    figure { margin: 0; max-width: 100%; }
    figcaption { font-size: .85em; color: var(--pe-muted); max-width: 22em; }
    /* in a figure narrower than the map the canvas scales down, keeping its shape
       (!important: canvasContext sets its height inline) */
    figure canvas { max-width: 100%; height: auto !important; }
    /* the selected row changes only paint (a background, a bar, a shown mark),
       never a size: switching the encoding does not lay the table out again */
    .results tr.selected th, .results tr.selected td { background: var(--pe-panel); box-shadow: inset 0 2px var(--pe-accent), inset 0 -2px var(--pe-accent); }
    .results tr:not(.selected) .mark { visibility: hidden; }
    .results td.verdict, .results th:last-child { text-align: left; }
    .results td.verdict { font-family: system-ui, sans-serif; }
    .results .mark { color: var(--pe-accent); }
    .perword-title { font-size: .9em; margin: 10px 0 0; }
    .note { font-size: .88em; color: var(--pe-muted); }
    .copies:empty { display: none; }
    /* the per-word table's box is the size container its rows query (not the
       host: text drawn on a canvas in a size container lays the container out) */
    .perword { container-type: inline-size; }
    .outrow { font-family: var(--pe-mono); white-space: nowrap; }
    /* on a phone the four numbers of a row wrap instead of pushing the table wider */
    @container (max-width: 560px) { .outrow { white-space: normal; min-width: 7ch; } }
    th, td { overflow-wrap: normal; }
    .results td:nth-child(2), .results th:first-child { white-space: nowrap; }
  `;

  build(root) {
    this.sentencesBox = h('div', { class: 'sentences' });
    this.maps = h('div', { class: 'maps' });
    this.perWord = h('div', { class: 'table-wrap perword' });
    this.results = h('div', { class: 'table-wrap results' });
    this.lesson = h('p', { class: 'lesson', 'aria-live': 'polite' });
    this.perWordTitle = h('p', { class: 'perword-title' });
    this.copiesNote = h('p', { class: 'note copies' });
    this.details = this.tableAlternative('Show the attention weights as numbers', { lazy: true });
    const controlRow = this.controls(['sentence', 'encoding', 'head']);
    // A new sentence starts again from the swap preset (an old order may not fit it).
    this._controls.get('sentence').input.addEventListener('change', () => this.removeAttribute('order'));
    root.append(
      h('h3', {}, 'Shuffle the words: can attention tell?'),
      h(
        'p',
        { class: 'hint' },
        'The same toy attention layer reads a sentence and a shuffle of it. Each word gets an output row (a vector of 16 numbers, 8 per head). ',
        'Put the shuffled sentence’s rows back in the original word order and compare them row by row: ',
        'with no position signal they match (to float32 rounding); with an encoding they differ, unless the shuffle keeps everything that encoding reads (ALiBi here is symmetric: it sees only distances, so it cannot tell a sentence from its reversal). Try Shuffle, then switch the encoding. ',
        'The layer has two heads with their own toy weights; “head shown” picks the one drawn and listed, the differences count both.',
      ),
      controlRow,
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', onclick: () => this._shuffle() }, 'Shuffle'),
        h('button', { type: 'button', onclick: () => this._swap() }, 'Swap 2nd and last word'),
      ),
      this.sentencesBox,
      this.lesson,
      this.maps,
      this.perWordTitle,
      this.copiesNote,
      this.perWord,
      this.results,
      h(
        'p',
        { class: 'note' },
        'The sizes are not a ranking of the schemes: they depend on this layer’s random toy weights and word vectors (another sentence gives other sizes). ',
        'What the test reads is zero (up to float32 rounding) against not zero: not zero means the layer sees the order.',
      ),
      this.details,
    );
  }

  _words() {
    return (this.getAttribute('sentence') ?? AttentionPermutation.params.sentence.default).trim().split(/\s+/);
  }

  _shuffle() {
    const words = this._words();
    if (words.length < 2 || words.length > 12) return;
    const current = this.getAttribute('order') ?? '';
    let shown;
    try {
      shown = parseOrder(current, words.length);
    } catch {
      shown = swapOrder(words.length); // an order that does not fit: its error is on screen
    }
    const p = seededShuffle(words, hashString(`${words.join(' ')}|${current}`), shown.map((i) => words[i]).join(' '));
    this.setAttribute('order', p.join(','));
  }

  _swap() {
    const words = this._words();
    if (words.length >= 2 && words.length <= 12) this.setAttribute('order', swapOrder(words.length).join(','));
  }

  update(pe, p) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const widthCap = Math.max(240, (this.widthOf() || 600) - 30);
    const colors = this.theme();
    const words = p.sentence.trim().split(/\s+/);
    const n = words.length;
    const order = parseOrder(p.order, n);
    const shuffled = order.map((i) => words[i]);

    // 1-2. the embeddings and every encoding on both orders. They depend on
    // the words and the order only: switching the encoding or the head shown
    // reuses them.
    const runsKey = `${words.join(' ')}|${order.join(',')}`;
    if (this._runsKey !== runsKey || this._runsCore !== pe) {
      this._runs = this._attentionRuns(pe, words, order);
      this._copiesText = copiesNote(words);
      this._runsKey = runsKey;
      this._runsCore = pe;
    }
    const runs = this._runs;

    // 3. the sentences and the permutation
    // (every part of the widget below keeps its nodes: patchSpecs and
    // setText change only the attributes and text that differ)
    patchSpecs(this.sentencesBox, [
      ['div', {}, [['span', { class: 'tag' }, 'original'], words.join(' ')]],
      ['div', {}, [['span', { class: 'tag' }, 'shuffled'], shuffled.join(' ')]],
      [
        'div',
        { class: 'perm' },
        `order = [${order.join(', ')}]: position j of the shuffle holds word order[j] of the original. ${describeOrder(order, words)}`,
      ],
    ]);
    const sel = runs[p.encoding];
    // the seat of the shuffle each original word is compared with (its own
    // seat moved by the order, copies of a repeated word paired by pairCopies)
    const pair = sel.pair;
    const sameWords = shuffled.every((w, i) => w === words[i]);
    setText(this.lesson, headline(words, order, p.encoding, sel.max));

    // 4. the attention weights of the selected encoding and head, both orders, in the original word order
    const head = Number(p.head) - 1;
    const scale = sequential(colors.zero, colors.accent);
    const wO = (a, b) => sel.o.weights[(head * n + a) * n + b];
    const wS = (a, b) => sel.s.weights[(head * n + pair[a]) * n + pair[b]];
    const labelsO = words.map((w, i) => `${w} (${i})`);
    const labelsS = words.map((w, i) => `${w} (${pair[i]})`);
    this._mapSlots ??= [{}, {}];
    const figures = [
      heatmap(
        this._mapSlots[0],
        `Original order, head ${head + 1}`,
        labelsO,
        n,
        wO,
        scale,
        colors,
        widthCap,
        'Rows: each word as a query; columns: the words it attends to (position in brackets). Darker = more weight; each row sums to 1.',
      ),
      heatmap(
        this._mapSlots[1],
        `Shuffled order, head ${head + 1}, put back in the original word order`,
        labelsS,
        n,
        wS,
        scale,
        colors,
        widthCap,
        'Same layout as the left map; brackets give each word’s position in the shuffled sentence. Identical maps mean attention saw no difference.',
      ),
    ];
    // kept figures stay in place; a figure made anew replaces the old one
    if (figures.some((f, i) => this.maps.children[i] !== f) || this.maps.children.length !== 2)
      this.maps.replaceChildren(...figures);

    // 5. per word, then every encoding: the largest |difference| after un-permuting
    const SHOWN = 4; // of the head's 8 output numbers
    const outRow = (run, seat) =>
      Array.from(run.output.subarray((head * n + seat) * HEAD_DIM, (head * n + seat) * HEAD_DIM + SHOWN), (v) =>
        fixed(v, 3).padStart(6),
      ).join(' ') + ' …';
    setText(
      this.perWordTitle,
      `Each word’s output row (head ${head + 1}, first ${SHOWN} of ${HEAD_DIM} numbers), in the original sentence and in the shuffle, with the largest difference over both heads (${p.encoding}):`,
    );
    setText(this.copiesNote, this._copiesText);
    patchSpecs(this.perWord, [
      [
        'table',
        {},
        [
          [
            'thead',
            {},
            [
              [
                'tr',
                {},
                [
                  'word (position)',
                  'new position',
                  'output row, original',
                  'output row, shuffle',
                  'largest |diff.|',
                ].map((t) => ['th', { scope: 'col' }, t]),
              ],
            ],
          ],
          [
            'tbody',
            {},
            words.map((w, i) => [
              'tr',
              {},
              [
                ['th', { scope: 'row' }, `${w} (${i})`],
                ['td', {}, String(pair[i])],
                ['td', { class: 'outrow' }, outRow(sel.o, i)],
                ['td', { class: 'outrow' }, outRow(sel.s, pair[i])],
                ['td', {}, formatDiff(sel.perWord[i])],
              ],
            ]),
          ],
        ],
      ],
    ]);
    // the summary's numbers change only with the runs; a switch of encoding
    // moves its selected row (the rows are ENCODINGS, in order)
    if (this._resultsOf === runs) {
      if (this._resultsSel !== p.encoding) {
        const rows = this.results.querySelector('tbody').rows;
        const was = rows[ENCODINGS.indexOf(this._resultsSel)];
        was.removeAttribute('class');
        was.removeAttribute('aria-current');
        const now = rows[ENCODINGS.indexOf(p.encoding)];
        now.setAttribute('class', 'selected');
        now.setAttribute('aria-current', 'true');
      }
    } else
      patchSpecs(this.results, [
        [
          'table',
          {},
          [
            ['caption', {}, 'Every encoding on the same two orders: largest |output difference| after un-permuting'],
            [
              'thead',
              {},
              [
                [
                  'tr',
                  {},
                  [
                    ['th', { scope: 'col' }, 'encoding'],
                    ['th', { scope: 'col' }, 'max |difference|'],
                    ['th', { scope: 'col' }, 'what it means'],
                  ],
                ],
              ],
            ],
            [
              'tbody',
              {},
              ENCODINGS.map((enc) => {
                const d = runs[enc].max;
                const verdict =
                  d === 0
                    ? sameWords
                      ? 'identical: the same sentence, the same outputs'
                      : 'identical: outputs only moved with the words'
                    : d < ROUNDING
                      ? 'equal up to float32 rounding: the same terms, summed in another order (0 in exact arithmetic)'
                      : 'different: the layer sees the order';
                return [
                  'tr',
                  { class: enc === p.encoding ? 'selected' : null, 'aria-current': enc === p.encoding ? 'true' : null },
                  [
                    ['th', { scope: 'row' }, [['span', { class: 'mark' }, '▶ '], enc]],
                    ['td', {}, formatDiff(d)],
                    ['td', { class: 'verdict' }, verdict],
                  ],
                ];
              }),
            ],
          ],
        ],
      ]);
    this._resultsOf = runs;
    this._resultsSel = p.encoding;

    // 6. the text alternative: both weight matrices
    const rowsOf = (labels, w) => labels.map((l, a) => [l, ...labels.map((_, b) => fixed(w(a, b), 3))]);
    this.setTable(
      this.details,
      `Attention weights, ${p.encoding}, head ${head + 1}: original order, then the shuffle put back in the original word order`,
      ['query \\ key', ...labelsO],
      () => [...rowsOf(labelsO, wO), [`— shuffled —`, ...labelsO.map(() => '')], ...rowsOf(labelsS, wS)],
    );
  }

  // Every encoding on both orders, the differences after un-permuting:
  // { enc: { o, s, pair, perWord, max } }; pair[i] = the seat of the shuffle
  // original word i is compared with.
  _attentionRuns(pe, words, order) {
    const n = words.length;
    // 1. token embeddings x: (n, d_model), a seeded hash of each word; the shuffle's rows permuted
    const xO = new Float32Array(n * D_MODEL);
    words.forEach((w, j) => xO.set(embed(w), j * D_MODEL));
    const xS = new Float32Array(n * D_MODEL);
    order.forEach((orig, j) => xS.set(xO.subarray(orig * D_MODEL, (orig + 1) * D_MODEL), j * D_MODEL));
    // 2. every encoding on both orders
    const positions = Float64Array.from({ length: n }, (_, i) => i);
    const shuffled = order.map((i) => words[i]);
    const runs = {};
    for (const enc of ENCODINGS) {
      const o = selfAttention(pe, enc, xO, n, positions);
      const s = selfAttention(pe, enc, xS, n, positions);
      // outputs: (heads, n, head_dim). cost(i, j): the largest |difference|
      // over both heads between original word i's output row and seat j's
      // of the shuffle
      const cost = (i, j) => {
        let m = 0;
        for (let hh = 0; hh < HEADS; hh++) {
          for (let d = 0; d < HEAD_DIM; d++)
            m = Math.max(m, Math.abs(s.output[(hh * n + j) * HEAD_DIM + d] - o.output[(hh * n + i) * HEAD_DIM + d]));
        }
        return m;
      };
      const pair = pairCopies(words, shuffled, cost);
      const perWord = Float64Array.from(pair, (j, i) => cost(i, j));
      runs[enc] = { o, s, pair, perWord, max: Math.max(...perWord) };
    }
    return runs;
  }
}

// Which seat of the shuffle each original word is compared with: pair[i],
// from cost(i, j), the difference between original word i's output and seat
// j's. A word that occurs once has one seat to go to. Copies of a repeated
// word look alike to the layer, so which copy went where is not in its input
// (an order that swaps the two "the" gives the same sentence): the copies are
// paired in reading order (the first "the" with the first "the"), unless
// another pairing makes every output match (to float32 rounding), that is,
// unless the layer cannot tell the two sentences apart. The verdict then
// depends on the two sentences alone: a sentence shuffled into itself is
// identical under every encoding, and a reversal is one for ALiBi however the
// order names the copies. The pairing changes only where the verdict does, so
// the rows and the maps keep their pairs while the encoding is switched.
function pairCopies(words, shuffled, cost) {
  const pair = new Array(words.length);
  // word -> its seats in the original (from) and in the shuffle (to), in reading order
  const groups = new Map();
  words.forEach((w, i) => {
    if (!groups.has(w)) groups.set(w, { from: [], to: [] });
    groups.get(w).from.push(i);
  });
  shuffled.forEach((w, j) => groups.get(w).to.push(j));
  // pass 1: the smallest largest difference any pairing can reach: over the
  // words that occur once, and each repeated word's bottleneck (the smallest
  // bound under which every copy has a partner, found by a binary search over
  // the costs themselves)
  let bound = 0;
  for (const g of groups.values()) {
    // costs: (copies, copies); row a = the a-th copy in the original, column b = the b-th in the shuffle
    g.costs = g.from.map((i) => g.to.map((j) => cost(i, j)));
    const bounds = [...new Set(g.costs.flat())].sort((a, b) => a - b);
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (matchUnder(g.costs, bounds[mid])) hi = mid;
      else lo = mid + 1;
    }
    bound = Math.max(bound, bounds[lo]);
  }
  // pass 2: where some pairing makes every output match, the one closest to
  // reading order under that bound; otherwise reading order
  for (const { from, to, costs } of groups.values()) {
    const col = bound < ROUNDING ? matchUnder(costs, bound) : from.map((_, a) => a);
    col.forEach((b, a) => (pair[from[a]] = to[b]));
  }
  return pair;
}

// A pairing of every row with its own column using only costs <= bound
// (col[a] = the column of row a), or null where there is none: augmenting
// paths (Kuhn), from the reading order's pairs (the diagonal) that are allowed,
// so that ties keep copies in order. At most 12 copies: no need for faster.
function matchUnder(costs, bound) {
  const c = costs.length;
  const col = new Array(c).fill(-1);
  const row = new Array(c).fill(-1);
  for (let a = 0; a < c; a++) if (costs[a][a] <= bound) [col[a], row[a]] = [a, a];
  const augment = (a, seen) => {
    for (let b = 0; b < c; b++) {
      if (costs[a][b] > bound || seen[b]) continue;
      seen[b] = true;
      if (row[b] < 0 || augment(row[b], seen)) {
        [col[a], row[b]] = [b, a];
        return true;
      }
    }
    return false;
  };
  for (let a = 0; a < c; a++) if (col[a] < 0 && !augment(a, new Array(c).fill(false))) return null;
  return col;
}

// The sentence above the maps: what the summary table's row of `encoding`
// (its largest difference `max`) means for these two sentences.
function headline(words, order, encoding, max) {
  const n = words.length;
  const shuffled = order.map((i) => words[i]);
  // a sentence the shuffle left as it was is the same input: every
  // encoding's outputs are the same, seat by seat (the table's zeros)
  if (shuffled.every((w, i) => w === words[i])) {
    if (words.every((w) => w === words[0])) {
      return `Every word here is “${words[0]}”, so every shuffle leaves the sentence as it was: the layer reads the same input, and every encoding gives the same outputs. To see the order matter, type a sentence with two different words.`;
    }
    const swapped = movedWords(order, words);
    if (!swapped.length)
      return 'This order leaves every word in its place, so the sentence is as it was and every encoding gives the same outputs: press Shuffle.';
    return `This shuffle only swaps copies of ${quoteList(swapped)}, so it leaves the sentence as it was: the layer reads the same input, and every encoding gives the same outputs. Press Shuffle.`;
  }
  if (encoding === 'none') {
    return `No position signal: each word’s output just moved with the word (largest difference ${formatDiff(max)}). Attention alone cannot tell “${words.join(' ')}” from “${shuffled.join(' ')}”.`;
  }
  if (max < ROUNDING) {
    // e.g. ALiBi on a reversed sentence: every distance |i - j| is kept
    const why =
      encoding === 'alibi' && shuffled.every((w, i) => w === words[n - 1 - i])
        ? ', since ALiBi’s bias depends only on the distance |i − j| and reversing the sentence keeps every distance'
        : '';
    return `With ${encoding}, each word’s output still just moved with the word (largest difference ${formatDiff(max)}${max > 0 ? ', float32 rounding' : ''}): this encoding cannot tell these two orders apart${why}.`;
  }
  return `With ${encoding}, the same word at another position gives another output (largest difference ${formatDiff(max)}): the layer can tell the two orders apart.`;
}

// In words: which words the shuffle moved, and where to. The copies of a
// repeated word move as one group (which copy went where is not in the
// sentence): both copies of "the" from seats 0 and 3 to seats 1 and 4.
function describeOrder(order, words) {
  const shuffled = order.map((i) => words[i]);
  const seatsOf = (list, w) => list.flatMap((x, i) => (x === w ? [i] : []));
  const parts = [];
  let stay = 0;
  for (const w of new Set(words)) {
    const from = seatsOf(words, w);
    const to = seatsOf(shuffled, w);
    if (sameValues(from, to)) stay += from.length;
    else if (from.length === 1) parts.push(`“${w}” from position ${from[0]} to position ${to[0]}`);
    else
      parts.push(
        `${from.length === 2 ? 'both' : `the ${from.length}`} copies of “${w}” from positions ${andList(from)} to positions ${andList(to)}`,
      );
  }
  if (!parts.length) {
    const swapped = movedWords(order, words);
    return swapped.length
      ? `Only copies of ${quoteList(swapped)} trade places: every position holds the word it held.`
      : 'Every word stays in its place.';
  }
  return `It moves ${parts.join(', ')}${stay ? `; the other ${stay === 1 ? 'word stays' : `${stay} words stay`}` : ''}.`;
}

// The words the order moves, each once (for an order that keeps the
// sentence: the words whose copies it swaps).
const movedWords = (order, words) => [...new Set(order.filter((v, i) => v !== i).map((v) => words[v]))];

// Above the per-word table, where a word repeats: how its copies are paired.
function copiesNote(words) {
  const counts = new Map();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const repeated = [...counts].filter(([, c]) => c > 1);
  if (!repeated.length) return '';
  const which =
    repeated.length === 1
      ? `“${repeated[0][0]}” comes ${repeated[0][1]} times`
      : `${quoteList(repeated.map(([w]) => w))} each come more than once`;
  return `${which}, and the layer cannot tell copies of a word apart: the copies are compared in reading order (first with first), unless pairing them another way makes every output row match; then “new position” shows that pairing, and the layer cannot tell the two orders apart.`;
}

// [0, 3] -> "0 and 3"; [0, 1, 2] -> "0, 1 and 2"
function andList(items) {
  return items.length === 1 ? String(items[0]) : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const quoteList = (ws) => andList(ws.map((w) => `“${w}”`));

// "0,4,2,3,1" -> [0, 4, 2, 3, 1], checked to be a rearrangement of 0..n-1; '' -> the swap preset.
function parseOrder(text, n) {
  if (text.trim() === '') return swapOrder(n);
  const p = text.split(',').map((s) => Number(s.trim()));
  const seen = new Set(p);
  if (p.length !== n || seen.size !== n || p.some((v) => !Number.isInteger(v) || v < 0 || v >= n)) {
    throw new Error(
      `order must list each of the positions 0..${n - 1} once (one per word of the sentence); got "${text}"`,
    );
  }
  return p;
}

// One self-attention layer over x (n, d_model) with encoding `enc`:
// output and weights of pe.attention, (heads, n, head_dim) and (heads, n, n).
function selfAttention(pe, enc, x, n, positions) {
  // 1. absolute encodings are added to the embeddings before the projections
  let xe = x;
  if (enc === 'sinusoidal' || enc === 'learned') {
    const add =
      enc === 'sinusoidal'
        ? pe.sinusoidal(n, D_MODEL)
        : pe.learnedLookup(LEARNED_TABLE, LEARNED_ROWS, D_MODEL, positions);
    xe = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) xe[i] = x[i] + add[i];
  }
  // 2. q, k, v = x W, split into heads: (heads, n, head_dim)
  const q = project(xe, W_Q, n);
  let k = project(xe, W_K, n);
  const v = project(xe, W_V, n);
  let qr = q;
  // 3. RoPE rotates q and k by their positions (every head uses positions 0..n-1)
  if (enc === 'rope') {
    const pos = new Float64Array(HEADS * n);
    for (let hh = 0; hh < HEADS; hh++) pos.set(positions, hh * n);
    qr = pe.ropeApply(q, HEADS * n, HEAD_DIM, { positions: pos });
    k = pe.ropeApply(k, HEADS * n, HEAD_DIM, { positions: pos });
  }
  // 4. attention; ALiBi and T5 add their relative-position biases to the scores
  return pe.attention(qr, k, v, {
    heads: HEADS,
    seqLen: n,
    headDim: HEAD_DIM,
    alibi: enc === 'alibi',
    t5:
      enc === 't5'
        ? { table: T5_TABLE, numBuckets: T5_BUCKETS, maxDistance: T5_MAX_DISTANCE, bidirectional: true }
        : null,
  });
}

// x (n, d_model) times W (d_model, d_model), written as (heads, n, head_dim).
function project(x, w, n) {
  const out = new Float32Array(HEADS * n * HEAD_DIM);
  for (let j = 0; j < n; j++) {
    for (let c = 0; c < D_MODEL; c++) {
      let s = 0;
      for (let r = 0; r < D_MODEL; r++) s += x[j * D_MODEL + r] * w[r * D_MODEL + c];
      const hh = Math.floor(c / HEAD_DIM);
      out[(hh * n + j) * HEAD_DIM + (c % HEAD_DIM)] = s;
    }
  }
  return out;
}

function formatDiff(d) {
  if (d === 0) return '0';
  return d < 1e-3 ? exponential(d, 1) : fixed(d, 4);
}

// An n x n heatmap of w(a, b) in [0, 1] on one canvas, labelled rows and
// columns. `slot` keeps the figure between updates; only a new title or a
// new caption make it anew, new labels draw it whole. While the geometry,
// the labels and the colours stay
// the same (switching the encoding) only the cells are drawn again. A canvas,
// not SVG: in SVG every changed number was text the browser had to shape and
// lay out again, about half of the update's layout. A redraw makes little
// garbage (no colour string per cell, no keys as JSON): at 4x CPU a minor
// garbage collection inside an update is what its slowest updates were made of.
function heatmap(slot, title, labels, n, w, scale, colors, widthCap, caption) {
  let longest = 0;
  for (const l of labels) longest = Math.max(longest, l.length);
  const labelW = Math.min(110, 7 * longest + 8);
  const cell = Math.max(14, Math.min(36, Math.floor((Math.min(widthCap, 420) - labelW - 4) / n)));
  const showValues = cell >= 30;
  const slant = 0.72 * (6.5 * longest); // a column label at -45° reaches this far up and right
  const top = Math.ceil(slant + 8); // whole pixels: sharp row edges, whole-pixel clears
  const width = Math.ceil(labelW + n * cell + Math.max(4, slant - cell / 2));
  const height = Math.ceil(top + n * cell + 2);
  if (slot.title !== title || slot.caption !== caption) {
    slot.canvas = h('canvas', {
      role: 'img',
      'aria-label': `${title}: ${n} by ${n} attention weights; the numbers are in the table below.`,
    });
    slot.figure = h(
      'figure',
      {},
      h('figcaption', {}, h('strong', {}, title)),
      slot.canvas,
      h('figcaption', {}, caption),
    );
    Object.assign(slot, { title, caption, look: null });
  }
  // (a repeated word's copies may pair differently under another encoding)
  if (!sameValues(slot.labels, labels)) Object.assign(slot, { labels, look: null });
  const look = slot.look;
  let ctx;
  if (
    look &&
    look.width === width &&
    look.height === height &&
    look.cell === cell &&
    look.colors === colors &&
    look.dpr === window.devicePixelRatio
  ) {
    // same frame around the grid: clear the grid (and its outer half strokes) only
    ctx = slot.canvas.getContext('2d');
    ctx.clearRect(labelW - 1, top - 1, n * cell + 2, n * cell + 2);
  } else {
    ctx = canvasContext(slot.canvas, width, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = rgb(colors.fg);
    ctx.textAlign = 'end';
    ctx.textBaseline = 'middle';
    for (let a = 0; a < n; a++) ctx.fillText(labels[a], labelW - 4, top + (a + 0.5) * cell);
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
    for (let b = 0; b < n; b++) {
      const x = labelW + (b + 0.5) * cell;
      ctx.save();
      ctx.translate(x, top - 4);
      ctx.rotate(-Math.PI / 4);
      ctx.fillText(labels[b], 0, 0);
      ctx.restore();
    }
    slot.look = {
      width,
      height,
      cell,
      colors,
      dpr: window.devicePixelRatio,
      border: rgb(colors.border),
      fg: rgb(colors.fg),
      bg: rgb(colors.bg),
    };
  }
  // the cells: one pixel each of an n x n image, drawn scaled up without
  // smoothing into whole-pixel cells (the pixels a fill per cell gives)
  if (slot.cells?.width !== n) {
    slot.cells = new ImageData(n, n);
    slot.cellCanvas = offPageCanvas(n, n);
  }
  const px = slot.cells.data;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const rgbCell = scale(w(a, b));
      const i = 4 * (a * n + b);
      px[i] = rgbCell[0];
      px[i + 1] = rgbCell[1];
      px[i + 2] = rgbCell[2];
      px[i + 3] = 255;
    }
  }
  slot.cellCanvas.getContext('2d').putImageData(slot.cells, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(slot.cellCanvas, labelW, top, n * cell, n * cell);
  ctx.lineWidth = 0.5;
  ctx.strokeStyle = slot.look.border;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) ctx.strokeRect(labelW + b * cell, top + a * cell, cell, cell);
  }
  if (showValues) {
    ctx.font = '9.5px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // light text on dark cells, dark text on light ones: one colour at a time
    for (const dark of [false, true]) {
      ctx.fillStyle = dark ? slot.look.bg : slot.look.fg;
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          const v = w(a, b);
          if (v > 0.5 === dark) ctx.fillText(fixed(v, 2), labelW + (b + 0.5) * cell, top + (a + 0.5) * cell);
        }
      }
    }
  }
  return slot.figure;
}

define(AttentionPermutation);
