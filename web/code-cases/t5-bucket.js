// Cases of the code exercise t5-bucket (05-relative-bias.md): the bucket of
// one relative position (key minus query), HF's _relative_position_bucket
// as the core computes it (pe.t5Buckets, float32 logarithm included).
// Edge cases: offset 0, one either side, the last exact offset and the
// first logarithmic one, past max_distance, the causal (unidirectional)
// form; then offsets and sizes drawn from the seed.
import { pick } from '../lib/questions/random.js';

export function bucketOf(pe, rel, bidirectional, numBuckets, maxDistance) {
  const opts = { bidirectional, numBuckets, maxDistance };
  // a one-row map gives rel = key - query >= 0, a one-column map rel <= 0
  return rel >= 0 ? pe.t5Buckets(1, rel + 1, opts)[rel] : pe.t5Buckets(-rel + 1, 1, opts)[-rel];
}

// T5's own settings (the core's, pe.defaults.t5) unless the case draws others
function caseOf(
  pe,
  rel,
  bidirectional = pe.defaults.t5.bidirectional,
  numBuckets = pe.defaults.t5.numBuckets,
  maxDistance = pe.defaults.t5.maxDistance,
) {
  const expected = bucketOf(pe, rel, bidirectional, numBuckets, maxDistance);
  const slips = {};
  const sign = bucketOf(pe, -rel, bidirectional, numBuckets, maxDistance);
  if (sign !== expected) slips.sign = sign;
  // bidirectional without halving the buckets: the same rule with twice as many
  if (bidirectional) {
    const unhalved = bucketOf(pe, rel, true, 2 * numBuckets, maxDistance);
    if (unhalved !== expected) slips['no-halving'] = unhalved;
  }
  return { args: [rel, bidirectional, numBuckets, maxDistance], expected, slips };
}

export function cases(pe, random) {
  const out = [
    caseOf(pe, 0),
    caseOf(pe, 1),
    caseOf(pe, -1),
    caseOf(pe, -7),
    caseOf(pe, 8),
    caseOf(pe, -50),
    caseOf(pe, 300),
    caseOf(pe, -20, false),
    caseOf(pe, 5, false),
  ];
  for (let k = 0; k < 4; k++) {
    const numBuckets = pick(random, [16, 32, 64]);
    const maxDistance = pick(random, [64, 128, 256]);
    const rel = Math.round((random() * 2 - 1) * 1.5 * maxDistance);
    out.push(caseOf(pe, rel, random() < 0.75, numBuckets, maxDistance));
  }
  return out;
}

export default { cases, section: 'relative-bias' };
