// What <rope-config-lab> says of a config, in sentences: what the config
// rotates and claims, what its scaling changes, whether a target length
// turns any pair through angles never seen in training, and what the
// scaling alone covers. state: the widget's _state for one update (the
// config, the pair rows of lib/rope/pair-angles.js, the lengths L, Lt and T);
// fixedFacts: what depends on the config only (changed pairs, the stretch
// range, the slow pairs).
import { fixed, grouped } from '../printing/pyformat.js';
import { rowAt } from './pair-angles.js';

// n with thousands separators and at most 3 decimals, as Intl.NumberFormat('en-US')
// writes it. Whole numbers (every length, most bases) are grouped here:
// creating the formatter loads the locale data, tens of ms of a phone's page
// load, so it is made only when a fraction needs it (a pasted rope_theta).
let decimals = null;
export function count(n) {
  if (Number.isInteger(n) && Math.abs(n) < 1e21 && !Object.is(n, -0)) return grouped(String(n));
  decimals ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
  return decimals.format(n);
}
// a stretch as a learner reads it: ×8, ×1.07 (two decimals, no trailing zeros)
const times = (x) => fixed(x, 2).replace(/\.?0+$/, '');

// The pairs whose flag is set: how many, and as ranges ([1, 1, 1, 0, 1] ->
// "0–2, 4"), read from the flags (a head of 32768 pairs builds no list).
export function marked(flags) {
  let length = 0;
  const out = [];
  for (let k = 0; k < flags.length; k++) {
    if (!flags[k]) continue;
    let j = k;
    while (j + 1 < flags.length && flags[j + 1]) j++;
    out.push(j > k ? `${k}–${j}` : String(k));
    length += j - k + 1;
    k = j;
  }
  return { length, ranges: out.join(', ') };
}

/** The summary's sentences, in reading order. */
export function summaryLines(state, fixedFacts) {
  const { cfg, rows, fresh, L, Lt, assumed, T, attn, name, pairs, longTraining } = state;
  const { changed, most, least } = fixedFacts;
  const freshUnscaled = marked(rows.freshUnscaled);
  const lines = [];
  const partial = cfg.rotaryDim < cfg.headDim ? ` (${cfg.rotaryDim} of its ${cfg.headDim} head dimensions)` : '';
  const from = cfg.claimedLength === L ? '' : ` and computes its scaling from an original context of L = ${count(L)}`;
  lines.push(
    `${name} rotates ${pairs} pairs${partial} with base ${count(cfg.base)}; its config claims ${count(cfg.claimedLength)} tokens${from}.`,
  );
  if (cfg.type === 'default')
    lines.push('Its config has no rope_scaling: every pair keeps its frequency at any length.');
  else {
    const range =
      fixed(least, 2) === fixed(most, 2) ? `×${fixed(most, 2)} each` : `×${fixed(least, 2)} to ×${fixed(most, 2)}`;
    const how = changed.length ? `, stretching wavelengths by ${range}` : '';
    lines.push(
      `Its ${cfg.type} scaling changes ${changed.length} of ${pairs} pairs${how}${cfg.type === 'dynamic' || cfg.type === 'longrope' ? ` (at ${count(T)} tokens; this type depends on the length)` : ''}.`,
    );
  }
  const list = (m) => (m.length ? ` (pairs ${m.ranges})` : '');
  if (T <= Lt)
    lines.push(
      `At ${count(T)} tokens, within the ${assumed ? 'assumed ' : ''}training length of ${count(Lt)}, no pair turns further than in training.`,
    );
  else {
    // the verdict names what it assumes the model saw
    const upTo = assumed ? `${count(Lt)}, the training length set above,` : `${cfg.trainedFrom} = ${count(Lt)}`;
    const at = `Assuming training saw positions up to ${upTo}${cfg.type === 'default' ? '' : ' with the unscaled frequencies'}: at ${count(T)} tokens,`;
    if (cfg.type === 'default')
      lines.push(
        `${at} ${freshUnscaled.length} of ${pairs} pairs turn through angles never seen in training${list(freshUnscaled)}.`,
      );
    else {
      lines.push(
        `${at} ${freshUnscaled.length} of ${pairs} pairs would turn through angles never seen in training without scaling; with this ${cfg.type} scaling ${fresh.length === 0 ? 'none do' : `${fresh.length} still do${list(fresh)}`}.`,
      );
      const covers = coverage(state, fixedFacts);
      if (covers) lines.push(covers);
    }
  }
  if (longTraining) {
    lines.push(
      Lt < longTraining.length
        ? `${longTraining.text} Its arcs were trained out to that length, so the marks describe the ${cfg.type} scaling alone, not angles this model never saw (a training length of ${count(longTraining.length)} assumes the long training).`
        : longTraining.text,
    );
  }
  lines.push(
    attn === 1
      ? 'Attention factor: 1 (cos and sin are not rescaled).'
      : `Attention factor: ${fixed(attn, 4)}: cos and sin are multiplied by it, so every attention logit by its square, ${fixed(attn * attn, 4)}.`,
  );
  if (cfg.type === 'longrope')
    lines.push(`LongRoPE switches lists with the length: short_factor up to ${count(L)} tokens, long_factor beyond.`);
  if (cfg.type === 'dynamic')
    lines.push(
      `Dynamic NTK recomputes the base for the current length; up to ${count(cfg.maxPositions)} tokens the pairs keep their trained frequencies.`,
    );
  return lines;
}

// What the scaling alone covers. Only pairs that never completed a turn in
// training can meet new angles; one slowed ×r turns as far at r·Lt tokens
// as it did at Lt (offsets up to r·Lt − 1 at θᵢ/r stay within one trained
// step θᵢ of (Lt − 1)·θᵢ, the tolerance of the verdict), so the least
// slowed of them sets the length the scaling covers.
function coverage(state, fixedFacts) {
  const { rows, Lt, T } = state;
  const { slow, leastSlow, slowSame: same } = fixedFacts;
  if (!slow.length) return null;
  const least = rowAt(rows, leastSlow);
  const r = times(least.ratio);
  const covered = Math.floor(Lt * least.ratio);
  // (a pasted list of factors may speed a pair up)
  const how = least.ratio >= 1 ? `slowed ×${r}` : `sped up ×${times(1 / least.ratio)}`;
  const who = same
    ? `${slow.length === 1 ? 'The pair' : `Each of the ${slow.length} pairs`} that never completed a turn in training is ${how}, so it`
    : `Of the ${slow.length} pairs that never completed a turn in training, pair ${least.i} is ${least.ratio >= 1 ? `slowed least, ×${r}` : how}, so it`;
  const enough =
    covered >= T ? `enough for ${count(T)}` : `the scaling alone covers ${count(covered)} of the ${count(T)}`;
  return `${who} turns as far at ${count(covered)} tokens (${r} × ${count(Lt)}) as at ${count(Lt)}: ${enough}.`;
}
