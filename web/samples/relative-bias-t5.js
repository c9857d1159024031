// T5 relative-position buckets (HF _relative_position_bucket) for a list of
// distances, both directions, and for a query x key grid, as printed by the
// relative-bias-t5 sample of lessons/positional-encoding/05-relative-bias.md.
import { torchStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

const DISTANCES = [-200, -100, -50, -20, -8, -7, -1, 0, 1, 7, 8, 20, 50, 100, 200];

export default {
  section: 'relative-bias',
  params: {
    num_buckets: int('num_buckets', 32, 8, 64, 8),
    max_distance: int('max_distance', 128, 40, 1000),
    query_len: int('query length', 10, 1, 16),
    key_len: int('key length', 12, 1, 16),
  },
  cases: [
    { num_buckets: 8, max_distance: 40, query_len: 16, key_len: 16 },
    { num_buckets: 64, max_distance: 1000, query_len: 1, key_len: 3 },
    { num_buckets: 16, max_distance: 57, query_len: 7, key_len: 1 },
  ],
  run(pe, p) {
    const opts = { numBuckets: p.num_buckets, maxDistance: p.max_distance };
    const reach = Math.max(...DISTANCES.map(Math.abs)) + 1;
    // Bucket of rel = key - query: a one-row map gives rel >= 0, a one-column
    // map rel <= 0.
    const bucketsOf = (bidirectional) => {
      const ahead = pe.t5Buckets(1, reach, { ...opts, bidirectional });
      const behind = pe.t5Buckets(reach, 1, { ...opts, bidirectional });
      return DISTANCES.map((r) => (r >= 0 ? ahead[r] : behind[-r]));
    };
    const grid = pe.t5Buckets(p.query_len, p.key_len, { ...opts, bidirectional: true });
    const n = DISTANCES.length;
    return [
      torchStr(DISTANCES, [n], { dtype: 'int64' }),
      torchStr(bucketsOf(true), [n], { dtype: 'int64' }),
      torchStr(bucketsOf(false), [n], { dtype: 'int64' }),
      torchStr(grid, [p.query_len, p.key_len], { dtype: 'int64' }),
      '',
    ].join('\n');
  },
};
