// RoPE's context-extension options as the API takes them ({ type: 'yarn',
// factor: 4, ... }), checked against the core's own list of types and of the
// fields each reads: `types` is buildInfo().scalingTypes (bindings.cpp, from
// rope_scaling_fields in cpp/core/rope_scaling.cpp), e.g.
//   { yarn: { fields: ['factor', 'originalMaxPositions', ...],
//             kinds: { factor: 'number', ... }, required: ['factor', ...],
//             defaults: { betaFast: 32, ... } }, ... }
// The result holds the type's fields, given or defaulted; posenc.js fills in
// the fields the type does not read (buildInfo().defaults.scaling) before it
// crosses as the RopeScaling value object of bindings.cpp.
import { describe, number, integer, boolean, options, typeError } from './check.js';

const MAX_FACTORS = 32768; // LongRoPE lists: one factor per pair, dim/2 <= maxDim/2

// float32, as torch.tensor(list, dtype=float32)
function floats(fn, name, v) {
  if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length > MAX_FACTORS) {
    throw typeError(`${fn}: ${name} must be an array of numbers, one per pair, got ${describe(v)}`);
  }
  const a = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) a[i] = number(fn, `${name}[${i}]`, v[i]);
  return a;
}

// the value checks, by the kind of value the core's field holds
const CHECKS = { number, integer, boolean, floats };
/** The kinds of value a scaling field can hold (buildInfo().scalingTypes[type].kinds). */
export const FIELD_KINDS = Object.freeze(Object.keys(CHECKS));

export function scalingOption(fn, s, types, context = {}) {
  if (s === null || s === undefined) return null;
  if (typeof s !== 'object' || Array.isArray(s)) {
    throw typeError(`${fn}: scaling must be null or an object like { type: 'linear', factor: 2 }, got ${describe(s)}`);
  }
  if (typeof s.type !== 'string' || !Object.hasOwn(types, s.type)) {
    throw typeError(
      `${fn}: unknown RoPE scaling type: scaling.type must be one of ${Object.keys(types)
        .map((t) => `'${t}'`)
        .join(', ')}, got ${describe(s.type)}`,
    );
  }
  const { fields, kinds, required, defaults } = types[s.type];
  options(`${fn} (scaling '${s.type}')`, s, ['type', ...fields]);
  const need = (name) => {
    throw typeError(`${fn}: scaling '${s.type}' needs ${name}`);
  };
  const out = { type: s.type };
  for (const name of fields) {
    if (s[name] !== undefined) out[name] = CHECKS[kinds[name]](fn, `scaling.${name}`, s[name]);
    else if (required.includes(name)) need(name);
    else out[name] = defaults[name];
  }
  // the two rules a list of fields cannot say (rope_scaling.h):
  // longrope's attention factor comes from factor or, without it, from
  // maxPositions / originalMaxPositions (HF), so it needs one of them
  if (s.type === 'longrope' && s.factor === undefined && s.maxPositions === undefined) need('maxPositions');
  // the current length, when not given: the call's (ropeApply's positions),
  // else the length the model was built for
  if (fields.includes('seqLen') && s.seqLen === undefined) {
    out.seqLen = context.seqLen ?? (s.type === 'dynamic' ? out.maxPositions : out.originalMaxPositions);
  }
  return out;
}
