// Numbers of the T5 figure in lessons/positional-encoding/07-extrapolation.md:
// what the lab's T5 models learned per bucket (web/data/t5-learned.js, from
// scripts/record/record-train-results.mjs), with the core's buckets (t5Buckets).
//
//   t5-<task>-unreached-max   the largest |bias| in any bucket that only 2x or 4x inputs reach,
//                             over every seed and head (training never moved them from ±0.1)
//   t5-<task>-far-min / -max  the lowest / highest bias of the widest buckets training did reach
//                             (offsets of 8 or more), over every seed and head
//   t5-<task>-near-max        the highest bias of any bucket, over seeds and heads: the neighbour's, on shift
//   t5-<task>-share-<1x|2x|4x>  if a score were its bias alone: the share of attention a middle query's
//                             left neighbour would get at 1, 2 and 4 x the training length, in the head
//                             that gives it the most at 1x; mean over the seeds, in %
//   t5-<task>-gap-min / -max  over every seed and head: the mean bias of the unreached buckets minus the
//                             mean of the widest reached ones (positive: far keys gain weight at new lengths)
//   t5-<task>-separated       in how many heads (seeds x heads) every unreached bias is above every widest reached one
//   t5-heads                  seeds x heads
//   t5-unreached-2x, t5-unreached-4x   how many buckets first reached at 2x, and at 4x (each direction counted)
import T5 from '../data/t5-learned.js';

const L = T5.trainLen;
const H = T5.heads;
const N = 4 * L;

// bucketOf(pe)(offset): the trainer's bidirectional bucket of n - m
function bucketOf(pe) {
  const b = pe.t5Buckets(N, N, { bidirectional: true, numBuckets: T5.numBuckets, maxDistance: T5.maxDistance });
  return (off) => (off <= 0 ? b[(N - 1) * N + (N - 1 + off)] : b[off]);
}

// The length multiple (1, 2, 4) at which each bucket is first reached, or 0 if never within 4L.
function firstReached(bucket) {
  const first = new Array(T5.numBuckets).fill(0);
  for (const m of [4, 2, 1]) for (let off = -(m * L - 1); off <= m * L - 1; off++) first[bucket(off)] = m;
  return first;
}

// Left-neighbour share of a middle query of an n-long input, if the scores were the biases alone.
function neighbourShare(table, h, bucket, n) {
  const q = Math.floor(n / 2);
  let sum = 0;
  for (let k = 0; k < n; k++) sum += Math.exp(table[bucket(k - q) * H + h]);
  return Math.exp(table[bucket(-1) * H + h]) / sum;
}

const numbers = {
  't5-heads': () => String(T5.seeds.length * H),
  't5-unreached-2x': (pe) => String(firstReached(bucketOf(pe)).filter((m) => m === 2).length),
  't5-unreached-4x': (pe) => String(firstReached(bucketOf(pe)).filter((m) => m === 4).length),
};
for (const [task, { tables }] of Object.entries(T5.tasks)) {
  const values = (pe, keep) => {
    const bucket = bucketOf(pe);
    const first = firstReached(bucket);
    const out = [];
    for (const t of tables)
      for (let b = 0; b < T5.numBuckets; b++)
        if (keep(b, first, bucket)) for (let h = 0; h < H; h++) out.push(t[b * H + h]);
    return out;
  };
  const unreached = (b, first) => first[b] > 1;
  // the reached buckets that are wider than one offset: |n - m| from numBuckets / 4 (the last
  // exact distance + 1, bidirectional) to L - 1, T5's logarithmic buckets
  const far = (b, first, bucket) => {
    if (first[b] !== 1) return false;
    for (let d = T5.numBuckets / 4; d < L; d++) if (bucket(d) === b || bucket(-d) === b) return true;
    return false;
  };
  // per seed and head: [mean unreached - mean far, every unreached above every far]
  const gaps = (pe) => {
    const bucket = bucketOf(pe);
    const first = firstReached(bucket);
    const ks = (keep) => [...Array(T5.numBuckets).keys()].filter((b) => keep(b, first, bucket));
    const un = ks(unreached);
    const fa = ks(far);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return tables.flatMap((t) =>
      [...Array(H).keys()].map((h) => {
        const u = un.map((b) => t[b * H + h]);
        const f = fa.map((b) => t[b * H + h]);
        return [mean(u) - mean(f), Math.min(...u) > Math.max(...f)];
      }),
    );
  };
  numbers[`t5-${task}-gap-min`] = (pe) => Math.min(...gaps(pe).map((g) => g[0])).toFixed(2);
  numbers[`t5-${task}-gap-max`] = (pe) => Math.max(...gaps(pe).map((g) => g[0])).toFixed(2);
  numbers[`t5-${task}-separated`] = (pe) => String(gaps(pe).filter((g) => g[1]).length);
  numbers[`t5-${task}-unreached-max`] = (pe) => Math.max(...values(pe, unreached).map(Math.abs)).toFixed(3);
  numbers[`t5-${task}-far-min`] = (pe) => Math.min(...values(pe, far)).toFixed(2);
  numbers[`t5-${task}-far-max`] = (pe) => Math.max(...values(pe, far)).toFixed(2);
  numbers[`t5-${task}-near-max`] = (pe) => Math.max(...values(pe, (b, first) => first[b] === 1)).toFixed(2);
  for (const m of [1, 2, 4]) {
    numbers[`t5-${task}-share-${m}x`] = (pe) => {
      const bucket = bucketOf(pe);
      const shares = tables.map((t) => {
        let best = 0;
        for (let h = 1; h < H; h++) if (neighbourShare(t, h, bucket, L) > neighbourShare(t, best, bucket, L)) best = h;
        return neighbourShare(t, best, bucket, m * L);
      });
      return ((100 * shares.reduce((a, b) => a + b, 0)) / shares.length).toFixed(0);
    };
  }
}

export default numbers;
