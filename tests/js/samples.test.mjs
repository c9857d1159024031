// Every live output of the lesson prints exactly what PyTorch prints for the
// same code: each sample runner (web/samples/<id>.js), computing with the
// wasm core, against tests/fixtures/samples.json, recorded from Debian's
// python3-torch by tests/fixtures/make_samples.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPosenc } from '../../web/posenc.js';
import { collectSamples } from '../../scripts/lesson-samples.mjs';

const golden = JSON.parse(readFileSync(new URL('../fixtures/samples.json', import.meta.url), 'utf8'));
const samples = await collectSamples();

test('the lesson has live samples, and each one has PyTorch output on record', () => {
  assert.ok(samples.length >= 5, `only ${samples.length} samples`);
  for (const s of samples) assert.ok(golden[s.id]?.length, `no recorded PyTorch output for sample ${s.id}: run npm run fixtures`);
});

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  for (const s of samples) {
    test(`sample ${s.id} prints what PyTorch prints (${build} build)`, async () => {
      const pe = await loadPosenc({ simd });
      const runner = (await import(`../../web/samples/${s.id}.js`)).default;
      const recorded = golden[s.id] ?? [];
      assert.equal(recorded.length, s.cases.length, `${s.id}: ${s.cases.length} parameter sets now, ${recorded.length} on record: run npm run fixtures`);
      s.cases.forEach((c, i) => {
        assert.equal(recorded[i].source, c.source, `${s.id}: the code changed since PyTorch's output was recorded: run npm run fixtures`);
        assert.equal(runner.run(pe, { ...c.values }), recorded[i].stdout, `${s.id} with ${JSON.stringify(c.values)}`);
      });
    });
  }
}
