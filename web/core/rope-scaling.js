// RoPE's context-extension options as the API takes them ({ type: 'yarn',
// factor: 4, ... }): which fields each type takes, and their checks. The
// result holds the fields given; posenc.js fills in the rest from the core's
// own defaults (buildInfo().defaults.scaling) before it crosses as the
// RopeScaling value object of bindings.cpp.
import { describe, number, integer, boolean, options } from './check.js';

export const SCALING_TYPES = ['linear', 'dynamic', 'yarn', 'llama3', 'longrope'];
const MAX_FACTORS = 32768; // LongRoPE lists: one factor per pair, dim/2 <= maxDim/2

export function scalingOption(fn, s, context = {}) {
  if (s === null || s === undefined) return null;
  if (typeof s !== 'object' || Array.isArray(s)) {
    throw new TypeError(
      `${fn}: scaling must be null or an object like { type: 'linear', factor: 2 }, got ${describe(s)}`,
    );
  }
  if (!SCALING_TYPES.includes(s.type)) {
    throw new TypeError(
      `${fn}: unknown RoPE scaling type: scaling.type must be one of ${SCALING_TYPES.map((t) => `'${t}'`).join(', ')}, got ${describe(s.type)}`,
    );
  }
  const fields = {
    linear: ['factor'],
    dynamic: ['factor', 'maxPositions', 'seqLen'],
    yarn: [
      'factor',
      'originalMaxPositions',
      'betaFast',
      'betaSlow',
      'truncate',
      'attentionFactor',
      'mscale',
      'mscaleAllDim',
    ],
    llama3: ['factor', 'originalMaxPositions', 'lowFreqFactor', 'highFreqFactor'],
    longrope: [
      'shortFactor',
      'longFactor',
      'originalMaxPositions',
      'factor',
      'maxPositions',
      'seqLen',
      'attentionFactor',
    ],
  }[s.type];
  options(`${fn} (scaling '${s.type}')`, s, ['type', ...fields]);
  const need = (name) => {
    if (s[name] === undefined) throw new TypeError(`${fn}: scaling '${s.type}' needs ${name}`);
    return s[name];
  };
  // the fields given (checked); the core's defaults fill in the rest (buildInfo().defaults.scaling)
  const out = {
    type: s.type,
    // longrope: NaN = HF's maxPositions / originalMaxPositions
    factor: s.type === 'longrope' && s.factor === undefined ? NaN : number(fn, 'scaling.factor', need('factor')),
  };
  if (s.attentionFactor !== undefined) out.attentionFactor = number(fn, 'scaling.attentionFactor', s.attentionFactor);
  if (s.type === 'dynamic') {
    out.maxPositions = integer(fn, 'scaling.maxPositions', need('maxPositions'));
    out.seqLen =
      s.seqLen === undefined ? (context.seqLen ?? out.maxPositions) : integer(fn, 'scaling.seqLen', s.seqLen);
  }
  if (s.type === 'yarn' || s.type === 'llama3' || s.type === 'longrope') {
    out.originalMaxPositions = integer(fn, 'scaling.originalMaxPositions', need('originalMaxPositions'));
  }
  if (s.type === 'longrope') {
    // float32, as torch.tensor(list, dtype=float32)
    const list = (name) => {
      const v = need(name);
      if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length > MAX_FACTORS) {
        throw new TypeError(`${fn}: scaling.${name} must be an array of numbers, one per pair, got ${describe(v)}`);
      }
      const a = new Float32Array(v.length);
      for (let i = 0; i < v.length; i++) a[i] = number(fn, `scaling.${name}[${i}]`, v[i]);
      return a;
    };
    out.shortFactor = list('shortFactor');
    out.longFactor = list('longFactor');
    if (s.maxPositions !== undefined) out.maxPositions = integer(fn, 'scaling.maxPositions', s.maxPositions);
    else if (s.factor === undefined) need('maxPositions'); // or factor: one of them sets the attention factor
    out.seqLen =
      s.seqLen === undefined ? (context.seqLen ?? out.originalMaxPositions) : integer(fn, 'scaling.seqLen', s.seqLen);
  }
  if (s.type === 'yarn') {
    if (s.truncate !== undefined) out.truncate = boolean(fn, 'scaling.truncate', s.truncate);
    if (s.mscale !== undefined) out.mscale = number(fn, 'scaling.mscale', s.mscale);
    if (s.mscaleAllDim !== undefined) out.mscaleAllDim = number(fn, 'scaling.mscaleAllDim', s.mscaleAllDim);
    if (s.betaFast !== undefined) out.betaFast = number(fn, 'scaling.betaFast', s.betaFast);
    if (s.betaSlow !== undefined) out.betaSlow = number(fn, 'scaling.betaSlow', s.betaSlow);
  }
  if (s.type === 'llama3') {
    if (s.lowFreqFactor !== undefined) out.lowFreqFactor = number(fn, 'scaling.lowFreqFactor', s.lowFreqFactor);
    if (s.highFreqFactor !== undefined) out.highFreqFactor = number(fn, 'scaling.highFreqFactor', s.highFreqFactor);
  }
  return out;
}
