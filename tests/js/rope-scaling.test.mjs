// RoPE scaling's one schema: the types and the fields each takes are the
// core's (rope_scaling_fields in cpp/core/rope_scaling.cpp, reported by
// buildInfo().scalingTypes), and web/core/rope-scaling.js checks options
// against them. Here the report agrees with the RopeScaling value object the
// options cross as, and the API takes exactly the fields the report lists.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate } from '../../web/core/load.js';
import { loadPosenc } from '../../web/posenc.js';
import { FIELD_KINDS } from '../../web/core/rope-scaling.js';

// a value of each kind that passes the API's checks
const SAMPLE = { number: 2, integer: 64, boolean: false, floats: [1, 1] };

for (const variant of ['simd', 'scalar']) {
  describe(`${variant} build`, () => {
    let info, core, pe;
    before(async () => {
      core = await instantiate(variant);
      info = core.buildInfo();
      pe = await loadPosenc({ simd: variant === 'simd' });
    });

    it("the types are the core's table of scaling types but none (null is none)", () => {
      // the RopeScaling value object takes a type by name: 'none' (the
      // default) and each listed type, and refuses any other naming them all
      assert.equal(info.defaults.scaling.type, 'none');
      const table = ['none', ...Object.keys(info.scalingTypes)];
      const factor = (type) => core.ropeAttentionFactor({ ...info.defaults.scaling, type, factor: 2 });
      for (const type of table)
        assert.ok(!(factor(type) instanceof Error) || !/must be one of/.test(factor(type).message), type);
      const refused = factor('ntk');
      assert.ok(refused instanceof TypeError, String(refused));
      assert.equal(refused.message, `scaling.type must be one of ${table.map((t) => `'${t}'`).join(', ')}`);
      assert.deepEqual(refused.names, ['scaling.type']);
    });

    it('each field is a RopeScaling field, of a kind the API checks; required and defaulted split the fields', () => {
      const all = info.defaults.scaling;
      const read = new Set();
      for (const [type, t] of Object.entries(info.scalingTypes)) {
        assert.ok(t.fields.length > 0, type);
        assert.equal(new Set(t.fields).size, t.fields.length, type);
        for (const f of t.fields) {
          read.add(f);
          assert.ok(Object.hasOwn(all, f) && f !== 'type', `${type}.${f} is not a RopeScaling field`);
          assert.ok(FIELD_KINDS.includes(t.kinds[f]), `${type}.${f}: kind ${t.kinds[f]}`);
        }
        assert.deepEqual(Object.keys(t.kinds), t.fields, type);
        assert.deepEqual([...t.required, ...Object.keys(t.defaults)].sort(), [...t.fields].sort(), type);
        for (const [f, v] of Object.entries(t.defaults)) {
          // RopeScaling{}'s value, but longrope's factor: NaN, HF's maxPositions / originalMaxPositions
          assert.deepEqual(v, type === 'longrope' && f === 'factor' ? NaN : all[f], `${type}.${f}`);
        }
      }
      // and no RopeScaling field is read by no type
      assert.deepEqual(
        Object.keys(all).filter((f) => f !== 'type' && !read.has(f)),
        [],
      );
    });

    it('the API takes exactly the listed fields and needs exactly the required ones', () => {
      for (const [type, t] of Object.entries(info.scalingTypes)) {
        const given = { type };
        for (const f of t.required) given[f] = SAMPLE[t.kinds[f]];
        if (type === 'longrope') given.maxPositions = 128; // or factor: one of them (rope-scaling.js)
        assert.ok(Number.isFinite(pe.ropeAttentionFactor(given)), type);
        for (const f of t.required) {
          const { [f]: _, ...missing } = given;
          assert.throws(() => pe.ropeAttentionFactor(missing), {
            name: 'TypeError',
            message: `ropeAttentionFactor: scaling '${type}' needs ${f}`,
          });
        }
        for (const f of Object.keys(info.defaults.scaling)) {
          if (f === 'type' || t.fields.includes(f)) continue;
          assert.throws(
            () => pe.ropeAttentionFactor({ ...given, [f]: 1 }),
            {
              name: 'TypeError',
              message: new RegExp(`unknown option '${f}' \\(known: type, ${t.fields.join(', ')}\\)`),
            },
            `${type} takes ${f}`,
          );
        }
      }
      assert.throws(() => pe.ropeAttentionFactor({ type: 'none' }), {
        name: 'TypeError',
        message: `ropeAttentionFactor: unknown RoPE scaling type: scaling.type must be one of ${Object.keys(
          info.scalingTypes,
        )
          .map((n) => `'${n}'`)
          .join(', ')}, got the string "none"`,
      });
    });
  });
}
