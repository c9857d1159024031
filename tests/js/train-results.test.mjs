// The training lab's recorded results (lessons/positional-encoding/train-results.json,
// written by scripts/record/record-train-results.mjs) rest on several seeds (issue 35):
// the seeds are listed, every cell holds one run per listed seed (at least 3),
// and the mean, min and max the lesson quotes agree with those runs, so the
// lesson cannot quietly go back to one seed or to summaries of other runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TRAIN_ENCODINGS } from '../../web/posenc.js';
import { seedSummary } from '../../scripts/record/seed-runs.mjs';

const MIN_SEEDS = 3;
const TASKS = ['reverse', 'sort', 'shift', 'copy'];
const ACCURACIES = ['acc1x', 'acc2x', 'acc4x'];
const MEASURES = [...ACCURACIES, 'stepsTo99', 'finalLoss'];
const recorded = JSON.parse(
  readFileSync(new URL('../../lessons/positional-encoding/train-results.json', import.meta.url), 'utf8'),
);
const cells = Object.entries(recorded.results).flatMap(([task, byEncoding]) =>
  Object.entries(byEncoding).map(([encoding, cell]) => ({ name: `${task}/${encoding}`, cell })),
);

test(`train-results.json lists at least ${MIN_SEEDS} distinct seeds and no single seed in its config`, () => {
  const { seeds } = recorded;
  assert.ok(Array.isArray(seeds), 'no "seeds" list');
  assert.ok(seeds.length >= MIN_SEEDS, `${seeds.length} seeds listed: ${seeds}`);
  for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0, `seed ${s}`);
  assert.equal(new Set(seeds).size, seeds.length, `seeds repeat: ${seeds}`);
  assert.equal(recorded.config.seed, undefined, 'config names one seed');
});

test('train-results.json has every task x encoding the lesson tables show', () => {
  assert.deepEqual(Object.keys(recorded.results).sort(), [...TASKS].sort());
  for (const task of TASKS)
    assert.deepEqual(Object.keys(recorded.results[task]).sort(), [...TRAIN_ENCODINGS].sort(), task);
});

test('every cell holds one run per listed seed, in order', () => {
  for (const { name, cell } of cells) {
    assert.ok(Array.isArray(cell.seeds), `${name}: no per-seed runs`);
    assert.ok(cell.seeds.length >= MIN_SEEDS, `${name}: ${cell.seeds.length} runs`);
    assert.deepEqual(
      cell.seeds.map((r) => r.seed),
      recorded.seeds,
      `${name}: runs for other seeds than listed`,
    );
    for (const r of cell.seeds) {
      for (const k of ACCURACIES)
        assert.ok(r[k] === null || (r[k] >= 0 && r[k] <= 1), `${name} seed ${r.seed}: ${k} = ${r[k]}`);
      assert.ok(Number.isFinite(r.finalLoss), `${name} seed ${r.seed}: finalLoss`);
    }
  }
});

// The rule record-train-results.mjs follows (scripts/record/seed-runs.mjs): mean,
// min and max of the seeds' values; where some seed has null (a learned table
// past its rows, or 99% never reached), mean and max are null and min is the
// lowest non-null value.
const expected = seedSummary;

test("every cell's mean, min and max agree with its per-seed values", () => {
  for (const { name, cell } of cells) {
    for (const k of MEASURES) {
      const want = expected(cell.seeds.map((r) => r[k]));
      const got = cell[k];
      assert.ok(got && typeof got === 'object', `${name}: no summary of ${k}`);
      for (const s of ['mean', 'min', 'max']) {
        if (want[s] === null) assert.equal(got[s], null, `${name}: ${k}.${s}`);
        else
          assert.ok(
            typeof got[s] === 'number' && Math.abs(got[s] - want[s]) <= 1e-9 * Math.max(1, Math.abs(want[s])),
            `${name}: ${k}.${s} is ${got[s]}, the seeds give ${want[s]}`,
          );
      }
    }
  }
});

test('the lesson quotes the accuracies with their range over the seeds', async () => {
  const { default: numbers } = await import('../../web/numbers/train-lab.js');
  assert.equal(numbers['train-seed-count'](), String(recorded.seeds.length));
  for (const { name, cell } of cells) {
    const [task, encoding] = name.split('/');
    for (const m of ['1x', '2x', '4x']) {
      const s = cell[`acc${m}`];
      const text = numbers[`train-${task}-${encoding}-${m}`]();
      if (s.mean === null) {
        assert.equal(text, '—', name);
        continue;
      }
      const [lo, hi] = [s.min, s.max].map((x) => (100 * x).toFixed(1));
      assert.ok(text.startsWith((100 * s.mean).toFixed(1)), `${name} ${m}: ${text}`);
      if (lo !== hi) assert.ok(text.endsWith(`(${lo}–${hi})`), `${name} ${m}: ${text} shows no range`);
      assert.equal(numbers[`train-${task}-${encoding}-${m}-range`](), lo === hi ? lo : `${lo}–${hi}`);
    }
  }
});
