// The trainer (pe.createTrainer) through the JS API, in both trainer builds:
// its first 50 losses against PyTorch's (tests/fixtures/trainer_*.txt,
// written by make_trainer.py: the same model, initial weights and batches in
// torch), determinism, evaluation, errors, and that deleting a trainer gives
// its memory back. The gradient checks are in tests/train/test_transformer.cpp.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadPosenc, TRAIN_TASKS, TRAIN_ENCODINGS } from '../../web/posenc.js';
import { fixtureDir, loadCase } from './fixture.mjs';

const LOSS_RTOL = 1e-4;
const cases = readFileSync(path.join(fixtureDir, 'trainer_index.txt'), 'utf8')
  .split(/\s+/)
  .filter(Boolean)
  .map(loadCase);

const optionsOf = (c) => ({
  task: c.params.task,
  encoding: c.params.encoding,
  layers: Number(c.params.layers),
  dModel: Number(c.params.d_model),
  heads: Number(c.params.heads),
  ffn: Number(c.params.ffn),
  vocab: Number(c.params.vocab),
  trainLen: Number(c.params.train_len),
  batch: Number(c.params.batch),
  lr: Number(c.params.lr),
  seed: Number(c.params.seed),
  // the text task's corpus is a file beside the fixture
  ...(c.params.text ? { text: readFileSync(path.join(fixtureDir, c.params.text), 'utf8') } : {}),
});

for (const simd of [true, false]) {
  describe(`trainer, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let pe;
    before(async () => {
      pe = await loadPosenc({ simd, trainer: true });
    });

    it('has fixtures for every encoding and task', () => {
      const encodings = new Set(cases.map((c) => c.params.encoding));
      const tasks = new Set(cases.map((c) => c.params.task));
      // the lists the core's tables are held to at load (core/build-info.js)
      assert.deepEqual([...encodings].sort(), [...TRAIN_ENCODINGS].sort());
      assert.deepEqual([...tasks].sort(), [...TRAIN_TASKS].sort());
    });

    for (const c of cases) {
      it(`${c.file}: the first ${c.tensors.losses.values.length} losses match PyTorch within ${LOSS_RTOL} relative`, () => {
        const t = pe.createTrainer(optionsOf(c));
        try {
          const want = c.tensors.losses.values;
          t.step(want.length);
          const got = t.lossHistory();
          assert.equal(got.length, want.length);
          let worst = 0;
          for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / Math.abs(want[i]));
          assert.ok(worst <= LOSS_RTOL, `largest relative difference ${worst.toExponential(2)}`);
        } finally {
          t.delete();
        }
      });
    }

    it('is deterministic: the same options give the same losses and accuracy', () => {
      const opts = { task: 'sort', encoding: 't5', dModel: 16, heads: 2, trainLen: 8, batch: 8, seed: 42 };
      const a = pe.createTrainer(opts);
      const b = pe.createTrainer(opts);
      a.step(12);
      b.step(5);
      b.step(7);
      assert.deepEqual(a.lossHistory(), b.lossHistory());
      assert.equal(a.evaluate(8, 64), b.evaluate(8, 64));
      // a chunk at a time (as the lab's page loop runs it): the same numbers, also at 4x length
      for (const length of [8, 32]) {
        a.evaluateStart(length, 64);
        let calls = 1;
        while (!a.evaluateMore(1)) calls++;
        assert.ok(calls > 1, `${length}: one chunk held every sequence`);
        assert.deepEqual(a.evaluateResult(), { accuracy: a.evaluate(length, 64), loss: a.evaluateLoss(length, 64) });
      }
      // a step ends an evaluation under way: the weights it measured are gone
      const c = pe.createTrainer(opts);
      c.evaluateStart(8, 64);
      c.evaluateMore(1);
      c.step(1);
      assert.throws(
        () => c.evaluateMore(1),
        (e) => e instanceof TypeError && /a step ends one in progress/.test(e.message),
      );
      c.delete();
      assert.equal(a.evaluate(24, 32), a.evaluate(24, 32), 'evaluation uses the same sequences every time');
      assert.equal(a.steps, 12);
      a.delete();
      b.delete();
    });

    it("corpus(): the text task's ids (letters folded, the last tenth held out); none for the other tasks", () => {
      const text = 'Aa b\n'.repeat(60); // 300 characters, 5 ids each round
      const t = pe.createTrainer({ task: 'text', text, dModel: 8, heads: 2, trainLen: 4, batch: 2 });
      const { ids, trainEnd } = t.corpus();
      t.delete();
      assert.equal(ids.length, 300);
      assert.equal(trainEnd, 270);
      assert.deepEqual([...ids.slice(0, 5)], [ids[0], ids[0], ids[2], ids[3], ids[4]], 'A folds onto a');
      assert.equal(new Set(ids.slice(0, 5)).size, 4);
      const d = pe.createTrainer({ dModel: 8, heads: 2, trainLen: 4, batch: 2 });
      assert.deepEqual({ ...d.corpus(), ids: d.corpus().ids.length }, { ids: 0, trainEnd: 0 });
      d.delete();
    });

    it('evaluates at other lengths; a learned table past its rows throws a RangeError that explains', () => {
      const t = pe.createTrainer({ encoding: 'learned', dModel: 16, heads: 2, trainLen: 8, batch: 4 });
      const acc = t.evaluate(8, 32);
      assert.ok(acc >= 0 && acc <= 1);
      assert.ok(t.evaluate(3, 8) >= 0, 'shorter than training is fine');
      assert.throws(
        () => t.evaluate(16, 8),
        (e) =>
          e instanceof RangeError &&
          /learned position table has 8 rows/.test(e.message) &&
          /cannot extrapolate/.test(e.message),
      );
      assert.ok(t.evaluate(8, 32) === acc, 'still works after the error');
      t.delete();
      const r = pe.createTrainer({ encoding: 'rope', dModel: 16, heads: 2, trainLen: 8, batch: 4 });
      assert.ok(r.evaluate(32, 8) >= 0, 'rope runs at 4x');
      r.delete();
    });

    it('refuses bad options and arguments with clear errors, and keeps working', () => {
      const bad = [
        [{ task: 'translate' }, TypeError, /task must be one of 'copy', 'reverse', 'sort', 'shift', 'text'/],
        [{ task: 'text' }, TypeError, /the text task needs text, the corpus \(a string\), got undefined/],
        [{ task: 'text', text: 42 }, TypeError, /the text task needs text/],
        [
          { task: 'text', text: 'too short' },
          RangeError,
          /the text has 9 characters; a window of 16 needs at least 170/,
        ],
        [{ task: 'text', text: 'x'.repeat(1000), vocab: 10 }, RangeError, /vocab must be 64, got 10/],
        [{ task: 'copy', text: 'abc' }, TypeError, /text is the corpus of the text task/],
        [{ encoding: 'RoPE' }, TypeError, /encoding must be one of/],
        [{ dModel: 30 }, RangeError, /dModel must be divisible by heads/],
        [{ dModel: 2.5 }, RangeError, /dModel must be an integer/],
        [{ layers: 0 }, RangeError, /layers must be between 1 and 4/],
        [{ heads: 64 }, RangeError, /heads must be between 1 and 16/],
        [{ trainLen: 1e9 }, RangeError, /trainLen must be between 2 and 256/],
        [{ lr: -1 }, RangeError, /lr/],
        [{ lr: 'fast' }, TypeError, /lr must be a number/],
        [{ seed: 0.5 }, RangeError, /seed must be an integer/],
        [{ batch: NaN }, RangeError, /batch must be a finite number/],
        [{ epochs: 3 }, TypeError, /unknown option 'epochs'/],
        ['reverse', TypeError, /options must be an object/],
      ];
      for (const [opts, type, message] of bad) {
        assert.throws(
          () => pe.createTrainer(opts),
          (e) => e instanceof type && e.message.startsWith('createTrainer: ') && message.test(e.message),
          JSON.stringify(opts),
        );
      }
      const t = pe.createTrainer({ dModel: 8, heads: 2, trainLen: 4, batch: 2 });
      for (const [fn, args, message] of [
        ['step', [0], /n must be between 1 and 100000/],
        ['step', [1.5], /n must be an integer/],
        ['step', ['10'], /n must be a number/],
        ['evaluate', [0, 8], /length must be between 1 and 1024/],
        ['evaluate', [8, 1e6], /samples must be between 1 and 4096/],
        ['evaluate', [NaN], /length must be a finite number/],
        ['evaluateLoss', [0, 8], /length must be between 1 and 1024/],
        ['evaluateStart', [0, 8], /^trainer\.evaluateStart: length must be between 1 and 1024/],
        ['evaluateMore', [1], /^trainer\.evaluateMore: no evaluation in progress/],
        ['evaluateMore', [0], /chunks must be between 1 and 4096/],
        ['evaluateResult', [], /^trainer\.evaluateResult: the evaluation is not finished/],
        ['parameter', ['pos_emb'], /the trainer has no parameter 'pos_emb'/],
        ['parameter', [3], /name must be a string/],
      ]) {
        assert.throws(
          () => t[fn](...args),
          (e) => e instanceof Error && message.test(e.message),
          `${fn}(${args})`,
        );
      }
      assert.ok(Number.isFinite(t.step(2)));
      t.delete();
      t.delete(); // twice is fine
      assert.throws(() => t.step(1), /this trainer has been deleted/);
      assert.throws(() => t.lossHistory(), /this trainer has been deleted/);
    });

    it('text task: validation loss on the held-out tenth, the vocabulary by default, parameters by name', () => {
      const text = readFileSync(path.join(fixtureDir, 'trainer_text.txt'), 'utf8').repeat(4);
      const t = pe.createTrainer({
        task: 'text',
        encoding: 't5',
        text,
        dModel: 16,
        heads: 2,
        trainLen: 12,
        batch: 4,
        lr: 3e-3,
      });
      try {
        assert.equal(t.config.vocab, 64);
        const before = t.evaluateLoss(12, 16);
        assert.equal(t.evaluateLoss(12, 16), before, 'the same held-out windows each time');
        assert.ok(Math.abs(before - Math.log(64)) < 0.5, `starts near ln 64, got ${before}`);
        t.step(150);
        assert.ok(t.evaluateLoss(12, 16) < before - 0.5);
        const table = t.parameter('t5_table');
        assert.ok(table instanceof Float32Array);
        assert.equal(table.length, 32 * 2);
        table[0] = 99; // a copy: the trainer's own weights are untouched
        assert.notEqual(t.parameter('t5_table')[0], 99);
        // a window longer than the held-out tenth says so
        assert.throws(
          () => t.evaluateLoss(200, 1),
          (e) => e instanceof RangeError && /the validation text has \d+ characters/.test(e.message),
        );
        assert.ok(Number.isFinite(t.step(1)), 'and keeps working');
      } finally {
        t.delete();
      }
    });

    it('gives its memory back when deleted; a training step allocates nothing', () => {
      const start = pe.memoryStats();
      const t = pe.createTrainer({ dModel: 32, heads: 4, trainLen: 8, batch: 8 });
      t.step(2);
      t.evaluate(32, 16);
      const warm = pe.memoryStats();
      t.step(20);
      t.evaluate(32, 16);
      const after = pe.memoryStats();
      // the loss history grows by 4 bytes a step (amortised vector growth)
      assert.ok(
        after.allocatedBytes - warm.allocatedBytes <= 4096,
        `${warm.allocatedBytes} -> ${after.allocatedBytes}`,
      );
      t.delete();
      assert.equal(pe.memoryStats().allocatedBytes, start.allocatedBytes);
      assert.equal(pe.memoryStats().jsHandles, 0);
    });

    it('the lesson build has no trainer and says how to get one', async () => {
      const small = await loadPosenc({ simd });
      assert.equal(small.trainer, false);
      assert.throws(() => small.createTrainer(), /loadPosenc\(\{ trainer: true \}\)/);
    });
  });
}
