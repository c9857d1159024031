// web/lib/training/train-run.js: the state machine of one <train-lab> run, every
// transition and every refusal (the browser tests drive the widget itself).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrainRun, RUN_STATES } from '../../web/lib/training/train-run.js';

const runAt = (state) => Object.assign(new TrainRun({ encodings: ['rope'] }, []), { state });
const EXPECTED = {
  // event: { from: to }; every (event, state) pair not listed changes nothing
  loaded: { loading: 'running', 'loading-paused': 'paused' },
  pause: { loading: 'loading-paused', running: 'paused' },
  resume: { 'loading-paused': 'loading', paused: 'running' },
  finish: { loading: 'done', 'loading-paused': 'done', running: 'done', paused: 'done' },
  stop: { loading: 'stopped', 'loading-paused': 'stopped', running: 'stopped', paused: 'stopped', error: 'stopped' },
  fail: { loading: 'error', 'loading-paused': 'error', running: 'error', paused: 'error', stopped: 'error' },
};

test('every event from every state: the listed transitions happen, every other pair changes nothing', () => {
  for (const [event, moves] of Object.entries(EXPECTED)) {
    for (const from of RUN_STATES) {
      const run = runAt(from);
      const changed = run.to(event);
      const to = moves[from] ?? from;
      assert.equal(run.state, to, `${event} from ${from}`);
      assert.equal(changed, to !== from, `${event} from ${from} reports ${changed}`);
    }
  }
  // done is final: nothing moves it
  for (const event of Object.keys(EXPECTED)) assert.equal(runAt('done').can(event), false, event);
});

test('paused while loading stays paused once loaded; resumed while loading runs once loaded', () => {
  const a = new TrainRun({}, []);
  assert.equal(a.state, 'loading');
  assert.ok(a.active && !a.paused);
  a.to('pause');
  assert.ok(a.paused && !a.active);
  a.to('loaded');
  assert.equal(a.state, 'paused');
  const b = new TrainRun({}, []);
  b.to('pause');
  b.to('resume');
  b.to('loaded');
  assert.equal(b.state, 'running');
  assert.ok(b.active && !b.ended);
});

test('a run that failed while loading is not revived by the load finishing; an unknown event is a TypeError', () => {
  const run = new TrainRun({}, []);
  run.to('stop');
  run.to('fail');
  assert.equal(run.to('loaded'), false);
  assert.equal(run.state, 'error');
  assert.ok(run.ended);
  assert.throws(() => run.to('explode'), { name: 'TypeError', message: 'TrainRun: unknown event "explode"' });
});

test('the mode line says what loads, where the run trains, and once done, where it trained (issue 46)', () => {
  const text = new TrainRun({ encodings: ['rope'] }, [{}]);
  text.waitingFor = 'text';
  assert.equal(text.modeLine(), 'Loading the text…');
  text.to('fail');
  assert.equal(text.modeLine(), '', 'nothing once it failed before loading');
  const run = new TrainRun({ encodings: ['rope', 't5'] }, [{}, {}]);
  assert.equal(run.modeLine(), 'Loading the trainer…');
  run.mode = 'workers';
  run.to('loaded');
  assert.equal(run.modeLine(), 'Training in 2 background workers.');
  run.to('finish');
  assert.equal(run.modeLine(), 'Trained in 2 background workers.');
  const page = Object.assign(new TrainRun({ encodings: ['rope'] }, [{}]), { mode: 'page', state: 'done' });
  assert.equal(page.modeLine(), 'Trained on the page (no worker available here).');
});
