// The short run of the JS API fuzzer (tests/fuzz/api-fuzz.mjs) in both wasm
// builds, and the memory bound it must keep. `npm run fuzz` runs it longer.
//
// The bound (also in docs/api.md, "Limits"): a fuzz run leaves the allocator
// holding no more than it did before, plus what the grow-only scratch area
// grew by, plus 64 KiB for the attention workspace's reused buffers (256 KiB
// in the trainer build, whose matrix kernels keep a packing buffer); the
// wasm heap does not grow at all (the run's valid calls are small); no JS
// handle stays held by C++; and repeating the identical run allocates
// nothing more (byte for byte), so nothing leaks per call.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../../web/posenc.js';
import { fuzzApi } from '../fuzz/api-fuzz.mjs';

const CALLS = 6000;

const builds = [
  { name: 'SIMD', simd: true, trainer: false, slack: 64 * 1024 },
  { name: 'scalar', simd: false, trainer: false, slack: 64 * 1024 },
  { name: 'trainer (SIMD)', simd: true, trainer: true, slack: 256 * 1024 },
];

for (const { name, simd, trainer, slack: WORKSPACE_SLACK } of builds) {
  describe(`API fuzz, ${name} build`, () => {
    let pe;
    let other;
    before(async () => {
      pe = await loadPosenc({ simd, trainer });
      other = await loadPosenc({ simd: !simd });
    });

    it(`${CALLS} hostile and valid calls: clear errors, right shapes, known answers after every error, bounded memory`, () => {
      const start = pe.memoryStats();
      const first = fuzzApi(pe, { calls: CALLS, seed: 7, other });
      const afterFirst = pe.memoryStats();
      assert.equal(first.calls, CALLS);
      // The mix is meaningful: plenty of both outcomes, from every function.
      assert.ok(first.returned > CALLS * 0.3 && first.threw > CALLS * 0.3, JSON.stringify(first));
      for (const [fn, s] of Object.entries(first.byFunction))
        assert.ok(s.calls > 100 && s.threw > 0 && s.threw < s.calls, `${fn}: ${JSON.stringify(s)}`);
      assert.ok(first.errorKinds.TypeError > 0 && first.errorKinds.RangeError > 0);
      assert.equal(first.canaryChecks, first.threw);

      const grewScratch = afterFirst.scratchBytes - start.scratchBytes;
      assert.ok(
        afterFirst.allocatedBytes - start.allocatedBytes <= grewScratch + WORKSPACE_SLACK,
        `allocated ${start.allocatedBytes} -> ${afterFirst.allocatedBytes} bytes; scratch grew ${grewScratch}`,
      );
      assert.equal(afterFirst.wasmBytes, start.wasmBytes, 'the wasm heap grew');
      assert.equal(afterFirst.jsHandles, 0, 'C++ still holds JS handles');

      const second = fuzzApi(pe, { calls: CALLS, seed: 7, other });
      const afterSecond = pe.memoryStats();
      assert.deepEqual(second, first, 'the same seed makes the same run');
      assert.equal(
        afterSecond.allocatedBytes,
        afterFirst.allocatedBytes,
        'an identical second run allocated more: a leak',
      );
      assert.equal(afterSecond.wasmBytes, afterFirst.wasmBytes);
      assert.equal(afterSecond.jsHandles, 0);
    });

    it('a different seed finds no broken contract either', () => {
      const s = fuzzApi(pe, { calls: CALLS, seed: 1234, other });
      assert.equal(s.calls, CALLS);
    });
  });
}
