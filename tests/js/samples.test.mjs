// Every live output of the lesson prints exactly what PyTorch prints for the
// same code: each sample runner (web/samples/<id>.js), computing with the
// wasm core, against tests/fixtures/samples.json, recorded from Debian's
// python3-torch by tests/fixtures/make_samples.py; the RoPE samples also at
// a few hundred seeded random settings each (samples_random.json), where a
// sin or cos one ULP off shows in the last printed digit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPosenc } from '../../web/posenc.js';
import { collectSamples } from '../../scripts/lesson/lesson-samples.mjs';

const golden = JSON.parse(readFileSync(new URL('../fixtures/samples.json', import.meta.url), 'utf8'));
const goldenRandom = JSON.parse(readFileSync(new URL('../fixtures/samples_random.json', import.meta.url), 'utf8'));
const samples = await collectSamples();

test('the lesson has live samples, and each one has PyTorch output on record', () => {
  assert.ok(samples.length >= 5, `only ${samples.length} samples`);
  for (const s of samples)
    assert.ok(golden[s.id]?.length, `no recorded PyTorch output for sample ${s.id}: run npm run fixtures`);
});

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  for (const s of samples) {
    test(`sample ${s.id} prints what PyTorch prints (${build} build)`, async () => {
      const pe = await loadPosenc({ simd });
      const runner = (await import(`../../web/samples/${s.id}.js`)).default;
      const recorded = golden[s.id] ?? [];
      assert.equal(
        recorded.length,
        s.cases.length,
        `${s.id}: ${s.cases.length} parameter sets now, ${recorded.length} on record: run npm run fixtures`,
      );
      s.cases.forEach((c, i) => {
        assert.equal(
          recorded[i].source,
          c.source,
          `${s.id}: the code changed since PyTorch's output was recorded: run npm run fixtures`,
        );
        assert.equal(runner.run(pe, { ...c.values }), recorded[i].stdout, `${s.id} with ${JSON.stringify(c.values)}`);
      });
    });
  }
}

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  for (const s of samples.filter((x) => x.random)) {
    test(`sample ${s.id} prints what PyTorch prints at ${s.random.length} random settings (${build} build)`, async () => {
      const pe = await loadPosenc({ simd });
      const runner = (await import(`../../web/samples/${s.id}.js`)).default;
      const recorded = goldenRandom[s.id];
      assert.ok(recorded, `no recorded random settings for ${s.id}: run npm run fixtures`);
      assert.equal(
        recorded.template,
        s.template,
        `${s.id}: the code changed since PyTorch's output was recorded: run npm run fixtures`,
      );
      assert.equal(
        recorded.runs.length,
        s.random.length,
        `${s.id}: ${s.random.length} random settings now, ${recorded.runs.length} on record: run npm run fixtures`,
      );
      const wrong = [];
      s.random.forEach((c, i) => {
        assert.deepEqual(
          recorded.runs[i].values,
          c.values,
          `${s.id}: the random settings changed: run npm run fixtures`,
        );
        const got = runner.run(pe, { ...c.values });
        if (got !== recorded.runs[i].stdout)
          wrong.push(`${JSON.stringify(c.values)}\n  torch: ${recorded.runs[i].stdout}  ours:  ${got}`);
      });
      assert.equal(
        wrong.length,
        0,
        `${wrong.length} of ${s.random.length} settings differ:\n${wrong.slice(0, 5).join('\n')}`,
      );
    });
  }
}
