// "Which of these positions has the sinusoidal vector nearest to position p's?"
// (lessons/positional-encoding/02-sinusoidal.md). Table rows from the core;
// the distance is a plain sum of squared differences. Texts are Markdown with
// $TeX$ (web/lib/quiz-text.js), in the lesson's notation: positions m and n,
// offset Δ = n − m, frequencies θ_i.
import { pick, shuffle } from '../lib/random.js';
import { quizNumber } from '../lib/quiz-text.js';

const dist3 = (x) => quizNumber(x, 3);

export function generate(pe, random) {
  for (;;) {
    const d = pick(random, [4, 6, 8, 12, 16]);
    const p = 40 + Math.floor(random() * 160);
    // one offset near a whole number of turns of the fastest pair (2*pi ~ 6.28 positions),
    // the rest random; all distinct in size, since k and -k are equally far
    const offsets = new Set([Math.round(2 * Math.PI * (1 + Math.floor(random() * 18)))]);
    while (offsets.size < 4) offsets.add(1 + Math.floor(random() * 120));
    const positions = [...offsets].map((k) => (random() < 0.5 && p - k >= 0 ? p - k : p + k));
    const table = pe.sinusoidal(Math.max(p, ...positions) + 1, d);
    const dist = (a, b) => {
      let s = 0;
      for (let j = 0; j < d; j++) s += (table[a * d + j] - table[b * d + j]) ** 2;
      return Math.sqrt(s);
    };
    const ranked = positions.map((q) => ({ q, dist: dist(p, q) })).sort((a, b) => a.dist - b.dist);
    // a clear winner only
    if (ranked[1].dist - ranked[0].dist < 0.02) continue;
    const best = ranked[0];
    const nearestByIndex = positions.reduce((a, b) => (Math.abs(b - p) < Math.abs(a - p) ? b : a));
    // why a larger offset can win: say "whole turns" only when the fastest pair (1 rad per
    // position) really is within half a radian of a whole number of turns
    const kBest = Math.abs(best.q - p);
    const turns = kBest / (2 * Math.PI);
    const nearWholeTurns = Math.abs(kBest - 2 * Math.PI * Math.round(turns)) < 0.5;
    const why = nearWholeTurns
      ? `at offset $\\Delta = ${best.q - p}$ the fastest pair has made almost exactly ${Math.round(turns)} turns and is back near its starting point`
      : `the distance does not grow steadily with the offset: it depends on where each pair's angle lands on its circle`;
    const options = ranked.map(({ q, dist: r }) => {
      if (q === best.q) {
        return {
          text: `Position ${q}`,
          correct: true,
          feedback:
            `Its distance is ${dist3(r)} (offset $\\Delta = ${q - p}$).` +
            (q !== nearestByIndex ? ` It is not the nearest index: ${why}.` : ''),
        };
      }
      const note =
        q === nearestByIndex
          ? ` It is the nearest index, but position ${best.q} is closer: ${why}.`
          : '';
      return { text: `Position ${q}`, correct: false, feedback: `Its distance is ${dist3(r)} (offset $\\Delta = ${q - p}$), larger than ${dist3(best.dist)}.${note}` };
    });
    return {
      question: `In a sinusoidal table with $d_{\\text{model}} = ${d}$ (base 10000), which of these positions $n$ has the vector closest, in Euclidean distance, to the vector of position $m = ${p}$?`,
      options: shuffle(random, options),
      explanation:
        `Each pair of coordinates is a point turning on a circle, so the squared distance between the vectors of positions $m$ and $n = m + \\Delta$ is ` +
        `the sum over pairs of $2 - 2\\cos(\\Delta\\theta_i)$: it depends only on the offset $\\Delta$ (not on its sign, nor on $m$). ` +
        `The fastest pair ($\\theta_0 = 1$) turns once every $2\\pi \\approx 6.28$ positions, so offsets close to a multiple of 6.28 bring it back near its start. ` +
        `With only ${d / 2} pairs, such an offset can beat a smaller one; with hundreds of pairs the slow ones dominate and the distance grows steadily with the offset. ` +
        `Here position ${best.q}, at offset $\\Delta = ${best.q - p}$, is closest with distance ${dist3(best.dist)}.`,
    };
  }
}

export default { generate };
