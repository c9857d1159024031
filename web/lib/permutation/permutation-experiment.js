// The permutation experiment of <attention-permutation>, without the page:
// one self-attention layer (d_model 16, 2 heads of 8, fixed seeded W_q, W_k,
// W_v; token embeddings from a seeded hash of each word) run by the core on
// a sentence and on a shuffle of it, under each encoding, and the difference
// between each original word's output and the output at its new seat. The
// attention, the encodings and the biases come from the core (pe.attention,
// pe.sinusoidal, pe.learnedLookup, pe.ropeApply, ALiBi and T5 inside
// pe.attention); this file makes the toy weights, multiplies the 16-wide rows
// by them, and pairs the seats.
import { seededRandom } from '../questions/random.js';
import { inputError } from '../../core/check.js';
import { TRAIN_ENCODINGS } from '../../posenc.js';

const D_MODEL = 16;
const HEADS = 2;
export const HEAD_DIM = D_MODEL / HEADS;
const LEARNED_ROWS = 16; // the toy learned table: more rows than the 12 words allowed
// the encodings the course compares: the trainer's, checked against the core's table
export const ENCODINGS = TRAIN_ENCODINGS;
export const ENCODING_LABELS = {
  none: 'none (no position signal)',
  sinusoidal: 'sinusoidal (added to x)',
  learned: 'learned table (added to x)',
  rope: 'RoPE (rotates q and k)',
  alibi: 'ALiBi (bias −α_j·|n − m|)',
  t5: 'T5 relative buckets (bias)',
};
export const ROUNDING = 1e-5; // below this a difference is float32 rounding, not position

// FNV-1a: a 32-bit hash of a string, the seed of a word's embedding.
export function hashString(text, seed = 0x811c9dc5) {
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
// T5's table (numBuckets, heads) for T5's default numBuckets (pe.defaults.t5, the core's)
const t5Tables = new Map();
const t5Table = (numBuckets) => {
  if (!t5Tables.has(numBuckets)) t5Tables.set(numBuckets, seededUniform(505, numBuckets * HEADS, 2));
  return t5Tables.get(numBuckets);
};

const embed = (word) => seededUniform(hashString(word), D_MODEL);

// A shuffle of the words' seats 0..n-1 whose sentence differs from the
// original and from `avoid` (the shuffled sentence shown now), so that every
// press shows a new sentence: not the identity, nor one that only swaps
// copies of the same word (n >= 2). Its copies of a repeated word are named in
// reading order (inReadingOrder). Where there is none (two words already
// swapped, one word repeated), the swap preset after 64 tries.
export function seededShuffle(words, seed, avoid) {
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
export function swapOrder(n) {
  const p = [...Array(n).keys()];
  const a = n >= 3 ? 1 : 0;
  [p[a], p[n - 1]] = [p[n - 1], p[a]];
  return p;
}

// Every encoding on both orders, the differences after un-permuting:
// { enc: { o, s, pair, perWord, max } }; pair[i] = the seat of the shuffle
// original word i is compared with.
export function attentionRuns(pe, words, order) {
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

// "0,4,2,3,1" -> [0, 4, 2, 3, 1], checked to be a rearrangement of 0..n-1; '' -> the swap preset.
export function parseOrder(text, n) {
  if (text.trim() === '') return swapOrder(n);
  const p = text.split(',').map((s) => Number(s.trim()));
  const seen = new Set(p);
  if (p.length !== n || seen.size !== n || p.some((v) => !Number.isInteger(v) || v < 0 || v >= n)) {
    throw inputError(
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
    t5: enc === 't5' ? { table: t5Table(pe.defaults.t5.numBuckets) } : null, // T5's defaults for the rest
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
