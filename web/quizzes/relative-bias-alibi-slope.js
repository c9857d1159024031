// Generated quiz: the ALiBi slope of head h for n heads, including head
// counts that are not powers of two. Every slope comes from the core.
import { shuffle } from '../lib/random.js';
import { fixed } from '../lib/pyformat.js';

const HEAD_COUNTS = [4, 6, 8, 10, 12, 16, 20, 24, 32];

const show = (s) => fixed(s, 5);

export function generate(pe, random) {
  for (;;) {
    const n = HEAD_COUNTS[Math.floor(random() * HEAD_COUNTS.length)];
    const h = 1 + Math.floor(random() * n); // counted from 1
    let c = 1;
    while (c * 2 <= n) c *= 2;
    const slopes = pe.alibiSlopes(n);
    const right = slopes[h - 1];
    const powerOfTwo = c === n;
    // Wrong answers, each from a real mistake, each computed by the core.
    const wrong = [];
    if (!powerOfTwo && h <= 2 * c) {
      wrong.push({
        value: pe.alibiSlopes(2 * c)[h - 1],
        feedback:
          h <= c
            ? `That is head ${h} of a ${2 * c}-head model: rounding the head count up to a power of two. With ${n} heads, heads 1 to ${c} use the ${c}-head sequence.`
            : `That is head ${h} of a ${2 * c}-head model. Heads ${c + 1} to ${n} take every other slope of the ${2 * c}-head sequence, not the slope at the same index.`,
      });
    }
    if (h < n) {
      wrong.push({
        value: slopes[h],
        feedback: `That is the slope of head ${h + 1}: one head too far, as when heads are counted from 0.`,
      });
    }
    if (h > 1) {
      wrong.push({
        value: slopes[h - 2],
        feedback: `That is the slope of head ${h - 1}, one head too early. Head 1 already gets the first term of the sequence.`,
      });
    }
    wrong.push({
      value: pe.alibiSlopes(2 * n)[h - 1],
      feedback: `That is head ${h} of a ${2 * n}-head model, whose slopes are spaced twice as finely.`,
    });
    const texts = new Set([show(right)]);
    const picked = [];
    for (const w of shuffle(random, wrong)) {
      const t = show(w.value);
      if (texts.has(t)) continue;
      texts.add(t);
      picked.push({ text: t, feedback: w.feedback });
      if (picked.length === 3) break;
    }
    if (picked.length < 2) continue;
    const rule = powerOfTwo
      ? `${n} is a power of two, so the slopes are 2^(-8h/${n}) for h = 1..${n}: a geometric sequence starting at 2^(-8/${n}) = ${show(slopes[0])}.`
      : h <= c
        ? `${n} is not a power of two. The largest power of two below it is ${c}, and heads 1..${c} get the ${c}-head slopes 2^(-8h/${c}).`
        : `${n} is not a power of two. Heads 1..${c} get the ${c}-head slopes; heads ${c + 1}..${n} take every other slope of the ${2 * c}-head sequence, starting with its first: head ${h} gets the one at position ${2 * (h - c) - 1} of that sequence.`;
    const options = shuffle(random, [
      { text: show(right), correct: true, feedback: `Right. ${rule}` },
      ...picked.map((p) => ({ ...p, correct: false })),
    ]);
    return {
      question: `An ALiBi model has ${n} attention heads. What is the slope m of head ${h} (heads counted from 1), to 5 decimals?`,
      options,
      explanation: `${rule} Head ${h} gets ${show(right)}: its bias for a key d positions back is -${show(right)} x d.`,
    };
  }
}
