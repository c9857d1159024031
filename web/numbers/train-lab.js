// Numbers of the training lab quoted in lessons/positional-encoding/07-extrapolation.md.
// Training 24 models per seed takes minutes, too long for every build of the
// page, so they come from a recorded run of the same core and builds as
// <train-lab>, once per seed: lessons/positional-encoding/train-results.json,
// written by `node scripts/record/record-train-results.mjs`. Accuracies are quoted
// over the seeds (tests/js/train-results.test.mjs checks there are at least 3).
//
//   train-<task>-<encoding>-<1x|2x|4x>         token accuracy in %, the mean with the range over the seeds,
//                                              "97.1 (95.3–98.8)", or one value where every seed rounds to it
//                                              ("—" past a learned table)
//   train-<task>-<encoding>-<1x|2x|4x>-range   the lowest to the highest seed, "95.3–98.8" (one value if they agree)
//   train-<task>-<encoding>-<1x|2x|4x>-<min|max>   the lowest or highest seed alone
//   train-<task>-<encoding>-to99-max           the most steps any seed needed until 1x accuracy first reached 99%
//                                              ("—" if some seed never did)
//   train-seeds, train-seed-count             the seeds ("1, 2 and 3") and how many
//   train-steps, train-len, train-len-last, train-<2x|4x>-len, train-2x-last, train-d-model, train-layers, train-heads, train-batch
//   train-rope-pairs, train-rope-unturned-pairs   pairs per RoPE head, and those with a wavelength above train-len
//   train-lr                                  the learning rate
//   train-order-blind-<task>-<1x|2x|4x>       the order-blind ceiling in %: the best token accuracy of a model that
//                                             sees its own digit and the bag of all digits but no order (below)
//   train-reverse-2x-unseen                   output positions of reverse at 2x whose offset to their input,
//                                             |2L - 1 - 2m|, exceeds L - 1, the largest offset training showed
import { readFileSync } from 'node:fs';

const recorded = JSON.parse(
  readFileSync(new URL('../../lessons/positional-encoding/train-results.json', import.meta.url), 'utf8'),
);
const { results, config, steps, seeds } = recorded;

const list = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const pct = (x) => (100 * x).toFixed(1);
const range = (s) => (pct(s.min) === pct(s.max) ? pct(s.min) : `${pct(s.min)}–${pct(s.max)}`);

// E[the largest count of one digit among n digits drawn uniformly from `vocab`]:
// P(max <= k) = n! / vocab^n [x^n] (sum_{j <= k} x^j / j!)^vocab, exactly counted.
function expectedMaxCount(n, vocab) {
  const logFact = [0];
  for (let j = 1; j <= n; j++) logFact.push(logFact[j - 1] + Math.log(j));
  let expected = 0;
  let below = 0; // P(max <= k - 1)
  for (let k = 1; k <= n; k++) {
    let poly = [1];
    for (let v = 0; v < vocab; v++) {
      const next = new Array(Math.min(n, poly.length - 1 + k) + 1).fill(0);
      for (let a = 0; a < poly.length; a++)
        for (let j = 0; j <= k && a + j <= n; j++) next[a + j] += poly[a] * Math.exp(-logFact[j]);
      poly = next;
    }
    const atMost = (poly[n] ?? 0) * Math.exp(logFact[n] - n * Math.log(vocab));
    expected += k * (atMost - below);
    below = atMost;
  }
  return expected;
}
// The order-blind ceiling: a model without positions sees, at every output position, its own
// digit and the bag of all N digits. Reverse (N even) asks for another position's digit,
// so the best bet is the commonest of the other N - 1; sort and shift ask for a digit
// whose position is unknown to it, so the best bet is the commonest of all N.
const orderBlind = (task, N) => {
  const n = task === 'reverse' ? N - 1 : N;
  return pct(expectedMaxCount(n, config.vocab) / n);
};

const numbers = {
  'train-seeds': () => list(seeds),
  'train-seed-count': () => String(seeds.length),
  'train-steps': () => steps.toLocaleString('en-US'),
  'train-len': () => String(config.trainLen),
  'train-2x-len': () => String(2 * config.trainLen),
  'train-4x-len': () => String(4 * config.trainLen),
  'train-2x-last': () => String(2 * config.trainLen - 1), // the last position at twice the length
  'train-len-last': () => String(config.trainLen - 1), // the largest offset training shows
  'train-d-model': () => String(config.dModel),
  'train-layers': () => String(config.layers),
  'train-heads': () => String(config.heads),
  'train-batch': () => String(config.batch),
  'train-lr': () => String(config.lr),
  'train-reverse-2x-unseen': () => {
    const L = config.trainLen;
    let n = 0;
    for (let m = 0; m < 2 * L; m++) if (Math.abs(2 * L - 1 - 2 * m) > L - 1) n++;
    return String(n);
  },
  // RoPE in the trainer: one head of dModel / heads coordinates, base 10000 (cpp/train/transformer.h)
  'train-rope-pairs': () => String(config.dModel / config.heads / 2),
  'train-rope-unturned-pairs': (pe) =>
    String(
      Array.from(pe.ropeInvFreq(config.dModel / config.heads), (f) => (2 * Math.PI) / f).filter(
        (w) => w > config.trainLen,
      ).length,
    ),
};
for (const [task, byEncoding] of Object.entries(results)) {
  if (task !== 'copy')
    ['1x', '2x', '4x'].forEach((m, k) => {
      numbers[`train-order-blind-${task}-${m}`] = () => orderBlind(task, 2 ** k * config.trainLen);
    });
  for (const [encoding, r] of Object.entries(byEncoding)) {
    for (const m of ['1x', '2x', '4x']) {
      const s = r[`acc${m}`];
      const name = `train-${task}-${encoding}-${m}`;
      const missing = s.mean === null; // a learned table past its rows: no accuracy in any seed
      numbers[name] = () => (missing ? '—' : pct(s.min) === pct(s.max) ? pct(s.mean) : `${pct(s.mean)} (${range(s)})`);
      numbers[`${name}-range`] = () => (missing ? '—' : range(s));
      numbers[`${name}-min`] = () => (missing ? '—' : pct(s.min));
      numbers[`${name}-max`] = () => (missing ? '—' : pct(s.max));
    }
    numbers[`train-${task}-${encoding}-to99-max`] = () =>
      r.stepsTo99.max === null ? '—' : r.stepsTo99.max.toLocaleString('en-US');
  }
}

export default numbers;
