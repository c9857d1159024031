// Generated quiz: which placement of a query and a key keeps the RoPE score.
// Every score comes from the core (ropeApply via web/lib/rope/rotated-pair.js).
// Texts are Markdown with $TeX$ (web/lib/questions/quiz-text.js), in the lesson's
// notation: q at position m, k at position n, offset n − m.
import { randomQueryKey, rotatedScore } from '../lib/rope/rotated-pair.js';
import { shuffle } from '../lib/questions/random.js';
import { quizNumber, texVector } from '../lib/questions/quiz-text.js';

export function generate(pe, random) {
  for (;;) {
    const { q, k, theta, scaling } = randomQueryKey(random);
    const m = 1 + Math.floor(random() * 8);
    let n = 1 + Math.floor(random() * 8);
    if (n === m) n = m + 2;
    const s = 10 + Math.floor(random() * 90);
    // never "-0.000": a score that rounds to zero is 0.000, whatever its sign
    const score = (i, j) => quizNumber(rotatedScore(pe, q, k, i, j, scaling), 3);
    const base = score(m, n);
    // every placement moves by s, so no option stands out by its bigger numbers
    const cand = [
      { seats: [m + s, n + s], correct: true },
      // the swap moves one position further, so its numbers are not the right option's two
      { seats: [n + s + 1, m + s + 1] },
      { seats: [m + s, n + 2 * s] },
      { seats: [2 * m + s, 2 * n + s] },
    ].map((c) => ({ ...c, score: score(...c.seats) }));
    // Every wrong placement must give a visibly different score.
    if (cand[0].score !== base || cand.slice(1).some((c) => c.score === base)) continue;
    const offset = n - m;
    const say = ([i, j]) => `$q$ at position ${i}, $k$ at position ${j}`;
    const why = [
      `Both moved by ${s}, so the offset is still $n - m = ${offset}$ and the score is $${cand[0].score}$.`,
      `The two positions are swapped (and both moved one further), so the offset is $${m - n}$ instead of $${offset}$: same distance, other direction. The score is $${cand[1].score}$, because RoPE tells before from after.`,
      `$k$ moved ${s} further than $q$, so the offset changed to $${n - m + s}$. The score is $${cand[2].score}$.`,
      `Doubling both positions (then moving both by ${s}) doubles the offset to $${2 * offset}$. The score is $${cand[3].score}$.`,
    ];
    const options = shuffle(
      random,
      cand.map((c, i) => ({ text: say(c.seats), correct: !!c.correct, feedback: why[i] })),
    );
    return {
      question: `RoPE with a single pair turning $\\theta = ${theta}$ radians per position. With $q = ${texVector(q)}$ at position $m = ${m}$ and $k = ${texVector(k)}$ at position $n = ${n}$, the score $q^\\top R_{n-m}\\, k$ is $${base}$. Which placement gives the same score?`,
      options,
      explanation: `The score is $q^\\top R_{n-m}\\, k$, where $R_{n-m}$ turns by $(n - m)\\theta$, so any placement with the same offset $n - m = ${offset}$ gives $${base}$. Moving both positions by the same amount keeps the offset; swapping them flips its sign, and moving one further than the other or scaling both changes it.`,
    };
  }
}
