// The recorded language-modelling comparison (web/data/lm-results.js, from
// scripts/record/record-lm-results.mjs) and the T5 tables (web/data/t5-learned.js,
// from scripts/record/record-train-results.mjs): at least three seeds for each of the
// six encodings, summaries that agree with the runs, the corpus they were
// trained on, the settings <train-lab task="text"> starts with, and a re-run
// of one seed's first checkpoint that lands on the recorded value (what the
// lesson promises a learner who re-runs it). The n-gram baselines
// (web/data/lm-baselines.js, from scripts/record/record-lm-baselines.mjs): the same
// corpus, the trainer's own split, and each order no worse than the one below.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import LM from '../../web/data/lm-results.js';
import BASELINES from '../../web/data/lm-baselines.js';
import T5 from '../../web/data/t5-learned.js';
import CORPUS from '../../web/data/corpus.js';
import { TEXT, MODEL, TrainSession } from '../../web/lib/training/train-session.js';
import { loadPosenc, TRAIN_ENCODINGS } from '../../web/posenc.js';

const root = new URL('../../', import.meta.url);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the recorded language-modelling comparison', () => {
  it('has at least 3 seeds for each of the six encodings, every curve complete', () => {
    assert.ok(LM.seeds.length >= 3, `only ${LM.seeds.length} seeds`);
    assert.equal(new Set(LM.seeds).size, LM.seeds.length);
    assert.deepEqual(Object.keys(LM.results).sort(), [...TRAIN_ENCODINGS].sort());
    const points = LM.config.steps / LM.config.evalEvery;
    for (const [encoding, r] of Object.entries(LM.results)) {
      assert.deepEqual(
        r.seeds.map((s) => s.seed),
        LM.seeds,
        encoding,
      );
      for (const s of r.seeds) {
        assert.equal(s.curve.length, points, `${encoding} seed ${s.seed}`);
        assert.ok(
          s.curve.every((x) => x > 0 && x < 6),
          `${encoding} seed ${s.seed}: a loss outside (0, 6)`,
        );
      }
    }
  });

  it('summaries agree with the runs', () => {
    for (const [encoding, r] of Object.entries(LM.results)) {
      for (const k of ['loss1x', 'loss2x', 'loss4x', 'acc1x', 'trainLoss']) {
        const values = r.seeds.map((s) => s[k]);
        if (values.includes(null)) {
          assert.equal(r[k].mean, null, `${encoding} ${k}`);
          continue;
        }
        assert.ok(Math.abs(r[k].mean - mean(values)) < 1e-4, `${encoding} ${k} mean`);
        assert.equal(r[k].min, Math.min(...values));
        assert.equal(r[k].max, Math.max(...values));
      }
      r.curve.mean.forEach((m, i) => {
        const values = r.seeds.map((s) => s.curve[i]);
        assert.ok(Math.abs(m - mean(values)) < 1e-4, `${encoding} point ${i}`);
        assert.equal(r.curve.min[i], Math.min(...values));
        assert.equal(r.curve.max[i], Math.max(...values));
      });
    }
    // a learned table has no row past the training length: no loss there
    assert.equal(LM.results.learned.loss2x.mean, null);
  });

  it('was trained on web/data/corpus.js as it is, with the settings the text lab starts with', () => {
    assert.equal(
      LM.corpus.sha256,
      createHash('sha256').update(CORPUS).digest('hex'),
      'the corpus changed since the runs were recorded: run scripts/record/record-lm-results.mjs again',
    );
    const { batch, vocab, trainLen, steps, lr, evalEvery, evalSamples } = LM.config;
    assert.deepEqual(
      { batch, vocab, trainLen, steps, lr, evalEvery, evalSamples },
      {
        batch: TEXT.batch,
        vocab: TEXT.vocab,
        trainLen: TEXT.trainLen,
        steps: TEXT.steps,
        lr: TEXT.lr,
        evalEvery: TEXT.evalEvery,
        evalSamples: TEXT.evalSamples,
      },
    );
    assert.deepEqual([LM.config.layers, LM.config.dModel, LM.config.heads], [MODEL.layers, MODEL.dModel, MODEL.heads]);
  });

  it(
    'a re-run of one seed retraces its recorded curve (the first checkpoint, RoPE, seed ' + LM.seeds[0] + ')',
    async () => {
      const pe = await loadPosenc({ simd: true, trainer: true });
      const text = CORPUS;
      const s = new TrainSession(pe, {
        task: 'text',
        encodings: ['rope'],
        steps: TEXT.evalEvery,
        seed: LM.seeds[0],
        lr: TEXT.lr,
        trainLen: TEXT.trainLen,
        text,
      });
      try {
        while (s.runFor(1e9));
        const recorded = LM.results.rope.seeds[0].curve[0];
        assert.ok(
          Math.abs(s.results[0].val[0] - recorded) < 1e-4,
          `re-run ${s.results[0].val[0]}, recorded ${recorded}`,
        );
      } finally {
        s.delete();
      }
    },
  );
});

describe('the n-gram baselines of the language-modelling comparison', () => {
  it('are on the corpus and split the runs used, each order below the one before', async () => {
    const sha256 = createHash('sha256').update(CORPUS).digest('hex');
    assert.equal(
      BASELINES.corpus.sha256,
      sha256,
      'the corpus changed: run scripts/record/record-lm-baselines.mjs again',
    );
    assert.equal(BASELINES.corpus.sha256, LM.corpus.sha256);
    assert.equal(BASELINES.trainLen, LM.config.trainLen);
    const pe = await loadPosenc({ simd: true, trainer: true });
    const t = pe.createTrainer({ task: 'text', text: CORPUS, trainLen: TEXT.trainLen, batch: TEXT.batch });
    const { ids, trainEnd } = t.corpus();
    t.delete();
    assert.deepEqual({ ids: ids.length, trainEnd }, { ids: BASELINES.corpus.ids, trainEnd: BASELINES.corpus.trainEnd });
    assert.equal(trainEnd, ids.length - Math.floor(ids.length / 10), 'the last tenth is held out');
    assert.deepEqual(
      BASELINES.lengths,
      LM.config.multiples.map((m) => m * LM.config.trainLen),
    );
    const b = BASELINES.baselines;
    assert.ok(b.uniform.every((x) => Math.abs(x - Math.log(TEXT.vocab)) < 1e-4));
    const order = ['uniform', '1-gram', '2-gram', '3-gram', '4-gram'];
    for (let i = 1; i < order.length; i++)
      b[order[i]].forEach((x, k) => assert.ok(x < b[order[i - 1]][k], `${order[i]} at ${BASELINES.lengths[k]}: ${x}`));
  });
});

describe('the recorded T5 tables', () => {
  const recorded = JSON.parse(readFileSync(new URL('lessons/positional-encoding/train-results.json', root), 'utf8'));

  it('hold one (32 x heads) table per seed and task, the same as train-results.json', () => {
    assert.deepEqual(T5.seeds, recorded.seeds);
    assert.ok(T5.seeds.length >= 3);
    assert.equal(T5.trainLen, recorded.config.trainLen);
    assert.equal(T5.heads, recorded.config.heads);
    for (const [task, byEncoding] of Object.entries(recorded.results)) {
      const tables = T5.tasks[task].tables;
      assert.equal(tables.length, T5.seeds.length, task);
      tables.forEach((t, i) => {
        assert.equal(t.length, T5.numBuckets * T5.heads);
        assert.deepEqual(t, byEncoding.t5.seeds[i].t5Table, `${task} seed ${T5.seeds[i]}`);
      });
      assert.deepEqual(T5.tasks[task].acc['4x'], byEncoding.t5.acc4x);
    }
  });
});

describe('what section 07 says of the T5 shift models holds in every seed and head', () => {
  it('reached buckets below zero but the token and its left neighbour; unreached within ±0.1 and above the far reached ones on average', async () => {
    const pe = await loadPosenc({ simd: true });
    const L = T5.trainLen;
    const N = 4 * L;
    const b = pe.t5Buckets(N, N, { bidirectional: true, numBuckets: T5.numBuckets, maxDistance: T5.maxDistance });
    const bucket = (off) => (off <= 0 ? b[(N - 1) * N + (N - 1 + off)] : b[off]);
    const reached = new Set();
    for (let off = -(L - 1); off < L; off++) reached.add(bucket(off));
    const far = new Set();
    for (let d = T5.numBuckets / 4; d < L; d++) far.add(bucket(d)).add(bucket(-d));
    const unreached = new Set();
    for (let off = -(N - 1); off < N; off++) if (!reached.has(bucket(off))) unreached.add(bucket(off));
    assert.ok(unreached.size >= 4);
    T5.tasks.shift.tables.forEach((t, i) => {
      for (let h = 0; h < T5.heads; h++) {
        const at = (k) => t[k * T5.heads + h];
        const where = `seed ${T5.seeds[i]} head ${h}`;
        for (const k of reached)
          if (k !== bucket(0) && k !== bucket(-1)) assert.ok(at(k) < 0, `${where}: bucket ${k} = ${at(k)}`);
        assert.ok(at(bucket(-1)) > 0, `${where}: the left neighbour`);
        for (const k of unreached) assert.ok(Math.abs(at(k)) <= 0.1, `${where}: unreached bucket ${k} = ${at(k)}`);
        const mean = (ks) => [...ks].map(at).reduce((x, y) => x + y, 0) / ks.size;
        assert.ok(mean(unreached) > mean(far), `${where}: unreached mean ${mean(unreached)} vs far mean ${mean(far)}`);
      }
    });
  });
});
