// 05-relative-bias.md: predict T5's bucket for one offset, then see the
// relative-bias-t5 sample print it. The bucket is the core's t5Buckets (HF's
// _relative_position_bucket, float32 logarithm included).
import { pick } from '../lib/random.js';

// offsets the sample prints (its DISTANCES), far enough to need the logarithmic rule
const OFFSETS = [-100, -50, -20, -8, 8, 20, 50, 100];

function bucketOf(pe, rel, opts) {
  // a one-row map gives rel = key - query >= 0, a one-column map rel <= 0
  return rel >= 0 ? pe.t5Buckets(1, rel + 1, opts)[rel] : pe.t5Buckets(-rel + 1, 1, opts)[-rel];
}

export function generate(pe, random) {
  for (;;) {
    const numBuckets = pick(random, [16, 32, 64]);
    const maxDistance = pick(random, [64, 128, 256]);
    const rel = pick(random, OFFSETS);
    const opts = { numBuckets, maxDistance, bidirectional: true };
    const half = numBuckets / 2;
    const exact = half / 2;
    const dist = Math.abs(rel);
    // the exact region would make this a lookup, not the logarithmic rule
    if (dist < exact || maxDistance <= exact) continue;
    const bucket = bucketOf(pe, rel, opts);
    const other = bucketOf(pe, -rel, opts);
    const side = rel > 0 ? 'after' : 'before';
    const within = rel > 0 ? 'the upper half of the buckets' : 'the lower half of the buckets';
    const logPart = Math.floor((Math.log(dist / exact) / Math.log(maxDistance / exact)) * (half - exact));
    return {
      prompt: `A T5 encoder (bidirectional) with \`num_buckets = ${numBuckets}\` and \`max_distance = ${maxDistance}\` puts the offset $n - m$ of each key from its query into a bucket. Which bucket holds the key ${dist} positions ${side} the query, offset $${rel}$?`,
      parts: [
        {
          label: `Bucket of offset ${rel}`,
          answer: { type: 'integer', value: bucket },
          slips: [
            {
              value: other,
              message: `That is the bucket of offset $${-rel}$: keys ${rel > 0 ? 'after' : 'before'} the query use ${within}.`,
            },
            ...(rel > 0
              ? [
                  {
                    value: bucket - half,
                    message:
                      'That is the bucket of a key this far before the query: keys after it have buckets of their own, in the upper half.',
                  },
                ]
              : []),
            {
              value: bucket + 1,
              message: 'One too many: the logarithmic part is rounded down (the code casts it to an integer).',
            },
          ].filter((s) => s.value >= 0 && s.value < numBuckets && s.value !== bucket),
          solutionValue: String(bucket),
        },
      ],
      hint: `Half of the ${numBuckets} buckets serve each side. Within a half, distances 0 to ${exact - 1} get a bucket each; a distance $r$ from ${exact} to ${maxDistance - 1} gets bucket ${exact} + ⌊ln(r/${exact}) / ln(${maxDistance}/${exact}) · ${half - exact}⌋, and farther ones the last bucket of the half.`,
      solution: `- ${rel > 0 ? `The key comes after the query: start at ${half}, the first bucket of the upper half.` : 'The key comes before the query: the lower half, starting at 0.'}
- Within a half there are ${half} buckets; distances below ${exact} get one each, and distance ${dist} is past them.
- Logarithmic part: ⌊ln(${dist}/${exact}) / ln(${maxDistance}/${exact}) · ${half - exact}⌋ = ${logPart}, so the bucket within the half is ${exact} + ${logPart} = ${Math.min(exact + logPart, half - 1)}${exact + logPart > half - 1 ? ` (capped at ${half - 1})` : ''}.
- The bucket is ${rel > 0 ? `${half} + ${bucket - half}` : ''}${rel > 0 ? ' = ' : ''}${bucket}. The sample prints it in its second line, under the offset.`,
      reveal: {
        sample: 'relative-bias-t5',
        params: { num_buckets: numBuckets, max_distance: maxDistance },
        caption:
          'The bucket of every listed offset in PyTorch, printed live (first line the offsets, second the encoder’s buckets)',
      },
    };
  }
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'prediction';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'relative-bias' };
