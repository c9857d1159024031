// The SCORM adapter of the LMS packages (`npm run export:scorm`): it runs
// before the lesson's own script and, when an LMS's runtime is found, keeps
// quiz progress with the LMS instead of localStorage.
//
//   - finds `API` (SCORM 1.2) or `API_1484_11` (2004) up the parent chain,
//     then up the opener's, as the specs' discovery algorithms do
//   - initialises; restores progress from suspend_data on a resumed attempt
//   - after each change (an answer checked, a solution shown, a reset):
//     writes the score (the sum of the questions' credit out of their
//     number; web/lib/reporting/progress.js says how credit falls with each miss), the
//     status, the session time, the compact suspend_data and, for an answer,
//     an interaction (type choice, numeric or fill-in; the learner's
//     response; the result as the credit it earned; the latency); then
//     commits
//   - on pagehide: the session time, the exit, a last commit and finish.
//     The exit is "suspend" while the learner is mid-way (so the next launch
//     resumes) and normal once they have passed or answered every question
//     (1.2: cmi.core.exit ""; 2004: cmi.exit "normal"), so the LMS closes the
//     attempt; a new attempt starts with no suspend_data, and the lesson
//     starts fresh
//
// Without a runtime, or if the runtime refuses to initialise, it does nothing
// and the page is the plain offline lesson. Every call is guarded: a runtime
// that returns errors, throws or disappears costs the LMS record, never the
// page; answers stay on the page, and nothing is shown to the learner.
import { loadProgress, onProgress, attempt, tally } from './progress.js';
import { useHostProgress } from './host-progress.js';
import { quizIri, statementTracker, attemptedStatement } from './xapi.js';

const SUSPEND_LIMIT = { 1.2: 4096, 2004: 64000 };
const INTERACTION_LIMIT = 250; // 2004's smallest permitted maximum; 1.2 journals one per answer

/** The SCORM 1.2 discovery (RTE 3.3.6.1): up to 7 parents, then the opener's chain. */
export function findApi(version, start = globalThis.window) {
  const name = version === '2004' ? 'API_1484_11' : 'API';
  const maxTries = version === '2004' ? 500 : 7; // ADL's 2004 sample script allows 500
  const search = (win) => {
    let tries = 0;
    try {
      while (win && !has(win, name) && win.parent && win.parent !== win) {
        if (++tries > maxTries) return null;
        win = win.parent;
      }
      return win && has(win, name) ? win[name] : null;
    } catch {
      return null; // a frame of another origin: no runtime of ours above it
    }
  };
  let api = search(start);
  if (!api) {
    try {
      if (start?.opener) api = search(start.opener);
    } catch {
      api = null;
    }
  }
  return api;
}

function has(win, name) {
  try {
    return win[name] !== null && win[name] !== undefined && typeof win[name] === 'object';
  } catch {
    return false;
  }
}

// the two versions' names for the same things
const NAMES = {
  1.2: {
    init: 'LMSInitialize',
    finish: 'LMSFinish',
    get: 'LMSGetValue',
    set: 'LMSSetValue',
    commit: 'LMSCommit',
    error: 'LMSGetLastError',
    entry: 'cmi.core.entry',
    suspend: 'cmi.suspend_data',
    exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time',
    mastery: 'cmi.student_data.mastery_score',
  },
  2004: {
    init: 'Initialize',
    finish: 'Terminate',
    get: 'GetValue',
    set: 'SetValue',
    commit: 'Commit',
    error: 'GetLastError',
    entry: 'cmi.entry',
    suspend: 'cmi.suspend_data',
    exit: 'cmi.exit',
    sessionTime: 'cmi.session_time',
    mastery: 'cmi.scaled_passing_score',
  },
};

/** Seconds as SCORM 1.2's CMITimespan (HHHH:MM:SS.SS) or 2004's ISO 8601 duration. */
export function formatSessionTime(version, seconds) {
  const s = Math.max(0, Math.min(seconds, 9999 * 3600 + 3599.99));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.floor((s % 60) * 100) / 100;
  if (version === '2004') return `PT${h}H${m}M${sec.toFixed(2).replace(/\.?0+$/, '') || 0}S`;
  const pad = (n, w) => String(n).padStart(w, '0');
  const [whole, frac] = sec.toFixed(2).split('.');
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(whole, 2)}.${frac}`;
}

/**
 * Connects the page to the LMS, if there is one. `questionIds`: the lesson's
 * quizzes and exercises (the score is out of these); `mastery`: the passing
 * fraction if the LMS gives none. Returns the session, or null (plain page).
 */
export function startScorm({ version, questionIds, mastery = 0.8, window: win = globalThis.window, log = () => {} }) {
  const names = NAMES[version];
  if (!names || !win) return null;
  const api = findApi(version, win);
  if (!api) return null;

  let alive = true;
  const call = (method, ...args) => {
    if (!alive) return '';
    try {
      const fn = api[method];
      if (typeof fn !== 'function') throw new TypeError(`${method} is not a function`);
      const r = fn.apply(api, args);
      return r === undefined || r === null ? '' : String(r);
    } catch (error) {
      // the runtime has gone (its frame unloaded) or is broken: stop asking it
      alive = false;
      log(`SCORM ${method} threw (${error?.message ?? error}); the LMS is no longer told of answers`);
      return '';
    }
  };
  const ok = (r) => r === 'true' || r === true;
  const failed = () => {
    const code = call(names.error);
    return code !== '' && code !== '0';
  };
  const get = (el) => {
    const v = call(names.get, el);
    return failed() ? null : v;
  };
  const set = (el, value) => ok(call(names.set, el, String(value)));

  if (!ok(call(names.init, '')) && failed()) {
    log('SCORM: the LMS refused to initialise; progress stays in this browser');
    return null;
  }
  const started = Date.now();

  // ------------------------------------------------------------------ resume
  const entry = get(names.entry);
  // 2004 errs on reading an unset suspend_data: read it only for a resumed or unknown entry
  const stored = entry === 'ab-initio' ? '' : (get(names.suspend) ?? '');
  const host = useHostProgress(stored, { knownIds: questionIds, limit: SUSPEND_LIMIT[version] });

  let passing = mastery;
  const lmsMastery = get(names.mastery);
  if (lmsMastery !== null && lmsMastery !== '' && Number.isFinite(Number(lmsMastery))) {
    const x = Number(lmsMastery);
    passing = version === '2004' ? x : x / 100;
  }
  passing = Math.min(1, Math.max(0, passing));

  // ------------------------------------------------------------------ reporting
  let interactionsOn = true;
  let interactionCount = null;
  const interactionIndex = new Map(); // 2004: quiz -> its interaction, rewritten on each answer

  function writeInteraction(d) {
    if (!interactionsOn) return;
    if (interactionCount === null) {
      const n = Number(get('cmi.interactions._count'));
      if (!Number.isInteger(n) || n < 0) {
        interactionsOn = false;
        return;
      }
      interactionCount = n;
      if (version === '2004') {
        for (let i = 0; i < n; i++) {
          const id = get(`cmi.interactions.${i}.id`);
          if (id) interactionIndex.set(id, i);
        }
      }
    }
    const kind = d.kind ?? 'choice';
    const earned = d.correct && !d.revealed ? Math.max(0, Math.min(1, Number(d.score) || 0)) : 0;
    // the result is the credit this answer earned: correct (1), a real number
    // between (a right answer after misses), neutral (right after the
    // solution was shown: no credit), or incorrect
    const result = (wrong) =>
      !d.correct
        ? wrong
        : d.revealed
          ? 'neutral'
          : earned === 1
            ? 'correct'
            : String(Math.round(earned * 10000) / 10000);
    const seconds = Math.max(0, Number(d.latencyMs) || 0) / 1000;
    const fields = [];
    // after "Reset my answers" the learner's answers are new interactions, beside the first attempt's
    const again = attempt() > 1 ? attempt() : 0;
    if (version === '2004') {
      const id = again ? `${quizIri(d.quizId)}?attempt=${again}` : quizIri(d.quizId);
      let n = interactionIndex.get(id);
      if (n === undefined) {
        if (interactionCount >= INTERACTION_LIMIT) return;
        n = interactionCount++;
        interactionIndex.set(id, n);
      }
      const p = `cmi.interactions.${n}`;
      fields.push(
        [`${p}.id`, id],
        [`${p}.type`, kind],
        [`${p}.description`, (d.question ?? '').slice(0, 250)],
        [`${p}.timestamp`, new Date().toISOString().replace(/\.(\d\d)\d*Z$/, '.$1Z')],
        [`${p}.weighting`, '1'],
        // 2004 keeps 4,000 characters of a long-fill-in (code), 250 of the rest
        [
          `${p}.learner_response`,
          kind === 'choice'
            ? d.choices.join('[,]')
            : String(d.response ?? '').slice(0, kind === 'long-fill-in' ? 4000 : 250),
        ],
        [`${p}.result`, result('incorrect')],
        [`${p}.latency`, formatSessionTime('2004', seconds)],
      );
      // a fill-in's pattern whose blanks share an answer ("12[,]12") is refused
      // (scorm-again 3.4.3: error 406, no repeats in a fill-in pattern); the
      // pattern is optional, so such an interaction goes without it
      const pattern = kind === 'choice' ? d.correctChoices.join('[,]') : String(d.correctPattern ?? '').slice(0, 250);
      const parts = pattern.split('[,]');
      if (kind !== 'long-fill-in' && (kind !== 'fill-in' || new Set(parts).size === parts.length))
        fields.push([`${p}.correct_responses.0.pattern`, pattern]);
    } else {
      // 1.2's interactions are a journal (write-only): one record per answer
      if (interactionCount >= INTERACTION_LIMIT) return;
      const p = `cmi.interactions.${interactionCount++}`;
      const time = new Date().toTimeString().slice(0, 8);
      // 1.2's numeric pattern is one number; a range of accepted answers is a fill-in's text
      const pattern =
        kind === 'choice'
          ? d.correctChoices.map((i) => i.toString(36)).join(',')
          : String(d.correctValue ?? d.correctPattern ?? '');
      fields.push(
        [`${p}.id`, again ? `${d.quizId}-attempt-${again}` : d.quizId],
        // 1.2 has no long-fill-in (code): a fill-in of its first 255 characters
        [`${p}.type`, kind === 'long-fill-in' ? 'fill-in' : kind],
        [`${p}.time`, time],
        [`${p}.weighting`, '1'],
        [
          `${p}.student_response`,
          kind === 'choice' ? d.choices.map((i) => i.toString(36)).join(',') : String(d.response ?? '').slice(0, 255),
        ],
        [`${p}.result`, result('wrong')],
        [`${p}.latency`, formatSessionTime('1.2', seconds)],
      );
      if (kind !== 'long-fill-in') fields.push([`${p}.correct_responses.0.pattern`, pattern.slice(0, 255)]);
    }
    for (const [el, value] of fields) {
      if (!set(el, value) && failed()) {
        // this LMS keeps no interactions (or no more): the score and status still go
        interactionsOn = false;
        return;
      }
    }
  }

  function writeState() {
    const all = loadProgress();
    const t = tally(questionIds, all);
    // the share as reported (4 decimals), so passed and the reported score agree (cmi5.js does the same)
    const scaled = Math.round(t.scaled * 10000) / 10000;
    const complete = t.answered === t.total;
    const suspend = host.encode(all);
    if (version === '2004') {
      set('cmi.score.raw', Math.round(t.points * 100) / 100);
      set('cmi.score.min', 0);
      set('cmi.score.max', t.total);
      set('cmi.score.scaled', Math.round(scaled * 10000) / 10000);
      set('cmi.progress_measure', t.total ? Math.round((t.answered / t.total) * 10000) / 10000 : 1);
      set('cmi.completion_status', complete ? 'completed' : 'incomplete');
      set('cmi.success_status', scaled >= passing ? 'passed' : complete ? 'failed' : 'unknown');
    } else {
      // 1.2's raw score as a percentage (Open edX divides it by 100; Moodle grades it out of 100)
      set('cmi.core.score.raw', Math.round(scaled * 10000) / 100);
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', 100);
      set('cmi.core.lesson_status', scaled >= passing ? 'passed' : complete ? 'failed' : 'incomplete');
    }
    set(names.suspend, suspend);
    set(names.sessionTime, formatSessionTime(version, (Date.now() - started) / 1000));
    // passed or every question answered: a normal exit, so the LMS closes the
    // attempt (1.2's normal exit is ""; "logout" is not it); mid-way: suspend,
    // so the next launch resumes
    set(names.exit, scaled >= passing || complete ? (version === '2004' ? 'normal' : '') : 'suspend');
  }

  let pending = false;
  const flush = () => {
    pending = false;
    if (!alive || finished) return;
    writeState();
    call(names.commit, '');
  };
  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(flush);
  };
  onProgress((e) => {
    if (e.detail?.reset) {
      writeReset(e.detail);
      win.dispatchEvent(new CustomEvent('posenc-xapi', { detail: attemptedStatement(e.detail) }));
    }
    schedule();
  });

  // "Reset my answers" is a new attempt, which a SCO cannot open in the LMS:
  // it is said in the learner's comments (2004: cmi.comments_from_learner;
  // 1.2: cmi.comments), and the answers after it are new interactions
  function writeReset(d) {
    if (!alive || finished) return;
    const text = `Reset my answers at ${new Date().toISOString()}: attempt ${d.attempt} started with new numbers${d.ids ? ` for ${d.ids.length} questions` : ''}.`;
    if (version === '2004') {
      const n = Number(get('cmi.comments_from_learner._count'));
      if (!Number.isInteger(n) || n < 0) return;
      set(`cmi.comments_from_learner.${n}.comment`, text.slice(0, 4000));
      set(`cmi.comments_from_learner.${n}.timestamp`, new Date().toISOString().replace(/\.(\d\d)\d*Z$/, '.$1Z'));
    } else {
      const before = get('cmi.comments') ?? '';
      set('cmi.comments', `${before}${before ? ' ' : ''}${text}`.slice(-4096));
    }
  }

  const statements = statementTracker({
    questionIds,
    progress: loadProgress,
    mastery: () => passing,
    send: (statement) => {
      win.dispatchEvent(new CustomEvent('posenc-xapi', { detail: statement }));
    },
  });
  win.document?.addEventListener('pe-quiz-answered', (e) => {
    const d = e.detail;
    // a quiz's answer carries its choices; an exercise's, its typed response
    if (!d || typeof d.quizId !== 'string' || ((d.kind ?? 'choice') === 'choice' && !Array.isArray(d.choices))) return;
    try {
      statements(d);
    } catch (error) {
      log(`xAPI statement not made: ${error.message}`);
    }
    if (alive && !finished) writeInteraction(d);
    schedule();
  });

  let finished = false;
  win.addEventListener('pagehide', () => {
    if (finished) return;
    if (pending) flush();
    writeState();
    call(names.commit, '');
    finished = true;
    call(names.finish, '');
  });

  // the status and score from the first moment, so the LMS shows the attempt as started
  schedule();
  return {
    version,
    api,
    get passing() {
      return passing;
    },
    get connected() {
      return alive && !finished;
    },
  };
}
