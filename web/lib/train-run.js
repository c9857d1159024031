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
    this.workers = [];
    this.loop = null;
    this.simd = null;
    this.t0 = now;
    this.tStart = 0;
    this.lastText = 0;
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
}
