// One run of <train-lab>: where it is, as one state with its transitions,
// and the data the run carries (its settings, its parts, their workers or
// the loop on the page). The widget drives it; this file decides what may
// happen next, so "paused while still loading" is a state of its own and not
// a flag beside another state.
//
//   loading ──loaded──> running ──finish──> done
//     │  ↑                │  ↑
//   pause resume        pause resume
//     ↓  │                ↓  │
//   loading-paused ─loaded─> paused ──finish──> done
//
//   stop:  any state but done ──> stopped      (Reset, or a new Start)
//   fail:  any state but done ──> error        (a worker or the loop failed)
//
// What the progress bar and the progress line say is read off the run too
// (its parts' latest snapshots), so the widget only writes it. The runs are
// started and driven by ./train-runner.js.
import { MULTIPLES } from './train-session.js';

const secs = (ms) =>
  ms < 60000
    ? `${Math.max(1, Math.round(ms / 1000))} s`
    : `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;

const TRANSITIONS = {
  loaded: { loading: 'running', 'loading-paused': 'paused' },
  pause: { loading: 'loading-paused', running: 'paused' },
  resume: { 'loading-paused': 'loading', paused: 'running' },
  finish: { loading: 'done', 'loading-paused': 'done', running: 'done', paused: 'done' },
  stop: {
    loading: 'stopped',
    'loading-paused': 'stopped',
    running: 'stopped',
    paused: 'stopped',
    error: 'stopped',
    stopped: 'stopped',
  },
  fail: {
    loading: 'error',
    'loading-paused': 'error',
    running: 'error',
    paused: 'error',
    stopped: 'error',
    error: 'error',
  },
};

/** The states a run can be in. */
export const RUN_STATES = Object.freeze(['loading', 'loading-paused', 'running', 'paused', 'done', 'stopped', 'error']);

export class TrainRun {
  /**
   * config: the run's settings ({ task, encodings, steps, seed, lr,
   * trainLen, text? }); parts: [{ encodings, snap, results }], one per
   * worker (or one for the loop on the page).
   */
  constructor(config, parts, now = 0) {
    this.config = config;
    this.parts = parts;
    this.state = 'loading';
    this.mode = null; // 'workers' or 'page', once loaded
    this.waitingFor = 'trainer'; // what loading waits for: 'text' (a text run's corpus), then 'trainer'
    this.workers = [];
    this.loop = null;
    this.simd = null;
    this.t0 = now;
    this.tStart = 0;
  }

  /** Whether `event` (a key of TRANSITIONS) may happen now. */
  can(event) {
    return Object.hasOwn(TRANSITIONS[event] ?? {}, this.state);
  }

  /** Takes `event`; returns whether the state changed (an event that may not happen now changes nothing). */
  to(event) {
    if (!TRANSITIONS[event]) throw new TypeError(`TrainRun: unknown event ${JSON.stringify(event)}`);
    const next = TRANSITIONS[event][this.state];
    if (next === undefined || next === this.state) return false;
    this.state = next;
    return true;
  }

  /** Paused: a worker that becomes ready, or the loop once started, is paused at once. */
  get paused() {
    return this.state === 'paused' || this.state === 'loading-paused';
  }

  /** Loading or training: what the Pause button acts on. */
  get active() {
    return this.state === 'loading' || this.state === 'running';
  }

  /** Done, stopped or failed: nothing more will happen. */
  get ended() {
    return this.state === 'done' || this.state === 'stopped' || this.state === 'error';
  }

  /** Steps per encoding (the mean over encodings, which advance together) and the total per encoding. */
  steps() {
    let done = 0;
    for (const p of this.parts) done += p.snap?.steps ?? 0;
    return { steps: Math.floor(done / this.config.encodings.length), total: this.config.steps };
  }

  /** The progress bar's { value, max }: steps taken and to take, summed over every encoding. */
  bar() {
    const max = this.parts.reduce((s, q) => s + (q.snap?.total ?? q.encodings.length * this.config.steps), 0);
    const value = this.parts.reduce((s, q) => s + (q.snap?.steps ?? 0), 0);
    return { value, max };
  }

  /** What it loads until loaded ('' once it ended without training); where the run trains; once done, where it trained. */
  modeLine() {
    const n = this.parts.length;
    if (!this.mode) {
      if (this.ended) return '';
      return this.waitingFor === 'text' ? 'Loading the text…' : 'Loading the trainer…';
    }
    const workers = `${n} background worker${n === 1 ? '' : 's'}`;
    if (this.state === 'done')
      return this.mode === 'workers' ? `Trained in ${workers}.` : 'Trained on the page (no worker available here).';
    return this.mode === 'workers'
      ? `Training in ${workers}.`
      : 'Training on the page (no worker available here); the page may feel slower while it runs.';
  }

  /** "step s of S, about N s left", or done (after `wallMs` of training), paused, testing. */
  progressLine(wallMs) {
    const { steps, total } = this.steps();
    if (this.state === 'done') return `done: ${total} steps per encoding in ${secs(wallMs)}.`;
    if (this.paused) return `paused at step ${steps} of ${total}.`;
    if (this.parts.every((p) => p.snap?.evaluating || p.results))
      return `step ${total} of ${total}: testing at ${MULTIPLES.map((m) => m * this.config.trainLen).join(', ')} positions…`;
    // the parts run in parallel: the slowest one decides
    let left = 0;
    for (const p of this.parts) {
      if (!p.snap?.msPerStep) continue;
      left = Math.max(left, (p.snap.total - p.snap.steps) * p.snap.msPerStep);
    }
    return `step ${steps} of ${total}${left ? `, about ${secs(left)} left` : ''}.`;
  }
}
