// Generated quiz: which T5 bucket a relative distance falls in (defaults
// 32 buckets, max_distance 128). Every bucket comes from the core.
import { shuffle } from '../lib/random.js';

const DISTANCES = [1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 18, 20, 24, 30, 40, 50, 64, 80, 100, 120, 150, 300, 600];

// Bucket of rel = key - query: a one-row map holds rel >= 0, a one-column map rel <= 0.
function bucketOf(pe, rel, bidirectional) {
  if (rel >= 0) return pe.t5Buckets(1, rel + 1, { bidirectional })[rel];
  return pe.t5Buckets(-rel + 1, 1, { bidirectional })[-rel];
}

export function generate(pe, random) {
  for (;;) {
    const dist = DISTANCES[Math.floor(random() * DISTANCES.length)];
    const bidirectional = random() < 0.6;
    // The decoder only tells the past apart; the encoder asks both ways.
    const after = bidirectional && random() < 0.5;
    const rel = after ? dist : -dist;
    const right = bucketOf(pe, rel, bidirectional);
    const where = after ? `${dist} positions after the query` : `${dist} positions before the query`;
    const half = bidirectional ? 16 : 32;
    const exact = half / 2;
    const wrong = [];
    if (bidirectional) {
      wrong.push({
        value: bucketOf(pe, -rel, true),
        feedback: `That is the bucket of a key ${dist} positions ${after ? 'before' : 'after'} the query. In the encoder, keys after the query use the upper half (16-31), keys before it the lower half.`,
      });
      wrong.push({
        value: bucketOf(pe, -dist, false),
        feedback: `That is the decoder's bucket for ${dist} positions back, where all 32 buckets describe the past. The encoder splits them into two halves of 16.`,
      });
    } else {
      wrong.push({
        value: bucketOf(pe, -dist, true),
        feedback: `That is the encoder's bucket, where each direction has only 16 buckets. In the decoder all 32 describe the past, so the exact range is longer (0-15).`,
      });
    }
    if (dist >= exact) {
      wrong.push({
        value: (after ? half : 0) + dist,
        feedback: `That would give every distance its own bucket. Only distances below ${exact} get one; beyond that the buckets are logarithmic and end at ${half - 1}${after ? ' (plus 16 for keys after the query)' : ''}.`,
      });
    }
    const seen = new Set([right]);
    const picked = [];
    for (const w of shuffle(random, wrong)) {
      if (seen.has(w.value)) continue;
      seen.add(w.value);
      picked.push(w);
    }
    if (picked.length < 2) continue;
    const mode = bidirectional ? 'encoder self-attention (bidirectional)' : 'decoder self-attention (causal)';
    const how = dist < exact
      ? `${dist} is below ${exact}, so it has an exact bucket: ${dist}${after ? ' + 16 (upper half, key after the query)' : ''}.`
      : `${dist} is at least ${exact}, so the bucket is ${exact} + floor(ln(${dist}/${exact}) / ln(128/${exact}) x ${half - exact}), capped at ${half - 1}${after ? ', plus 16 for the upper half' : ''}.`;
    const options = shuffle(random, [
      { text: String(right), correct: true, feedback: `Right. ${how}` },
      ...picked.map((w) => ({ text: String(w.value), correct: false, feedback: w.feedback })),
    ]);
    return {
      question: `T5 with its defaults (32 buckets, max_distance 128), in ${mode}. A key sits ${where} (relative position ${rel}). Which bucket does it fall in?`,
      options,
      explanation: `${bidirectional ? 'The encoder gives each direction 16 buckets: 8 exact ones for distances 0-7, then 8 logarithmic ones up to 128.' : 'The decoder uses all 32 buckets for the past: 16 exact ones for distances 0-15, then 16 logarithmic ones up to 128.'} ${how} The answer is bucket ${right}.`,
    };
  }
}
