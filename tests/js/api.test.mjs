// The JS API (web/posenc.js) in both wasm builds: results against the
// PyTorch fixtures, shapes, errors, and that the module keeps working after
// any error.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, simdSupported } from '../../web/posenc.js';
import { allCases, maxAbsDiff } from './fixture.mjs';

const TABLE_TOL = 1e-6;
const ATTENTION_TOL = 1e-5;

function cases(op) {
  const list = allCases(op);
  assert.ok(list.length > 0, `no fixtures for op ${op}`);
  return list;
}

const num = (c, k) => Number(c.params[k]);
const flag = (c, k) => c.params[k] === '1';

// Fixture params (snake_case) -> the JS API's scaling object.
function scalingOf(c) {
  const type = c.params.scaling;
  if (!type || type === 'none') return null;
  const s = { type, factor: num(c, 'factor') };
  if (type === 'dynamic') Object.assign(s, { maxPositions: num(c, 'max_positions'), seqLen: num(c, 'seq_len') });
  if (type === 'yarn') {
    Object.assign(s, {
      originalMaxPositions: num(c, 'original_max_positions'),
      betaFast: num(c, 'beta_fast'),
      betaSlow: num(c, 'beta_slow'),
    });
  }
  if (type === 'llama3') {
    Object.assign(s, {
      originalMaxPositions: num(c, 'original_max_positions'),
      lowFreqFactor: num(c, 'low_freq_factor'),
      highFreqFactor: num(c, 'high_freq_factor'),
    });
  }
  return s;
}

function assertClose(actual, expected, tol, what) {
  const diff = maxAbsDiff(actual, expected);
  assert.ok(diff <= tol, `${what}: max |diff| ${diff} > ${tol}`);
  return diff;
}

describe('loading', () => {
  it('detects WebAssembly SIMD in Node 20', () => assert.equal(simdSupported(), true));

  it('creates each build once and shares it', async () => {
    const a = await loadPosenc();
    const b = await loadPosenc({ simd: true });
    assert.equal(a, b);
    assert.equal(a.simd, true);
    const s = await loadPosenc({ simd: false });
    assert.equal(s.simd, false);
    assert.notEqual(s, a);
  });

  it('rejects a bad simd option', async () => {
    await assert.rejects(loadPosenc({ simd: 'yes' }), { name: 'TypeError', message: /simd must be true, false/ });
  });
});

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build`, () => {
    let pe;
    before(async () => {
      pe = await loadPosenc({ simd });
    });

    it('sinusoidal matches PyTorch: bit for bit by default, 1e-6 with fast: true; sinusoidalRows gives the same bits', () => {
      for (const c of cases('sinusoidal')) {
        const maxLen = num(c, 'max_len');
        const d = num(c, 'd_model');
        const base = num(c, 'base');
        const rows = c.tensors.rows.values;
        for (const fast of [false, true]) {
          const table = pe.sinusoidal(maxLen, d, { base, fast });
          assert.equal(table.length, maxLen * d);
          const got = new Float32Array(rows.length * d);
          rows.forEach((r, i) => got.set(table.subarray(r * d, (r + 1) * d), i * d));
          if (fast) assertClose(got, c.tensors.out.values, TABLE_TOL, c.file);
          else assert.deepEqual(Array.from(got), c.tensors.out.values, c.file);
        }
        // each recorded row alone, and the last two together
        rows.forEach((r, i) => {
          assert.deepEqual(
            Array.from(pe.sinusoidalRows(maxLen, d, r, 1, { base })),
            c.tensors.out.values.slice(i * d, (i + 1) * d),
            `${c.file} row ${r}`,
          );
        });
        const two = pe.sinusoidalRows(maxLen, d, maxLen - 2, 2, { base });
        assert.deepEqual(Array.from(two), c.tensors.out.values.slice(-2 * d), `${c.file} last two rows`);
      }
    });

    it('fast must be a boolean; sinusoidalRows checks its range', () => {
      assert.throws(() => pe.sinusoidal(4, 4, { fast: 1 }), {
        name: 'TypeError',
        message: /fast must be true or false/,
      });
      assert.throws(() => pe.ropeApply([1, 2], 1, 2, { fast: 'yes' }), {
        name: 'TypeError',
        message: /fast must be true or false/,
      });
      assert.throws(() => pe.sinusoidalRows(10, 4, 10, 1), {
        name: 'RangeError',
        message: /firstRow must be between 0 and 9, got 10/,
      });
      assert.throws(() => pe.sinusoidalRows(10, 4, 8, 3), {
        name: 'RangeError',
        message: /count must be between 1 and 2, got 3/,
      });
      assert.deepEqual(Array.from(pe.sinusoidalRows(3, 4, 0, 1)), [0, 1, 0, 1]);
    });

    it('sinusoidal frequencies match PyTorch bit for bit', () => {
      for (const c of cases('sinusoidal_div')) {
        const got = pe.sinusoidalFrequencies(num(c, 'd_model'), { base: num(c, 'base') });
        assert.deepEqual(Array.from(got), c.tensors.out.values, c.file);
      }
    });

    it('learned lookup matches nn.Embedding', () => {
      for (const c of cases('learned')) {
        const got = pe.learnedLookup(
          c.tensors.table.values,
          num(c, 'rows'),
          num(c, 'd_model'),
          c.tensors.positions.values,
        );
        assert.deepEqual(Array.from(got), c.tensors.out.values, c.file);
      }
    });

    it("learned lookup past the table raises PyTorch's IndexError text", () => {
      for (const c of cases('learned_error')) {
        const rows = num(c, 'rows');
        const d = num(c, 'd_model');
        const expected = c.params.message.replaceAll('_', ' ');
        assert.throws(
          () => pe.learnedLookup(new Float32Array(rows * d), rows, d, [num(c, 'position')]),
          (e) => {
            assert.equal(e.name, 'RangeError');
            assert.ok(e.message.includes(expected), `${e.message} should include ${expected}`);
            return true;
          },
        );
      }
      // The lesson's example: 600 positions into a 512-row table.
      const positions = Array.from({ length: 600 }, (_, i) => i);
      assert.throws(
        () => pe.learnedLookup(new Float32Array(512 * 4), 512, 4, positions),
        /index out of range in self.*512/,
      );
    });

    it('boxDownsample: each pixel the mean of its cells, from a plain array or in place from the heap', () => {
      // a 6 x 5 table on 4 x 3 pixels: pixel rows cover table rows [0,1) [1,3) [3,4) [4,6), columns [0,1) [1,3) [3,5)
      const table = Float32Array.from({ length: 30 }, (_, i) => i);
      const rowsOf = [[0], [1, 2], [3], [4, 5]];
      const colsOf = [[0], [1, 2], [3, 4]];
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const want = rowsOf.flatMap((rs) =>
        colsOf.map((cs) => mean(rs.map((r) => mean(cs.map((c) => table[r * 5 + c]))))),
      );
      assert.deepEqual(Array.from(pe.boxDownsample(table, 6, 5, 4, 3)), want);
      const heap = pe.allocate(30).set(table);
      const out = pe.allocate(12);
      assert.equal(pe.boxDownsample(heap, 6, 5, 4, 3, { out }), out);
      assert.deepEqual(Array.from(out.array), want);
      heap.free();
      out.free();
      // more pixels than cells: nearest
      assert.deepEqual(Array.from(pe.boxDownsample([1, 2], 1, 2, 1, 4)), [1, 1, 2, 2]);
      assert.throws(() => pe.boxDownsample(table, 6, 5, 4, 0), /boxDownsample: outCols must be/);
      assert.throws(() => pe.boxDownsample(table, 6, 4, 4, 3), /table must hold rows \* cols = 24 values, got 30/);
      assert.throws(
        () => pe.boxDownsample(table, 6, 5, 1 << 13, 1 << 12),
        /downsampled picture would hold 33554432 values, more than the cap/,
      );
    });

    it("sinusoidalPicture: the table's box means without the table", () => {
      // one position per pixel row: boxDownsample of the table, within vecmath's 1.5e-7
      const table = pe.sinusoidal(64, 16);
      const want = pe.boxDownsample(table, 64, 16, 128, 5);
      const got = pe.sinusoidalPicture(64, 16, 128, 5);
      assert.equal(got.length, 128 * 5);
      assert.ok(
        got.every((v, i) => Math.abs(v - want[i]) <= 2.5e-7),
        "one position per row: the table's pixels",
      );
      // 1000 positions on one row, pair 0 (θ = 1): the mean of sin p over 0..999, in closed form
      const [s0, c0] = pe.sinusoidalPicture(1000, 2, 1, 2);
      let s = 0;
      let c = 0;
      for (let p = 0; p < 1000; p++) {
        s += Math.sin(p);
        c += Math.cos(p);
      }
      assert.ok(
        Math.abs(s0 - s / 1000) < 1e-5 && Math.abs(c0 - c / 1000) < 1e-5,
        `${s0} ${c0} vs ${s / 1000} ${c / 1000}`,
      );
      // in place into the heap, and the argument checks
      const out = pe.allocate(6);
      assert.equal(pe.sinusoidalPicture(1 << 24, 4, 3, 2, { out, base: 500 }), out);
      assert.ok(Array.from(out.array).every((v) => Math.abs(v) <= 1));
      out.free();
      assert.throws(() => pe.sinusoidalPicture(8, 5, 2, 2), {
        name: 'RangeError',
        message: /sinusoidalPicture: dModel must be even/,
      });
      assert.throws(() => pe.sinusoidalPicture(8, 4, 0, 2), {
        name: 'RangeError',
        message: /sinusoidalPicture: outRows must be/,
      });
      assert.throws(() => pe.sinusoidalPicture(8, 4, 2, 2, { base: -1 }), { name: 'RangeError', message: /base/ });
      assert.throws(
        () => pe.sinusoidalPicture(8, 4, 1 << 13, 1 << 12),
        /sinusoidal picture would hold 33554432 values, more than the cap/,
      );
    });

    it('RoPE inverse frequencies match HF for every scaling type, bit for bit', () => {
      for (const c of cases('rope_inv_freq')) {
        const scaling = scalingOf(c);
        const got = pe.ropeInvFreq(num(c, 'dim'), { base: num(c, 'base'), scaling });
        assert.deepEqual(Array.from(got), c.tensors.out.values, c.file);
        if (scaling) assert.ok(Math.abs(pe.ropeAttentionFactor(scaling) - num(c, 'attention_factor')) <= 1e-7, c.file);
      }
    });

    it('RoPE application matches HF in both conventions: bit for bit by default, 1e-6 with fast: true', () => {
      for (const c of cases('rope_apply')) {
        const rows = num(c, 'rows');
        const dim = num(c, 'dim');
        const got = pe.ropeApply(c.tensors.x.values, rows, dim, {
          positions: c.tensors.positions.values,
          base: num(c, 'base'),
          convention: c.params.convention,
          rotaryDim: num(c, 'rotary_dim'),
          scaling: scalingOf(c),
        });
        assert.deepEqual(Array.from(got), c.tensors.out.values, c.file); // the exact path: torch's bits
        const fast = pe.ropeApply(c.tensors.x.values, rows, dim, {
          positions: c.tensors.positions.values,
          base: num(c, 'base'),
          convention: c.params.convention,
          rotaryDim: num(c, 'rotary_dim'),
          scaling: scalingOf(c),
          fast: true,
        });
        assertClose(fast, c.tensors.out.values, TABLE_TOL, c.file);
      }
    });

    it('ALiBi slopes and biases match the reference', () => {
      for (const c of cases('alibi_slopes')) {
        assert.deepEqual(Array.from(pe.alibiSlopes(num(c, 'heads'))), c.tensors.out.values, c.file);
      }
      for (const c of cases('alibi_bias')) {
        const got = pe.alibiBias(num(c, 'heads'), num(c, 'seq_len'), { causal: flag(c, 'causal') });
        assertClose(got, c.tensors.out.values, TABLE_TOL, c.file);
      }
    });

    it('T5 buckets match HF exactly', () => {
      for (const c of cases('t5_buckets')) {
        const got = pe.t5Buckets(num(c, 'query_len'), num(c, 'key_len'), {
          bidirectional: flag(c, 'bidirectional'),
          numBuckets: num(c, 'num_buckets'),
          maxDistance: num(c, 'max_distance'),
        });
        assert.ok(got instanceof Int32Array);
        assert.deepEqual(Array.from(got), c.tensors.out.values, c.file);
      }
    });

    it('softmax matches torch.softmax (1e-5)', () => {
      for (const c of cases('softmax')) {
        const got = pe.softmax(c.tensors.x.values, num(c, 'rows'), num(c, 'n'));
        assertClose(got, c.tensors.out.values, ATTENTION_TOL, c.file);
      }
    });

    it('attention matches PyTorch (1e-5)', () => {
      for (const c of cases('attention')) {
        const heads = num(c, 'heads');
        const seqLen = num(c, 'seq');
        const headDim = num(c, 'head_dim');
        const opts = { heads, seqLen, headDim, causal: flag(c, 'causal') };
        if (c.params.scale !== 'default') opts.scale = num(c, 'scale');
        if (flag(c, 'has_bias')) opts.bias = c.tensors.bias.values;
        const { output, weights } = pe.attention(c.tensors.q.values, c.tensors.k.values, c.tensors.v.values, opts);
        assert.equal(output.length, heads * seqLen * headDim);
        assert.equal(weights.length, heads * seqLen * seqLen);
        assertClose(output, c.tensors.out.values, ATTENTION_TOL, `${c.file} output`);
        assertClose(weights, c.tensors.weights.values, ATTENTION_TOL, `${c.file} weights`);
      }
    });

    it("reproduces the lesson's seat exercise: RoPE scores depend only on the offset", () => {
      // q = [1.0, 0.5], k = [0.8, 0.2], theta = 0.5 (linear scaling factor 2 on dim 2 gives inv freq 0.5).
      const scaling = { type: 'linear', factor: 2 };
      assert.deepEqual(Array.from(pe.ropeInvFreq(2, { scaling })), [0.5]);
      const score = (m, n) => {
        const q = pe.ropeApply([1.0, 0.5], 1, 2, { positions: [m], scaling });
        const k = pe.ropeApply([0.8, 0.2], 1, 2, { positions: [n], scaling });
        return q[0] * k[0] + q[1] * k[1];
      };
      assert.equal(score(1, 3).toFixed(5), '0.65457');
      assert.equal(score(101, 103).toFixed(5), '0.65457');
    });

    it('returns the documented shapes and types', () => {
      assert.equal(pe.sinusoidal(3, 4).length, 12);
      assert.ok(pe.sinusoidal(3, 4) instanceof Float32Array);
      assert.deepEqual(Array.from(pe.sinusoidal(1, 4)), [0, 1, 0, 1]);
      assert.equal(pe.ropeInvFreq(64).length, 32);
      assert.equal(pe.ropeApply(new Float32Array(5 * 8), 5, 8).length, 40);
      assert.equal(pe.alibiBias(2, 3).length, 18);
      assert.equal(pe.alibiBias(1, 2)[1], -Infinity);
      assert.equal(pe.t5Buckets(2, 3).length, 6);
      // Plain arrays and Float64Arrays are accepted wherever a Float32Array is.
      const a = pe.softmax([1, 2, 3], 1, 3);
      const b = pe.softmax(new Float64Array([1, 2, 3]), 1, 3);
      assert.deepEqual(a, b);
      // Inputs are never modified.
      const x = new Float32Array([1, 2, 3, 4]);
      pe.ropeApply(x, 1, 4, { positions: [7] });
      assert.deepEqual(Array.from(x), [1, 2, 3, 4]);
    });

    it('fused ALiBi and T5 biases equal the materialised ones', () => {
      const heads = 3;
      const seqLen = 9;
      const headDim = 4;
      const n = heads * seqLen * headDim;
      const q = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.7));
      const k = Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.3));
      const v = Float32Array.from({ length: n }, (_, i) => (i % 5) - 2);
      const base = { heads, seqLen, headDim };
      for (const causal of [true, false]) {
        const fused = pe.attention(q, k, v, { ...base, causal, alibi: true });
        const bias = pe.alibiBias(heads, seqLen, { causal });
        const materialised = pe.attention(q, k, v, { ...base, causal, bias });
        assertClose(fused.output, materialised.output, 1e-6, `alibi causal=${causal}`);
        assertClose(fused.weights, materialised.weights, 1e-6, `alibi weights causal=${causal}`);
      }
      const numBuckets = 8;
      const table = Float32Array.from({ length: numBuckets * heads }, (_, i) => Math.sin(i) * 2);
      const buckets = pe.t5Buckets(seqLen, seqLen, { numBuckets, maxDistance: 20 });
      const t5Bias = new Float32Array(heads * seqLen * seqLen);
      for (let h = 0; h < heads; h++) {
        for (let ij = 0; ij < seqLen * seqLen; ij++) t5Bias[h * seqLen * seqLen + ij] = table[buckets[ij] * heads + h];
      }
      const fused = pe.attention(q, k, v, { ...base, scale: 1, t5: { table, numBuckets, maxDistance: 20 } });
      const materialised = pe.attention(q, k, v, { ...base, scale: 1, bias: t5Bias });
      assertClose(fused.output, materialised.output, 1e-6, 't5');
      const lean = pe.attention(q, k, v, {
        ...base,
        scale: 1,
        t5: { table, numBuckets, maxDistance: 20 },
        returnWeights: false,
      });
      assert.equal(lean.weights, null);
      assert.deepEqual(lean.output, fused.output);
      assert.throws(
        () => pe.attention(q, k, v, { ...base, t5: { table: [1, 2], numBuckets } }),
        /t5.table must hold t5.numBuckets \* heads = 24 values, got 2/,
      );
      // scale 0: every score is 0, the weights uniform (PyTorch allows it)
      const uniform = pe.attention(q, k, v, { ...base, scale: 0 });
      assert.ok(uniform.weights.every((w) => Math.abs(w - 1 / seqLen) < 1e-7));
    });

    describe('heap arrays and out', () => {
      it('a HeapArray input and out give the same result as plain arrays, with no copy', () => {
        const rows = 7;
        const dim = 10;
        const data = Float32Array.from({ length: rows * dim }, (_, i) => Math.sin(i));
        const plain = pe.ropeApply(data, rows, dim, { positions: [0, 1, 2, 3, 4, 5, 1000] });
        const x = pe.allocate(rows * dim).set(data);
        const y = pe.allocate(rows * dim);
        const returned = pe.ropeApply(x, rows, dim, { positions: [0, 1, 2, 3, 4, 5, 1000], out: y });
        assert.equal(returned, y);
        assert.deepEqual(y.toArray(), plain);
        // in place: out may be the input for the elementwise ops
        pe.ropeApply(x, rows, dim, { positions: [0, 1, 2, 3, 4, 5, 1000], out: x });
        assert.deepEqual(x.toArray(), plain);
        x.free();
        y.free();
        x.free(); // twice is harmless
      });

      it('a subarray shares its memory: a grow-only buffer serves calls of any smaller length', () => {
        const start = pe.memoryStats();
        const buffer = pe.allocate(4 * 8);
        assert.deepEqual(
          [pe.memoryStats().heapArrays - start.heapArrays, pe.memoryStats().heapArrayBytes - start.heapArrayBytes],
          [1, 4 * 8 * 4],
        );
        const table = buffer.subarray(0, 3 * 8);
        assert.equal(table.length, 24);
        assert.equal(pe.sinusoidal(3, 8, { out: table }), table);
        assert.deepEqual(table.toArray(), pe.sinusoidal(3, 8));
        assert.deepEqual(buffer.array.subarray(0, 24), table.array); // the same memory
        // a view of a view: rows 1..2, then its second row
        const rows12 = table.subarray(8, 24);
        assert.deepEqual(rows12.subarray(8).toArray(), pe.sinusoidal(3, 8).subarray(16));
        // an input too: looked up in place, no copy of the table
        const looked = pe.learnedLookup(table, 3, 8, [2, 0]);
        assert.deepEqual(
          looked,
          Float32Array.from([...pe.sinusoidal(3, 8).subarray(16), ...pe.sinusoidal(3, 8).subarray(0, 8)]),
        );
        assert.equal(pe.memoryStats().heapArrays - start.heapArrays, 1, 'views hold no memory of their own');
        for (const [a, b] of [
          [-1, 2],
          [2, 1],
          [0, 33],
          [0.5, 2],
          ['1', 2],
        ]) {
          assert.throws(() => buffer.subarray(a, b), /HeapArray.subarray: expected 0 <= begin <= end <= 32/);
        }
        rows12.free(); // retires the view only
        assert.throws(() => rows12.array, /has been freed/);
        assert.deepEqual(table.toArray(), pe.sinusoidal(3, 8));
        buffer.free(); // and every view of it
        assert.throws(() => table.array, /has been freed/);
        assert.throws(() => pe.learnedLookup(table, 3, 8, [0]), /has been freed/);
        assert.deepEqual(
          [pe.memoryStats().heapArrays, pe.memoryStats().heapArrayBytes],
          [start.heapArrays, start.heapArrayBytes],
        );
      });

      it('attention writes into caller-owned outputs', () => {
        const heads = 2;
        const seqLen = 5;
        const headDim = 3;
        const n = heads * seqLen * headDim;
        const q = Float32Array.from({ length: n }, (_, i) => Math.cos(i));
        const fresh = pe.attention(q, q, q, { heads, seqLen, headDim, causal: true });
        const out = { output: new Float32Array(n), weights: pe.allocate(heads * seqLen * seqLen) };
        const qh = pe.allocate(n).set(q);
        const r = pe.attention(qh, qh, qh, { heads, seqLen, headDim, causal: true, out });
        assert.equal(r.output, out.output);
        assert.equal(r.weights, out.weights);
        assert.deepEqual(out.output, fresh.output);
        assert.deepEqual(out.weights.toArray(), fresh.weights);
        assert.throws(
          () => pe.attention(qh, qh, qh, { heads, seqLen, headDim, out: { output: qh } }),
          /must not be one of the inputs/,
        );
        qh.free();
        out.weights.free();
      });

      it('an out sharing bytes with an input or another out is refused, whatever object it is', () => {
        const heads = 2;
        const seqLen = 5;
        const headDim = 3;
        const n = heads * seqLen * headDim;
        const shape = { heads, seqLen, headDim, causal: true };
        const fresh = pe.attention(
          Float32Array.from({ length: n }, (_, i) => Math.cos(i)),
          Float32Array.from({ length: n }, (_, i) => Math.sin(i)),
          Float32Array.from({ length: n }, (_, i) => Math.cos(2 * i)),
          shape,
        );
        // q, k, v side by side in one buffer, with room for the output after them
        const big = new Float32Array(4 * n);
        const [q, k, v, free] = [0, 1, 2, 3].map((i) => big.subarray(i * n, (i + 1) * n));
        q.set(Float32Array.from({ length: n }, (_, i) => Math.cos(i)));
        k.set(Float32Array.from({ length: n }, (_, i) => Math.sin(i)));
        v.set(Float32Array.from({ length: n }, (_, i) => Math.cos(2 * i)));
        const shares = /out for output must not be one of the inputs or share memory with one/;
        // the same bytes as q, another object
        assert.throws(() => pe.attention(q, k, v, { ...shape, out: { output: big.subarray(0, n) } }), shares);
        assert.throws(
          () => pe.attention(q, k, v, { ...shape, out: { output: new Float32Array(q.buffer, 0, n) } }),
          /\(q\)/,
        );
        // one value of v's end, one of the free space's start
        assert.throws(
          () => pe.attention(q, k, v, { ...shape, out: { output: big.subarray(3 * n - 1, 4 * n - 1) } }),
          /\(v\)/,
        );
        // the two outs over each other
        const weights = new Float32Array(heads * seqLen * seqLen + n);
        assert.throws(
          () =>
            pe.attention(q, k, v, {
              ...shape,
              out: {
                output: weights.subarray(0, n),
                weights: weights.subarray(n - 1, n - 1 + heads * seqLen * seqLen),
              },
            }),
          /out for weights must not share memory with out for output/,
        );
        // right next to v, in the same buffer: allowed, and the same result
        const r = pe.attention(q, k, v, { ...shape, out: { output: free } });
        assert.equal(r.output, free);
        assert.deepEqual(free, fresh.output);
        // in the heap: a HeapArray, a subarray of it, and its .array view are one memory
        const qh = pe.allocate(2 * n);
        qh.set([...q, ...k]);
        const qv = qh.subarray(0, n);
        assert.throws(() => pe.attention(qv, k, v, { ...shape, out: { output: qh.subarray(0, n) } }), shares);
        assert.throws(
          () => pe.attention(qv, k, v, { ...shape, out: { output: qh.subarray(n - 1, 2 * n - 1) } }),
          shares,
        );
        assert.throws(() => pe.attention(qh.array.subarray(0, n), k, v, { ...shape, out: { output: qv } }), shares);
        const next = qh.subarray(n, 2 * n);
        pe.attention(qv, k, v, { ...shape, out: { output: next } });
        assert.deepEqual(next.toArray(), fresh.output);
        qh.free();
        // ropeApply works in place: its out may be its input
        const x = Float32Array.from({ length: 8 }, (_, i) => i + 1);
        const rotated = pe.ropeApply(x, 2, 4, { positions: [3, 4] });
        pe.ropeApply(x, 2, 4, { positions: [3, 4], out: x.subarray(0) });
        assert.deepEqual(x, rotated);
      });

      it('the scratch area is reused: many calls of changing size keep the heap bounded', () => {
        const heap = () => (simd ? 'simd' : 'scalar') && pe.allocate(1).array.buffer.byteLength;
        for (let i = 0; i < 50; i++) pe.sinusoidal(64 + (i % 7) * 100, 64);
        const before = heap();
        for (let i = 0; i < 500; i++) pe.sinusoidal(64 + (i % 7) * 100, 64);
        assert.equal(heap(), before);
      });

      it('rejects freed, foreign and mistyped heap arrays', async () => {
        const other = await loadPosenc({ simd: !simd });
        const foreign = other.allocate(4);
        assert.throws(() => pe.softmax(foreign, 1, 4), /other build/);
        foreign.free();
        const freed = pe.allocate(4);
        freed.free();
        assert.throws(() => pe.softmax(freed, 1, 4), /has been freed/);
        assert.throws(() => freed.array, /has been freed/);
        const ints = pe.allocate(4, 'i32');
        assert.throws(() => pe.softmax(ints, 1, 4), /HeapArray of type 'i32'/);
        assert.equal(pe.t5Buckets(2, 2, { out: ints }), ints);
        assert.deepEqual(Array.from(ints.array), [0, 17, 1, 0]);
        ints.free();
        assert.throws(() => pe.allocate(-1), RangeError);
        assert.throws(() => pe.allocate(4, 'f64'), TypeError);
        assert.throws(
          () => pe.sinusoidal(2, 4, { out: new Float32Array(7) }),
          /out must hold maxLen \* dModel = 8 values, got 7/,
        );
        assert.throws(
          () => pe.sinusoidal(2, 4, { out: new Float64Array(8) }),
          /out must be a Float32Array or a HeapArray/,
        );
      });
    });

    describe('errors', () => {
      const bad = [
        ['odd dModel', () => pe.sinusoidal(10, 5), RangeError, /even/],
        ['negative maxLen', () => pe.sinusoidal(-1, 4), RangeError, /maxLen/],
        ['non-integer maxLen', () => pe.sinusoidal(2.5, 4), RangeError, /maxLen must be an integer, got 2.5/],
        ['NaN dModel', () => pe.sinusoidal(4, NaN), RangeError, /dModel must be a finite number/],
        ['string size', () => pe.sinusoidal('8', 4), TypeError, /maxLen must be a number, got the string "8"/],
        ['huge table', () => pe.sinusoidal(1e7, 512), RangeError, /cap|between/],
        ['zero base', () => pe.sinusoidal(4, 4, { base: 0 }), RangeError, /base/],
        ['unknown option', () => pe.sinusoidal(4, 4, { bse: 3 }), TypeError, /unknown option 'bse'/],
        [
          'table of wrong length',
          () => pe.learnedLookup(new Float32Array(7), 2, 4, [0]),
          RangeError,
          /table must hold rows \* dModel = 8 values, got 7/,
        ],
        [
          'position past the table',
          () => pe.learnedLookup(new Float32Array(8), 2, 4, [2]),
          RangeError,
          /index out of range in self/,
        ],
        [
          'negative position',
          () => pe.learnedLookup(new Float32Array(8), 2, 4, [-1]),
          RangeError,
          /index out of range in self/,
        ],
        ['non-integer position', () => pe.learnedLookup(new Float32Array(8), 2, 4, [0.5]), RangeError, /position/],
        ['table not an array', () => pe.learnedLookup('abc', 2, 4, [0]), TypeError, /table must be a Float32Array/],
        [
          'unknown convention',
          () => pe.ropeApply(new Float32Array(4), 1, 4, { convention: 'neox' }),
          TypeError,
          /unknown convention: convention must be one of 'half', 'interleaved', got the string "neox"/,
        ],
        ['odd rope dim', () => pe.ropeInvFreq(5), RangeError, /even/],
        ['rotaryDim above dim', () => pe.ropeApply(new Float32Array(4), 1, 4, { rotaryDim: 6 }), RangeError, /rotary/],
        [
          'unknown scaling',
          () => pe.ropeInvFreq(8, { scaling: { type: 'ntk', factor: 2 } }),
          TypeError,
          /unknown RoPE scaling type/,
        ],
        [
          'scaling missing a field',
          () => pe.ropeInvFreq(8, { scaling: { type: 'yarn', factor: 2 } }),
          TypeError,
          /needs originalMaxPositions/,
        ],
        [
          'negative scaling factor',
          () => pe.ropeInvFreq(8, { scaling: { type: 'linear', factor: -2 } }),
          RangeError,
          /factor/,
        ],
        [
          'positions of wrong length',
          () => pe.ropeApply(new Float32Array(8), 2, 4, { positions: [0] }),
          RangeError,
          /positions must hold rows = 2 values, got 1/,
        ],
        [
          'NaN position',
          () => pe.ropeApply(new Float32Array(4), 1, 4, { positions: [NaN] }),
          RangeError,
          /positions\[0\]/,
        ],
        ['zero heads', () => pe.alibiSlopes(0), RangeError, /heads/],
        ['causal not boolean', () => pe.alibiBias(2, 3, { causal: 'yes' }), TypeError, /causal must be true or false/],
        ['too many buckets', () => pe.t5Buckets(4, 4, { numBuckets: 1e6 }), RangeError, /bucket/i],
        [
          'attention q of wrong length',
          () => pe.attention([1, 2], [1], [1], { heads: 1, seqLen: 1, headDim: 1 }),
          RangeError,
          /q must hold/,
        ],
        ['attention without sizes', () => pe.attention([1], [1], [1], {}), TypeError, /heads must be a number/],
        [
          'attention bias of wrong length',
          () => pe.attention([1], [1], [1], { heads: 1, seqLen: 1, headDim: 1, bias: [0, 0] }),
          RangeError,
          /bias must hold/,
        ],
        [
          'input over the cap',
          () => pe.learnedLookup(new Float32Array(2 ** 24 + 2), 2 ** 23 + 1, 2, [0]),
          RangeError,
          /table has 16777218 values, more than the cap of 16777216/,
        ],
        [
          'attention too long',
          () => pe.attention([], [], [], { heads: 1, seqLen: 100000, headDim: 1 }),
          RangeError,
          /seqLen|q must hold/,
        ],
      ];
      it("the core's errors carry its argument names, the values and the message without the function's name", () => {
        // the core names arguments as the C++ does; posenc.js respells exactly error.names
        const odd = (() => {
          try {
            pe.sinusoidal(10, 5);
          } catch (e) {
            return e;
          }
        })();
        assert.ok(odd instanceof RangeError);
        assert.deepEqual([...odd.names], ['d_model']);
        assert.deepEqual([...odd.values], [5]);
        assert.match(odd.message, /^sinusoidal: dModel must be even/);
        assert.equal(odd.message, `sinusoidal: ${odd.detail}`);
        const beta = (() => {
          try {
            pe.ropeInvFreq(8, {
              scaling: { type: 'yarn', factor: 4, originalMaxPositions: 2048, betaFast: 1, betaSlow: 32 },
            });
          } catch (e) {
            return e;
          }
        })();
        assert.ok(beta.names.includes('scaling.beta_slow'));
        assert.match(
          beta.message,
          /scaling\.betaSlow must be less than scaling\.betaFast, got betaSlow 32 and betaFast 1/,
        );
        assert.deepEqual([...beta.values], [32, 1]);
        assert.equal(beta.kind, 'RangeError');
        // nn.Embedding's IndexError arrives as a RangeError that says what it was
        const past = (() => {
          try {
            pe.learnedLookup(new Float32Array(8), 2, 4, [0, 1, 2]);
          } catch (e) {
            return e;
          }
        })();
        assert.ok(past instanceof RangeError);
        assert.equal(past.kind, 'IndexError');
        assert.deepEqual([...past.values], [2, 2]);
      });
      for (const [name, call, type, pattern] of bad) {
        it(`${name}: throws ${type.name} and the module keeps working`, () => {
          assert.throws(call, (e) => {
            assert.ok(e instanceof type, `expected ${type.name}, got ${e.name}: ${e.message}`);
            assert.match(e.message, pattern);
            return true;
          });
          assert.deepEqual(Array.from(pe.sinusoidal(1, 4)), [0, 1, 0, 1]);
          assert.equal(pe.alibiSlopes(1)[0], 2 ** -8);
        });
      }
    });
  });
}
