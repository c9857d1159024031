// Reads the RoPE settings out of a Hugging Face config.json, as transformers
// reads them (modeling_rope_utils.py and the model configs), into the options
// of web/posenc.js (ropeInvFreq's `scaling`). No arithmetic on frequencies
// happens here: the core computes them.
//
//   parseRopeConfig(textOrObject) -> {
//     type, headDim, rotaryDim, base, maxPositions,
//     trainedLength,  // L: the context the model was pre-trained on, as the
//                     // config gives it (the length its scaling starts from)
//     trainedFrom,    // the field L was read from, as the lab names it
//     claimedLength,  // what the config says it handles after scaling
//     read,           // [[field, value], ...] what was read, for display
//     scalingAt(seqLen) -> the posenc scaling option at that length (null: none)
//   }
//
// Errors are TypeErrors (wrong kind of value) and RangeErrors (out of range)
// that start with the function name and name the field, as web/posenc.js's do.

export const MAX_CONFIG_CHARS = 1 << 20; // a real config.json is a few KB; Phi-3's is 6
export const MAX_POSITION = 1 << 24; // the core's cap on a position
const MAX_HEAD_DIM = 65536;
const MAX_FACTOR = 65536;
export const ROPE_TYPES = ['default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope'];
const FN = 'parseRopeConfig';

function describe(v) {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return String(v);
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// Own properties only: "__proto__" or "constructor" in a pasted file are plain keys, never the prototype's.
const own = (o, k) => (Object.hasOwn(o, k) && o[k] !== null ? o[k] : undefined);

function num(field, v, { lo = -Infinity, hi = Infinity, above = false, int = false } = {}) {
  if (typeof v !== 'number') throw new TypeError(`${FN}: ${field} must be a number, got ${describe(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${FN}: ${field} must be a finite number, got ${v}`);
  if (int && !Number.isInteger(v)) throw new RangeError(`${FN}: ${field} must be a whole number, got ${v}`);
  if ((above ? v <= lo : v < lo) || v > hi) {
    const from = above ? `greater than ${lo}` : `at least ${lo}`;
    throw new RangeError(`${FN}: ${field} must be ${from}${hi < Infinity ? ` and at most ${hi}` : ''}, got ${v}`);
  }
  return v;
}

function factorList(field, v, pairs) {
  if (!Array.isArray(v))
    throw new TypeError(`${FN}: ${field} must be a list of numbers, one per rotated pair, got ${describe(v)}`);
  if (v.length !== pairs) {
    throw new RangeError(`${FN}: ${field} must hold one factor per rotated pair (${pairs}), got ${v.length}`);
  }
  return v.map((x, i) => num(`${field}[${i}]`, x, { lo: 0, above: true, hi: MAX_FACTOR }));
}

/** Parses a config.json (its text, or the parsed object); throws naming the field. */
export function parseRopeConfig(input) {
  let config = input;
  if (typeof input === 'string') {
    if (input.length > MAX_CONFIG_CHARS) {
      throw new RangeError(
        `${FN}: the config is ${input.length.toLocaleString('en-US')} characters long; a config.json of at most ${MAX_CONFIG_CHARS.toLocaleString('en-US')} is read`,
      );
    }
    if (input.trim() === '') throw new TypeError(`${FN}: the config is empty; paste a config.json`);
    try {
      config = JSON.parse(input);
    } catch (error) {
      throw new TypeError(`${FN}: the config is not valid JSON (${error.message})`);
    }
  }
  if (!isObject(config))
    throw new TypeError(`${FN}: a config.json must be a JSON object { ... }, got ${describe(config)}`);
  const read = [];

  // Hugging Face 5 moves the settings into rope_parameters (with rope_theta inside).
  const rsKey =
    own(config, 'rope_scaling') !== undefined
      ? 'rope_scaling'
      : own(config, 'rope_parameters') !== undefined
        ? 'rope_parameters'
        : null;
  const rs = rsKey ? config[rsKey] : null;
  if (rs !== null && !isObject(rs))
    throw new TypeError(`${FN}: ${rsKey} must be an object or null, got ${describe(rs)}`);
  const rsf = (k) => (rs ? own(rs, k) : undefined);

  // head dimension: head_dim, else hidden_size // num_attention_heads (HF)
  let headDim;
  if (own(config, 'head_dim') !== undefined) {
    headDim = num('head_dim', config.head_dim, { lo: 2, hi: MAX_HEAD_DIM, int: true });
    read.push(['head_dim', headDim]);
  } else {
    const hidden = own(config, 'hidden_size');
    const heads = own(config, 'num_attention_heads');
    if (hidden === undefined || heads === undefined) {
      throw new TypeError(
        `${FN}: the head dimension is missing: give head_dim, or hidden_size and num_attention_heads`,
      );
    }
    num('hidden_size', hidden, { lo: 1, hi: MAX_HEAD_DIM * 1024, int: true });
    num('num_attention_heads', heads, { lo: 1, hi: 1024, int: true });
    headDim = Math.floor(hidden / heads);
    if (headDim < 2 || headDim > MAX_HEAD_DIM) {
      throw new RangeError(
        `${FN}: hidden_size / num_attention_heads gives a head dimension of ${headDim}; it must be between 2 and ${MAX_HEAD_DIM}`,
      );
    }
    read.push(['head_dim', headDim, `hidden_size ${hidden} / num_attention_heads ${heads}`]);
  }

  // rotated part: partial_rotary_factor (HF) or rotary_pct (GPT-NeoX); int(head_dim * p)
  let rotaryDim = headDim;
  const prfKey =
    ['partial_rotary_factor', 'rotary_pct'].find((k) => own(config, k) !== undefined) ??
    (rsf('partial_rotary_factor') !== undefined ? 'partial_rotary_factor' : null);
  if (prfKey) {
    const p = num(prfKey, own(config, prfKey) ?? rsf(prfKey), { lo: 0, above: true, hi: 1 });
    rotaryDim = Math.trunc(headDim * p);
    if (rotaryDim < 2 || rotaryDim % 2 !== 0) {
      throw new RangeError(
        `${FN}: ${prfKey} ${p} rotates ${rotaryDim} of ${headDim} dimensions; that must be an even number, at least 2`,
      );
    }
    read.push([prfKey, p, `${rotaryDim} of ${headDim} dimensions rotate`]);
  }

  // base: rope_theta (GPT-NeoX: rotary_emb_base); HF's default 10,000 when absent
  const baseKey = ['rope_theta', 'rotary_emb_base'].find((k) => own(config, k) !== undefined);
  let base = 10000;
  if (baseKey) base = num(baseKey, config[baseKey], { lo: 1, above: true, hi: 1e12 });
  else if (rsf('rope_theta') !== undefined)
    base = num(`${rsKey}.rope_theta`, rsf('rope_theta'), { lo: 1, above: true, hi: 1e12 });
  read.push([
    baseKey ?? (rsf('rope_theta') !== undefined ? `${rsKey}.rope_theta` : 'rope_theta'),
    base,
    baseKey || rsf('rope_theta') !== undefined ? '' : 'absent: Hugging Face’s default',
  ]);

  if (own(config, 'max_position_embeddings') === undefined) {
    throw new TypeError(
      `${FN}: max_position_embeddings is missing: the config must say how many positions the model takes`,
    );
  }
  const maxPositions = num('max_position_embeddings', config.max_position_embeddings, {
    lo: 1,
    hi: MAX_POSITION,
    int: true,
  });
  read.push(['max_position_embeddings', maxPositions]);

  // the scaling type: rope_type, or the older `type`; "su" is Phi-3's first name for longrope
  let type = 'default';
  if (rs) {
    const typeKey = rsf('rope_type') !== undefined ? 'rope_type' : rsf('type') !== undefined ? 'type' : null;
    if (!typeKey) throw new TypeError(`${FN}: ${rsKey} needs rope_type (or the older type), e.g. "yarn"`);
    const t = rs[typeKey];
    if (typeof t !== 'string') throw new TypeError(`${FN}: ${rsKey}.${typeKey} must be a string, got ${describe(t)}`);
    type = t === 'su' ? 'longrope' : t;
    if (!ROPE_TYPES.includes(type)) {
      throw new TypeError(
        `${FN}: ${rsKey}.${typeKey} "${t.slice(0, 40)}" is not supported here (supported: ${ROPE_TYPES.join(', ')})`,
      );
    }
    read.push([`${rsKey}.${typeKey}`, t]);
  }
  const field = (k) => `${rsKey}.${k}`;
  const need = (k) => {
    if (rsf(k) === undefined) throw new TypeError(`${FN}: ${field(k)} is missing; rope type ${type} needs it`);
    return rs[k];
  };
  const factorOf = (k = 'factor') => num(field(k), need(k), { lo: 1, hi: MAX_FACTOR });
  const length = (k, v) => num(k, v, { lo: 1, hi: MAX_POSITION, int: true });
  const optional = (k, opts) => (rsf(k) === undefined ? undefined : num(field(k), rs[k], opts));
  const note = (k, v, why = '') => read.push([field(k), v, why]);

  let trainedLength = maxPositions;
  let trainedFrom = 'max_position_embeddings';
  let claimedLength = maxPositions;
  let scalingAt = () => null;
  const claimFrom = (factor) =>
    maxPositions > trainedLength ? maxPositions : Math.min(MAX_POSITION, Math.round(trainedLength * factor));

  if (type === 'linear' || type === 'dynamic') {
    const factor = factorOf();
    note('factor', factor);
    // dynamic NTK scales from max_position_embeddings (HF); linear has no length of its own
    if (rsf('original_max_position_embeddings') !== undefined) {
      trainedLength = length(field('original_max_position_embeddings'), rs.original_max_position_embeddings);
      trainedFrom = field('original_max_position_embeddings');
      note(
        'original_max_position_embeddings',
        trainedLength,
        type === 'dynamic' ? 'read, but Hugging Face’s dynamic NTK scales from max_position_embeddings' : '',
      );
    }
    claimedLength = claimFrom(factor);
    scalingAt = type === 'linear' ? () => ({ type, factor }) : (seqLen) => ({ type, factor, maxPositions, seqLen });
  } else if (type === 'yarn') {
    const factor = factorOf();
    note('factor', factor);
    trainedLength =
      rsf('original_max_position_embeddings') === undefined
        ? maxPositions
        : length(field('original_max_position_embeddings'), rs.original_max_position_embeddings);
    if (rsf('original_max_position_embeddings') !== undefined) trainedFrom = field('original_max_position_embeddings');
    note(
      'original_max_position_embeddings',
      trainedLength,
      rsf('original_max_position_embeddings') === undefined ? 'absent: max_position_embeddings' : '',
    );
    const s = { type, factor, originalMaxPositions: trainedLength };
    // HF: beta_fast or 32, beta_slow or 1 (a 0 counts as unset)
    const betaFast = optional('beta_fast', { lo: 0, above: true, hi: 1e6 });
    const betaSlow = optional('beta_slow', { lo: 0, above: true, hi: 1e6 });
    if (betaFast) {
      s.betaFast = betaFast;
      note('beta_fast', betaFast);
    }
    if (betaSlow) {
      s.betaSlow = betaSlow;
      note('beta_slow', betaSlow);
    }
    if ((s.betaSlow ?? 1) >= (s.betaFast ?? 32)) {
      throw new RangeError(
        `${FN}: ${field('beta_slow')} (${s.betaSlow ?? 1}) must be less than ${field('beta_fast')} (${s.betaFast ?? 32})`,
      );
    }
    if (rsf('truncate') !== undefined) {
      if (typeof rs.truncate !== 'boolean')
        throw new TypeError(`${FN}: ${field('truncate')} must be true or false, got ${describe(rs.truncate)}`);
      s.truncate = rs.truncate;
      note('truncate', rs.truncate);
    }
    const af = optional('attention_factor', { lo: 0, above: true, hi: 1e3 });
    if (af !== undefined) {
      s.attentionFactor = af;
      note('attention_factor', af);
    }
    const ms = optional('mscale', { lo: 0, hi: 1e3 });
    const msAll = optional('mscale_all_dim', { lo: 0, hi: 1e3 });
    if (ms !== undefined) {
      s.mscale = ms;
      note('mscale', ms);
    }
    if (msAll !== undefined) {
      s.mscaleAllDim = msAll;
      note('mscale_all_dim', msAll);
    }
    claimedLength = claimFrom(factor);
    scalingAt = () => ({ ...s });
  } else if (type === 'llama3') {
    const factor = factorOf();
    trainedLength = length(field('original_max_position_embeddings'), need('original_max_position_embeddings'));
    trainedFrom = field('original_max_position_embeddings');
    const low = num(field('low_freq_factor'), need('low_freq_factor'), { lo: 0, above: true, hi: 1e6 });
    const high = num(field('high_freq_factor'), need('high_freq_factor'), { lo: 0, above: true, hi: 1e6 });
    if (!(low < high))
      throw new RangeError(
        `${FN}: ${field('low_freq_factor')} (${low}) must be less than ${field('high_freq_factor')} (${high})`,
      );
    note('factor', factor);
    note('original_max_position_embeddings', trainedLength);
    note('low_freq_factor', low);
    note('high_freq_factor', high);
    claimedLength = claimFrom(factor);
    scalingAt = () => ({ type, factor, originalMaxPositions: trainedLength, lowFreqFactor: low, highFreqFactor: high });
  } else if (type === 'longrope') {
    const pairs = rotaryDim / 2;
    const shortFactor = factorList(field('short_factor'), need('short_factor'), pairs);
    const longFactor = factorList(field('long_factor'), need('long_factor'), pairs);
    // Phi-3 keeps the pre-trained length at the top level; HF 5 moves it into rope_parameters
    const origKey =
      rsf('original_max_position_embeddings') !== undefined
        ? field('original_max_position_embeddings')
        : own(config, 'original_max_position_embeddings') !== undefined
          ? 'original_max_position_embeddings'
          : null;
    trainedLength = origKey
      ? length(origKey, rsf('original_max_position_embeddings') ?? config.original_max_position_embeddings)
      : maxPositions;
    if (origKey) trainedFrom = origKey;
    read.push([
      origKey ?? 'original_max_position_embeddings',
      trainedLength,
      origKey ? '' : 'absent: max_position_embeddings',
    ]);
    const s = { type, shortFactor, longFactor, originalMaxPositions: trainedLength, maxPositions };
    const factor = optional('factor', { lo: 0, above: true, hi: MAX_FACTOR });
    if (factor !== undefined) {
      s.factor = factor;
      note('factor', factor);
    }
    const af = optional('attention_factor', { lo: 0, above: true, hi: 1e3 });
    if (af !== undefined) {
      s.attentionFactor = af;
      note('attention_factor', af);
    }
    read.push([
      field('short_factor'),
      `${pairs} factors`,
      `${Math.min(...shortFactor)} to ${Math.max(...shortFactor)}`,
    ]);
    read.push([field('long_factor'), `${pairs} factors`, `${Math.min(...longFactor)} to ${Math.max(...longFactor)}`]);
    claimedLength = maxPositions > trainedLength ? maxPositions : factor ? claimFrom(factor) : maxPositions;
    scalingAt = (seqLen) => ({ ...s, seqLen });
  }
  return { type, headDim, rotaryDim, base, maxPositions, trainedLength, trainedFrom, claimedLength, read, scalingAt };
}

// A scaled frequency within this (relative) of the unscaled one differs
// only by float32 rounding: a blend such as YaRN's θ/s·(1 − r) + θ·r at
// s = 1 lands up to a rounding step away from θ (measured in the core: at
// most 0.94 of a float32 step, 1.1e-7, over dims 4–512, bases 2–10⁸ and
// original lengths 16–4M), while a factor of 1.5 changes θ by a third.
// 2⁻²² is two float32 steps at the bottom of a binade.
const F32_ROUNDING = 2 ** -22;

/**
 * Whether the scaling changed a pair's frequency (`before`, `after` from the
 * core's ropeInvFreq): equal up to float32 rounding counts as unchanged, as
 * the RoPE labs count "pairs changed".
 */
export function pairChanged(before, after) {
  return Math.abs(after - before) > F32_ROUNDING * Math.abs(before);
}
/** Whether the two differ at all, but only by float32 rounding. */
export function onlyRounding(before, after) {
  return after !== before && !pairChanged(before, after);
}
