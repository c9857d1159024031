// <rope-config-lab>'s two halves outside the browser: the config.json reader
// (web/lib/rope/rope-config.js) against well-formed, old-style, partial and
// hostile configs, and every preset (web/lib/rope/rope-presets.js) read by it and
// computed by the core in both builds, against PyTorch fixtures made with
// Hugging Face's formulas (tests/fixtures/make_fixtures.py, rope_preset_*).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../../web/posenc.js';
import { parseRopeConfig, MAX_CONFIG_CHARS } from '../../web/lib/rope/rope-config.js';
import { ROPE_PRESETS, ropePreset } from '../../web/lib/rope/rope-presets.js';
import { allCases, maxAbsDiff } from './fixture.mjs';

const num = (c, k) => Number(c.params[k]);
const llama = { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096 };

describe('presets', () => {
  it('at least eight, every rope type, a partial-rotary model, each with its source', () => {
    assert.ok(ROPE_PRESETS.length >= 8);
    const types = new Set(ROPE_PRESETS.map((p) => parseRopeConfig(p.config).type));
    for (const t of ['default', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope']) assert.ok(types.has(t), t);
    assert.ok(ROPE_PRESETS.some((p) => parseRopeConfig(p.config).rotaryDim < parseRopeConfig(p.config).headDim));
    for (const p of ROPE_PRESETS) assert.ok(p.source.length > 20 && p.name && p.id, p.id);
    assert.equal(new Set(ROPE_PRESETS.map((p) => p.id)).size, ROPE_PRESETS.length);
  });

  it('the numbers the model cards publish', () => {
    const l31 = parseRopeConfig(ropePreset('llama-3.1-8b').config);
    assert.deepEqual(
      [l31.type, l31.rotaryDim, l31.base, l31.trainedLength, l31.claimedLength],
      ['llama3', 128, 500000, 8192, 131072],
    );
    const qwen = parseRopeConfig(ropePreset('qwen2.5-7b-yarn').config);
    assert.deepEqual([qwen.type, qwen.rotaryDim, qwen.trainedLength, qwen.claimedLength], ['yarn', 128, 32768, 131072]);
    const phi = parseRopeConfig(ropePreset('phi-3-mini-128k').config);
    assert.deepEqual([phi.type, phi.rotaryDim, phi.trainedLength, phi.claimedLength], ['longrope', 96, 4096, 131072]);
    const pythia = parseRopeConfig(ropePreset('pythia-1.4b').config);
    assert.deepEqual([pythia.headDim, pythia.rotaryDim, pythia.base], [128, 32, 10000]);
  });

  for (const simd of [true, false]) {
    describe(simd ? 'SIMD build' : 'scalar build', () => {
      let pe;
      before(async () => {
        pe = await loadPosenc({ simd });
      });

      it('every preset: inverse frequencies and attention factor as HF computes them with torch', () => {
        const fixtures = allCases('rope_preset');
        const seen = new Set(fixtures.map((c) => c.params.preset));
        for (const p of ROPE_PRESETS) assert.ok(seen.has(p.id), `no fixture for preset ${p.id}: run npm run fixtures`);
        const worst = {};
        for (const c of fixtures) {
          const r = parseRopeConfig(ropePreset(c.params.preset).config);
          assert.equal(r.rotaryDim, num(c, 'dim'), c.file);
          assert.equal(r.base, num(c, 'base'), c.file);
          const scaling = r.scalingAt(num(c, 'seq_len'));
          const inv = pe.ropeInvFreq(r.rotaryDim, { base: r.base, scaling });
          const diff = maxAbsDiff(inv, c.tensors.out.values);
          assert.equal(diff, 0, `${c.file}: max |diff| ${diff}`);
          assert.deepEqual(Array.from(inv), c.tensors.out.values, c.file);
          const af = scaling ? pe.ropeAttentionFactor(scaling) : 1;
          assert.equal(af, num(c, 'attention_factor'), c.file);
          worst[c.params.preset] = Math.max(worst[c.params.preset] ?? 0, diff);
        }
        assert.equal(Object.keys(worst).length, ROPE_PRESETS.length);
      });

      it('longrope through the API: short factors up to the original length, long beyond, lists checked', () => {
        const phi = parseRopeConfig(ropePreset('phi-3-mini-128k').config);
        const short = pe.ropeInvFreq(96, { scaling: phi.scalingAt(4096) });
        const long = pe.ropeInvFreq(96, { scaling: phi.scalingAt(4097) });
        assert.notDeepEqual(Array.from(short), Array.from(long));
        const s = phi.scalingAt(5000);
        assert.throws(
          () => pe.ropeInvFreq(64, { scaling: s }),
          /ropeInvFreq: scaling.shortFactor and scaling.longFactor must hold dim\/2 = 32 factors each, got 48 and 48/,
        );
        assert.throws(
          () => pe.ropeInvFreq(96, { scaling: { ...s, longFactor: [...s.longFactor.slice(0, 47), 0] } }),
          /ropeInvFreq: scaling.longFactor\[47\] must be a finite number greater than 0/,
        );
        assert.throws(
          () => pe.ropeInvFreq(96, { scaling: { ...s, shortFactor: 'x' } }),
          /ropeInvFreq: scaling.shortFactor must be an array/,
        );
        assert.throws(
          () =>
            pe.ropeInvFreq(96, {
              scaling: { type: 'longrope', shortFactor: [], longFactor: [], originalMaxPositions: 4 },
            }),
          /needs maxPositions/,
        );
        assert.equal(pe.ropeAttentionFactor({ ...s, attentionFactor: 1.5 }), 1.5);
        assert.equal(pe.ropeInvFreq(4, { base: 10000 }).length, 2); // still working
      });

      it('yarn: attention_factor, mscale / mscale_all_dim and truncate as HF', () => {
        const base = { type: 'yarn', factor: 40, originalMaxPositions: 4096 };
        assert.equal(pe.ropeAttentionFactor({ ...base, attentionFactor: 1.25 }), 1.25);
        // DeepSeek-V2/V3: mscale = mscale_all_dim -> 1
        assert.equal(pe.ropeAttentionFactor({ ...base, mscale: 0.707, mscaleAllDim: 0.707 }), 1);
        assert.equal(
          pe.ropeAttentionFactor({ ...base, mscale: 1, mscaleAllDim: 0 }),
          Math.fround(0.1 * Math.log(40) + 1),
        );
        const t = pe.ropeInvFreq(64, { base: 150000, scaling: { ...base, factor: 32, truncate: false } });
        const f = pe.ropeInvFreq(64, { base: 150000, scaling: { ...base, factor: 32 } });
        assert.notDeepEqual(Array.from(t), Array.from(f));
      });
    });
  }
});

describe('parseRopeConfig', () => {
  it('reads head_dim or hidden_size / num_attention_heads, rope_theta or its default', () => {
    const r = parseRopeConfig(JSON.stringify(llama));
    assert.deepEqual(
      [r.type, r.headDim, r.rotaryDim, r.base, r.trainedLength, r.claimedLength],
      ['default', 128, 128, 10000, 4096, 4096],
    );
    assert.equal(r.scalingAt(9999), null);
    assert.equal(parseRopeConfig({ ...llama, head_dim: 64 }).headDim, 64);
    assert.equal(parseRopeConfig({ ...llama, partial_rotary_factor: 0.5 }).rotaryDim, 64);
    assert.equal(parseRopeConfig({ ...llama, rope_scaling: { rope_type: 'default' } }).type, 'default');
  });

  it('old-style `type`, "su" for longrope, and HF 5 rope_parameters', () => {
    assert.equal(parseRopeConfig({ ...llama, rope_scaling: { type: 'linear', factor: 4 } }).claimedLength, 16384);
    const phi = structuredClone(ropePreset('phi-3-mini-128k').config);
    phi.rope_scaling.type = 'su';
    assert.equal(parseRopeConfig(phi).type, 'longrope');
    const v5 = parseRopeConfig({
      ...llama,
      rope_parameters: { rope_type: 'yarn', rope_theta: 1e6, factor: 4, original_max_position_embeddings: 4096 },
    });
    assert.deepEqual([v5.type, v5.base, v5.trainedLength, v5.claimedLength], ['yarn', 1e6, 4096, 16384]);
    assert.deepEqual(v5.scalingAt(1), { type: 'yarn', factor: 4, originalMaxPositions: 4096 });
  });

  it('partial configs: a missing field is named', () => {
    assert.throws(
      () => parseRopeConfig({ hidden_size: 4096, max_position_embeddings: 4096 }),
      /^TypeError: parseRopeConfig: the head dimension is missing: give head_dim, or hidden_size and num_attention_heads/,
    );
    assert.throws(() => parseRopeConfig({ head_dim: 128 }), /parseRopeConfig: max_position_embeddings is missing/);
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { rope_type: 'yarn' } }),
      /parseRopeConfig: rope_scaling.factor is missing; rope type yarn needs it/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { factor: 2 } }),
      /rope_scaling needs rope_type \(or the older type\)/,
    );
    assert.throws(
      () =>
        parseRopeConfig({
          ...llama,
          rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1 },
        }),
      /rope_scaling.high_freq_factor is missing/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { type: 'longrope', short_factor: [1], long_factor: [1] } }),
      /rope_scaling.short_factor must hold one factor per rotated pair \(64\), got 1/,
    );
  });

  it('wrong types and unsupported rope types say what was expected', () => {
    assert.throws(
      () => parseRopeConfig({ ...llama, max_position_embeddings: '4096' }),
      /^TypeError: parseRopeConfig: max_position_embeddings must be a number, got the string "4096"/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { rope_type: 'ntk', factor: 2 } }),
      /rope_scaling.rope_type "ntk" is not supported here \(supported: default, linear, dynamic, yarn, llama3, longrope\)/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { rope_type: 7 } }),
      /rope_scaling.rope_type must be a string, got 7/,
    );
    assert.throws(() => parseRopeConfig({ ...llama, rope_scaling: 'yarn' }), /rope_scaling must be an object or null/);
    assert.throws(
      () => parseRopeConfig({ ...llama, partial_rotary_factor: 0.01 }),
      /partial_rotary_factor 0.01 rotates 1 of 128 dimensions/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { rope_type: 'yarn', factor: 4, beta_fast: 1, beta_slow: 2 } }),
      /beta_slow \(2\) must be less than rope_scaling.beta_fast \(1\)/,
    );
    assert.throws(() => parseRopeConfig('[1, 2]'), /a config.json must be a JSON object/);
    assert.throws(
      () => parseRopeConfig('{"hidden_size": 4096,'),
      /^TypeError: parseRopeConfig: the config is not valid JSON/,
    );
    assert.throws(() => parseRopeConfig('   '), /the config is empty/);
  });

  it('hostile input: huge numbers, 10 MB of JSON, prototype keys', () => {
    assert.throws(
      () => parseRopeConfig({ ...llama, hidden_size: 1e300 }),
      /RangeError: parseRopeConfig: hidden_size must be at least 1 and at most/,
    );
    assert.throws(
      () => parseRopeConfig('{"hidden_size": 1e999, "num_attention_heads": 32, "max_position_embeddings": 4096}'),
      /hidden_size must be a finite number, got Infinity/,
    );
    assert.throws(
      () => parseRopeConfig({ ...llama, max_position_embeddings: 2 ** 40 }),
      /max_position_embeddings must be at least 1 and at most 16777216/,
    );
    assert.throws(() => parseRopeConfig({ ...llama, rope_theta: -5 }), /rope_theta must be greater than 1/);
    assert.throws(
      () => parseRopeConfig({ ...llama, rope_scaling: { rope_type: 'linear', factor: 1e9 } }),
      /rope_scaling.factor must be at least 1 and at most 65536/,
    );
    assert.throws(
      () =>
        parseRopeConfig({
          ...llama,
          rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096.5 },
        }),
      /original_max_position_embeddings must be a whole number/,
    );
    const big = `{"pad": "${'x'.repeat(10 * 1024 * 1024)}"}`;
    // refused before parsing: JSON.parse is never called on it
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (...args) => (parsed++, parse(...args));
    try {
      assert.throws(
        () => parseRopeConfig(big),
        new RegExp(
          `the config is 10,485,771 characters long; a config.json of at most ${MAX_CONFIG_CHARS.toLocaleString('en-US')} is read`,
        ),
      );
    } finally {
      JSON.parse = parse;
    }
    assert.equal(parsed, 0, 'refused before parsing');
    const proto = parseRopeConfig(
      `{"__proto__": {"rope_theta": 1}, "constructor": 5, ${JSON.stringify(llama).slice(1)}`,
    );
    assert.equal(proto.base, 10000);
    assert.equal({}.rope_theta, undefined);
    const inherited = Object.create({ max_position_embeddings: 4096, hidden_size: 4096, num_attention_heads: 32 });
    assert.throws(() => parseRopeConfig(inherited), /head dimension is missing/);
    const list = {
      ...llama,
      rope_scaling: { type: 'longrope', short_factor: Array(64).fill(1), long_factor: [...Array(63).fill(1), '2'] },
    };
    assert.throws(() => parseRopeConfig(list), /rope_scaling.long_factor\[63\] must be a number, got the string "2"/);
  });
});
