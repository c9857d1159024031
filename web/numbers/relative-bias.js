// Numbers quoted in lessons/positional-encoding/05-relative-bias.md, computed by the core.
import { fixed } from '../lib/printing/pyformat.js';

// T5 bucket of the relative position rel = key - query (defaults 32 buckets,
// max_distance 128): a one-row map holds rel >= 0, a one-column map rel <= 0.
function t5Bucket(pe, rel, bidirectional) {
  if (rel >= 0) return pe.t5Buckets(1, rel + 1, { bidirectional })[rel];
  return pe.t5Buckets(-rel + 1, 1, { bidirectional })[-rel];
}

// The smallest distance back (rel = -distance) whose bucket is the last one.
function firstInLastBucket(pe, bidirectional) {
  const back = pe.t5Buckets(1001, 1, { bidirectional });
  const last = back[1000];
  return back.findIndex((b) => b === last);
}

const T5_TABLE = [-1, -7, -8, -12, -20, -50, -91, -128, -1000, 1, 8, 20, 1000];

const t5Entries = {};
for (const rel of T5_TABLE) {
  const tag = rel < 0 ? `minus-${-rel}` : `plus-${rel}`;
  t5Entries[`relative-bias-t5-bi-${tag}`] = (pe) => String(t5Bucket(pe, rel, true));
  t5Entries[`relative-bias-t5-causal-${tag}`] = (pe) => String(t5Bucket(pe, rel, false));
}

export default {
  // The 4 extra slopes of a 12-head model, between the first 8.
  'relative-bias-alibi-slopes-12-extra': (pe) => Array.from(pe.alibiSlopes(12).slice(8), (s) => fixed(s, 4)).join(', '),
  // The two extra slopes of a 6-head model.
  'relative-bias-alibi-slopes-6': (pe) => Array.from(pe.alibiSlopes(6), (s) => fixed(s, 4)).join(', '),
  // Distance over which a head's weight shrinks by a factor e: 1 / slope.
  'relative-bias-alibi-efold-steepest-8': (pe) => fixed(1 / pe.alibiSlopes(8)[0], 0),
  'relative-bias-alibi-efold-gentlest-8': (pe) => fixed(1 / pe.alibiSlopes(8)[7], 0),
  // Steepest of 8 heads, equal content scores: weight of a key 10 back relative to the query's own.
  'relative-bias-alibi-penalty-10': (pe) => fixed(pe.alibiBias(8, 11, { causal: true })[10 * 11], 1),
  'relative-bias-alibi-ratio-10': (pe) => {
    const bias = pe.alibiBias(8, 11, { causal: true });
    const w = pe.softmax([bias[10 * 11 + 10], bias[10 * 11]], 1, 2);
    return fixed(w[1] / w[0], 4);
  },
  'relative-bias-t5-bi-last-start': (pe) => String(firstInLastBucket(pe, true)),
  'relative-bias-t5-causal-last-start': (pe) => String(firstInLastBucket(pe, false)),
  ...t5Entries,
};
