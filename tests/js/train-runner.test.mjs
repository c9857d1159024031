// web/lib/training/train-runner.js: <train-lab>'s runs without the element,
// driven with the real trainer core. On this thread (no spawn, or a spawn
// that throws, as on a file:// page) and in workers (web/workers/train-worker.js
// itself, in Node worker threads), a run gives the numbers createTrainer
// gives directly, in the order of its encodings; pause, resume, reset and
// the failures (a corpus that is not there, a config the session refuses)
// reach the run's state and the events. Runs are tiny (tens of steps).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { loadPosenc } from '../../web/posenc.js';
import { TrainRunner } from '../../web/lib/training/train-runner.js';
import { trainerOptions, EVAL_SAMPLES, MULTIPLES } from '../../web/lib/training/train-session.js';

const CONFIG = { task: 'shift', encodings: ['learned', 'rope'], steps: 50, seed: 3, lr: 1e-3, trainLen: 8 };

// The worker file as a browser runs it, in a Node worker thread whose `self`
// is the thread's port; the page's side of it as a Worker's: postMessage,
// terminate, and message and error events.
const WORKER = new URL('../../web/workers/train-worker.js', import.meta.url).href;
function spawnInNode() {
  const thread = new Worker(
    `const { parentPort } = require('node:worker_threads');
     globalThis.self = { postMessage: (m) => parentPort.postMessage(m), addEventListener: (t, f) => parentPort.on(t, (data) => f({ data })) };
     import(${JSON.stringify(WORKER)});`,
    { eval: true },
  );
  return {
    postMessage: (m) => thread.postMessage(m),
    terminate: () => thread.terminate(),
    addEventListener: (type, f) =>
      thread.on(type, type === 'message' ? (data) => f({ data }) : (error) => f({ error, preventDefault() {} })),
  };
}

// Every event of a runner, in order: [type, detail, the run's state then].
function record(runner) {
  const log = [];
  for (const type of ['change', 'progress', 'done', 'error'])
    runner.addEventListener(type, (e) => log.push([type, e.detail, runner.run?.state ?? null]));
  return log;
}
const until = (runner, type) =>
  new Promise((resolve) => runner.addEventListener(type, (e) => resolve(e.detail), { once: true }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What createTrainer gives for each encoding of CONFIG, trained and tested as the lab does.
let expected;
before(async () => {
  const pe = await loadPosenc({ trainer: true });
  expected = CONFIG.encodings.map((encoding) => {
    const t = pe.createTrainer(trainerOptions(CONFIG, encoding));
    t.step(CONFIG.steps);
    const acc = MULTIPLES.map((m) => {
      try {
        return t.evaluate(m * CONFIG.trainLen, EVAL_SAMPLES);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        return null; // a learned table past its rows
      }
    });
    t.delete();
    return { encoding, acc1x: acc[0], acc2x: acc[1], acc4x: acc[2] };
  });
});

const numbers = (results) => results.map(({ encoding, acc1x, acc2x, acc4x }) => ({ encoding, acc1x, acc2x, acc4x }));

test('without workers it trains on this thread: the core’s numbers, in order, with the events', async () => {
  const runner = new TrainRunner();
  const log = record(runner);
  await runner.start(CONFIG);
  assert.equal(runner.run.state, 'running');
  assert.equal(runner.run.mode, 'page');
  assert.equal(
    runner.run.modeLine(),
    'Training on the page (no worker available here); the page may feel slower while it runs.',
  );
  const { results } = await until(runner, 'done');
  assert.deepEqual(numbers(results), expected);
  assert.match(results[0].reason2x, /rows/);
  assert.equal(runner.results, results);
  assert.equal(runner.run.state, 'done');
  assert.equal(runner.run.loop, null, 'the loop, and its trainers, let go');
  assert.deepEqual([runner.runInfo.mode, runner.runInfo.workers, runner.runInfo.msPerStep.length], ['page', 0, 1]);
  assert.ok(runner.runInfo.wallMs > 0 && runner.runInfo.loadMs >= 0);
  // a change into loading, one into running, progress in between and after, a change into done, then done
  const types = log.map(([type, , state]) => `${type}:${state}`);
  assert.deepEqual(types.slice(0, 2), ['change:loading', 'change:running']);
  assert.deepEqual(types.slice(-3), ['progress:running', 'change:done', 'done:done']);
  const steps = log.filter(([t]) => t === 'progress').map(([, d]) => d);
  assert.ok(steps.every((d, i) => d.total === CONFIG.steps && (i === 0 || d.steps >= steps[i - 1].steps)));
  assert.equal(steps.at(-1).steps, CONFIG.steps);
  // what the chart and the tables draw
  const series = runner.series(['none']);
  assert.deepEqual(
    series.map((s) => s.enc),
    CONFIG.encodings,
    'a run draws its own encodings',
  );
  assert.ok(series.every((s) => s.curve.length > 0 && s.result !== null));
});

test('in workers (train-worker.js in worker threads) a run gives the same numbers, collected from its parts', async () => {
  const runner = new TrainRunner({ spawn: spawnInNode });
  await runner.start(CONFIG);
  assert.equal(runner.run.mode, 'workers');
  assert.equal(runner.run.parts.length, 2, 'one encoding per worker');
  assert.equal(runner.run.modeLine(), 'Training in 2 background workers.');
  const { results } = await until(runner, 'done');
  assert.deepEqual(numbers(results), expected);
  assert.deepEqual([runner.runInfo.mode, runner.runInfo.workers], ['workers', 2]);
  assert.deepEqual(runner.run.workers, [], 'the workers were ended');
  assert.equal(runner.run.modeLine(), 'Trained in 2 background workers.');

  // maxWorkers caps the pool: one worker trains both
  const one = new TrainRunner({ spawn: spawnInNode, maxWorkers: 1 });
  await one.start(CONFIG);
  assert.equal(one.run.parts.length, 1);
  assert.deepEqual(numbers((await until(one, 'done')).results), expected);
});

// spawnInNode, but the second worker's 'ready' reaches the page `ms` later (or
// is replaced by `instead`): a worker that loads slowly, or cannot train.
function slowSecond(ms, instead = null) {
  let n = 0;
  return () => {
    const worker = spawnInNode();
    if (n++ !== 1) return worker;
    return {
      ...worker,
      addEventListener(type, f) {
        if (type !== 'message') return worker.addEventListener(type, f);
        worker.addEventListener(type, (event) => {
          if (event.data?.type === 'ready') setTimeout(() => f(instead ? { data: instead } : event), ms);
          else f(event);
        });
      },
    };
  };
}

test('no part trains before every worker can: progress only once the run knows where it trains', async () => {
  for (const [spawn, mode] of [
    [slowSecond(400), 'workers'],
    [slowSecond(400, { type: 'error', message: 'no trainer here' }), 'page'],
  ]) {
    const runner = new TrainRunner({ spawn });
    const modes = [];
    runner.addEventListener('progress', () => modes.push(runner.run?.mode ?? null));
    const done = until(runner, 'done');
    await runner.start(CONFIG);
    assert.equal(runner.run.mode, mode);
    const { results } = await done;
    assert.deepEqual(numbers(results), expected);
    assert.ok(modes.length > 0);
    assert.deepEqual(new Set(modes), new Set([mode]), `progress before the run knew where it trains: ${modes}`);
  }
});

test('where a worker cannot start (spawn throws: a file:// page) the run trains on this thread', async () => {
  const runner = new TrainRunner({
    spawn: () => {
      throw new DOMException('Workers are not allowed here', 'SecurityError');
    },
  });
  await runner.start({ ...CONFIG, encodings: ['rope'] });
  assert.equal(runner.run.mode, 'page');
  const { results } = await until(runner, 'done');
  assert.deepEqual(numbers(results), [expected[1]]);
});

test('paused while loading it starts paused and takes no step; resumed it finishes; reset ends it with no event after', async () => {
  const runner = new TrainRunner();
  const starting = runner.start(CONFIG);
  runner.pause();
  assert.equal(runner.run.state, 'loading-paused');
  await starting;
  assert.equal(runner.run.state, 'paused');
  await sleep(200);
  assert.equal(runner.run.steps().steps, 0, 'a paused run trains nothing');
  runner.resume();
  assert.equal(runner.run.state, 'running');
  assert.deepEqual(numbers((await until(runner, 'done')).results), expected);

  // Reset while training: no run, no results, and nothing more is said
  await runner.start(CONFIG);
  await until(runner, 'progress');
  const run = runner.run;
  const log = record(runner);
  runner.reset();
  assert.equal(run.state, 'stopped');
  assert.equal(run.loop, null);
  assert.deepEqual([runner.run, runner.results, runner.runInfo], [null, null, null]);
  await sleep(300);
  assert.deepEqual(
    log.map(([t]) => t),
    ['change'],
  );

  // Reset while the workers load: the start resolves at once (not after the
  // workers' ready timeout), the workers are ended, no run comes back
  const pooled = new TrainRunner({ spawn: spawnInNode });
  const loading = pooled.start(CONFIG);
  const first = pooled.run;
  pooled.reset();
  const t0 = performance.now();
  await loading;
  assert.ok(performance.now() - t0 < 1000, `the start waited ${performance.now() - t0} ms after Reset`);
  assert.equal(pooled.run, null);
  assert.equal(first.state, 'stopped');
  assert.deepEqual(first.workers, []);
});

test('failures: a corpus that is not there, a config the session refuses; the message says which, and Start works again', async () => {
  const runner = new TrainRunner();
  const log = record(runner);
  await runner.start({ ...CONFIG, task: 'text', encodings: ['rope'], corpus: 'http://127.0.0.1:9/no/corpus.txt' });
  assert.equal(runner.run.state, 'error');
  const [, { message }] = log.find(([t]) => t === 'error');
  assert.match(
    message,
    /^The text for task "text" could not be loaded from http:\/\/127\.0\.0\.1:9\/no\/corpus\.txt: /,
  );
  assert.equal(runner.run.modeLine(), '');

  const failed = until(runner, 'error');
  await runner.start({ ...CONFIG, steps: 10 }); // under LAB_OPTIONS.steps.min
  assert.match((await failed).message, /^Training stopped: steps must be an integer from 50 to 20000$/);
  assert.equal(runner.run.state, 'error');
  const refused = until(runner, 'error');
  await runner.start({ ...CONFIG, encodings: 'rope' });
  assert.match((await refused).message, /^Training stopped: encodings must be 1 to 6 different names among none, /);

  await runner.start({ ...CONFIG, encodings: ['rope'] });
  assert.deepEqual(numbers((await until(runner, 'done')).results), [expected[1]]);
});

test('the text task loads the lesson’s text and measures validation losses', async () => {
  const runner = new TrainRunner();
  const log = record(runner);
  const started = runner.start({ task: 'text', encodings: ['rope'], steps: 100, seed: 1, lr: 3e-3, trainLen: 16 });
  assert.equal(runner.run.modeLine(), 'Loading the text…');
  await started;
  assert.ok(log.some(([t, , s]) => t === 'change' && s === 'loading'));
  assert.ok(runner.run.config.text.length > 10000, 'the lesson’s text');
  const [r] = (await until(runner, 'done')).results;
  assert.equal(r.val.length, 1);
  for (const m of MULTIPLES) assert.ok(r[`loss${m}x`] > 0 && r[`loss${m}x`] < 5, JSON.stringify(r));
});
