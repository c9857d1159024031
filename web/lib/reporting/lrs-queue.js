// Sending xAPI statements to a learning record store without ever holding up
// the page: add() only writes the statement to storage (localStorage, under
// posenc-course:xapi-queue:v1:<endpoint>) and returns; a loop posts what is
// stored in batches (a JSON array, POST <endpoint>statements) and removes a
// statement only once the LRS has it, so nothing is lost across a reload or
// an offline spell (the next page with the same endpoint sends it; so does
// the browser's `online` event).
//
// What the LRS answers decides what happens next:
//   2xx                  stored: removed from the queue
//   network error, timeout, 408, 429, 5xx
//                        kept; tried again after a backoff that doubles
//                        (retryBaseMs, 2×, 4×, ... up to retryCapMs, each
//                        between half and all of that: jitter, so that many
//                        learners do not come back at once; 429/503's
//                        Retry-After is honoured up to the cap)
//   409 Conflict         the LRS already has a statement with one of these ids
//                        (a retry whose first answer was lost: the statement
//                        id is a UUID made at the answer, so it is ours;
//                        Learning Locker answers such an identical repeat
//                        with 200 and keeps one, other LRSs with 409); the
//                        batch is sent again one statement at a time, and a
//                        lone statement answered 409 counts as stored
//   400, 413             the LRS refuses something in the batch: sent one at a
//                        time; a lone statement still refused is set aside
//                        (posenc-course:xapi-rejected:v1:<endpoint>, the last
//                        100, with the LRS's answer) so it cannot block the
//                        rest; console.warn and a status say so
//   401, 403             the credentials are wrong or expired: sending stops
//                        (the queue is kept for a later launch with good
//                        ones); console.error and a status say so
//   any other answer     the endpoint is wrong (404, 405...): sending stops,
//                        as for 401
// Retries are idempotent: a statement keeps its id in every attempt.
//
// Where storage is refused (a sandboxed iframe, a full quota), the queue
// lives in memory: it still retries, but a reload loses it.
export const XAPI_VERSION = '1.0.3';
export const QUEUE_PREFIX = 'posenc-course:xapi-queue:v1:';
export const REJECTED_PREFIX = 'posenc-course:xapi-rejected:v1:';
/** At most this many statements wait; beyond it the oldest are dropped (and said so). */
export const QUEUE_LIMIT = 2000;
const REJECTED_LIMIT = 100;

// the stored list under one key; in memory when storage fails
function storedList(storage, key, warn) {
  let memory = null;
  let warned = false;
  return {
    read() {
      if (memory) return memory.slice();
      try {
        const raw = storage?.getItem(key);
        const list = raw ? JSON.parse(raw) : [];
        return Array.isArray(list) ? list.filter((s) => s && typeof s === 'object' && typeof s.id === 'string') : [];
      } catch (error) {
        if (!warned) warn(`xAPI: the stored queue (${key}) could not be read (${error.message}); starting afresh`);
        warned = true;
        memory = [];
        return [];
      }
    },
    write(list) {
      try {
        if (!storage) throw new Error('no storage');
        if (list.length) storage.setItem(key, JSON.stringify(list));
        else storage.removeItem(key);
        memory = null;
      } catch (error) {
        if (!warned)
          warn(`xAPI: statements are kept in memory only (${error.message}): a reload before they are sent loses them`);
        warned = true;
        memory = list.slice();
      }
    },
  };
}

function defaultStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // a sandboxed iframe throws on the very access
    return null;
  }
}

/**
 * A queue for one LRS. Options: endpoint (ending in "/"), auth (the
 * Authorization header value, or null), onStatus({ state, message, pending,
 * sent, rejected, endpoint }) with state 'idle' | 'waiting' | 'sending' |
 * 'retrying' | 'offline' | 'stopped'; and, for tests and odd hosts,
 * storage, fetch, batchSize, batchDelayMs, timeoutMs, retryBaseMs, retryCapMs,
 * random. Returns { add(statement), flush(), pending(), waiting(), stop(), state }.
 */
export function createLrsQueue({
  endpoint,
  auth = null,
  onStatus = () => {},
  storage = defaultStorage(),
  fetch: fetchFn = globalThis.fetch?.bind(globalThis),
  batchSize = 25,
  batchDelayMs = 200,
  timeoutMs = 15_000,
  retryBaseMs = 1000,
  retryCapMs = 60_000,
  random = Math.random,
} = {}) {
  if (typeof endpoint !== 'string' || !/^https?:\/\/.+\/$/.test(endpoint))
    throw new TypeError(
      `createLrsQueue: endpoint must be an http(s) address ending in "/"; got ${String(endpoint).slice(0, 80)}`,
    );
  if (typeof fetchFn !== 'function') throw new TypeError('createLrsQueue: no fetch in this environment');
  const url = `${endpoint}statements`;
  const headers = { 'Content-Type': 'application/json', 'X-Experience-API-Version': XAPI_VERSION };
  if (auth) headers.Authorization = auth;
  const queue = storedList(storage, QUEUE_PREFIX + endpoint, console.warn);
  const rejectedList = storedList(storage, REJECTED_PREFIX + endpoint, console.warn);

  let state = 'idle';
  let message = '';
  let running = null;
  let timer = 0;
  let timerIsRetry = false;
  let failures = 0;
  let halted = false;
  let sent = 0;
  let rejected = 0;

  function setState(next, text = '') {
    state = next;
    message = text;
    onStatus({ state, message, pending: queue.read().length, sent, rejected, endpoint });
  }

  function remove(ids) {
    const gone = new Set(ids);
    queue.write(queue.read().filter((s) => !gone.has(s.id)));
  }

  // one POST: { kind: 'ok' | 'conflict' | 'refused' | 'retry' | 'stop', status, text, retryAfterMs }
  async function post(batch) {
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const r = await fetchFn(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(batch),
        signal: abort.signal,
        credentials: 'omit',
      });
      const text = (await r.text()).slice(0, 300);
      const s = r.status;
      const seconds = Number(r.headers.get('Retry-After'));
      const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
      if (s >= 200 && s < 300) return { kind: 'ok', status: s };
      if (s === 409) return { kind: 'conflict', status: s, text };
      if (s === 400 || s === 413) return { kind: 'refused', status: s, text };
      if (s === 408 || s === 429 || s >= 500) return { kind: 'retry', status: s, text, retryAfterMs };
      return { kind: 'stop', status: s, text };
    } catch (error) {
      const why = abort.signal.aborted
        ? `gave no answer within ${timeoutMs / 1000} s`
        : `is unreachable (${error.message})`;
      return { kind: 'retry', status: 0, text: why, retryAfterMs: 0 };
    } finally {
      clearTimeout(timeout);
    }
  }

  function setAside(statement, outcome) {
    const list = rejectedList.read();
    list.push({ statement, status: outcome.status, answer: outcome.text, at: new Date().toISOString() });
    rejectedList.write(list.slice(-REJECTED_LIMIT));
    rejected += 1;
    remove([statement.id]);
    console.warn(
      `xAPI: the LRS refused statement ${statement.id} (${outcome.status} ${outcome.text}); set aside under ${REJECTED_PREFIX}${endpoint}, the others go on`,
    );
  }

  const said = (o) => (o.status ? `answered ${o.status}${o.text ? ` ${o.text}` : ''}` : o.text);

  // a retry or a stop ends this run; true when it did
  function ended(o) {
    if (o.kind === 'retry') {
      failures += 1;
      const wait = Math.min(retryCapMs, retryBaseMs * 2 ** (failures - 1));
      const delay = Math.min(retryCapMs, Math.max(o.retryAfterMs, wait / 2 + (random() * wait) / 2));
      if (failures === 1) console.warn(`xAPI: the LRS ${said(o)}; statements are kept and sent again later`);
      schedule(delay, true);
      setState('retrying', `The LRS ${said(o)}; trying again in ${Math.round(delay / 1000)} s.`);
      return true;
    }
    if (o.kind === 'stop') {
      halted = true;
      const why =
        o.status === 401 || o.status === 403 ? 'refused the credentials' : 'is not an xAPI statements resource here';
      const text = `The LRS ${why} (${said(o)}): sending stopped; ${queue.read().length} statements are kept for a launch with ${o.status === 401 || o.status === 403 ? 'valid credentials' : 'the right endpoint'}.`;
      console.error(`xAPI: ${text}`);
      setState('stopped', text);
      return true;
    }
    return false;
  }

  async function run() {
    while (!halted) {
      const list = queue.read();
      if (!list.length) {
        failures = 0;
        setState('idle');
        return;
      }
      if (globalThis.navigator?.onLine === false) {
        setState('offline', 'The browser is offline; statements are kept until it is back.');
        return;
      }
      const batch = list.slice(0, batchSize);
      setState('sending');
      const o = await post(batch);
      if (o.kind === 'ok') {
        remove(batch.map((s) => s.id));
        sent += batch.length;
        failures = 0;
        continue;
      }
      if (ended(o)) return;
      // 409 or 400 in a batch: which statement? One at a time.
      for (const s of batch) {
        if (halted) return;
        const one = batch.length === 1 ? o : await post([s]);
        if (one.kind === 'ok' || one.kind === 'conflict') {
          // conflict: it is there already (our id); a retry of a lost answer
          remove([s.id]);
          sent += 1;
        } else if (one.kind === 'refused') setAside(s, one);
        else if (ended(one)) return;
      }
    }
  }

  function start() {
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(delay, retry = false) {
    if (halted) return;
    // new statements do not cut a backoff short
    if (timer && (timerIsRetry || !retry)) return;
    clearTimeout(timer);
    timerIsRetry = retry;
    timer = setTimeout(() => {
      timer = 0;
      timerIsRetry = false;
      start();
    }, delay);
  }

  const online = () => flush();
  globalThis.addEventListener?.('online', online);

  /** Back online, or told to: try now, whatever the backoff said. */
  function flush() {
    if (halted) return Promise.resolve();
    clearTimeout(timer);
    timer = 0;
    timerIsRetry = false;
    return (running ?? Promise.resolve()).then(start);
  }

  // what an earlier page left
  if (queue.read().length) schedule(0);

  return {
    /** Keeps the statement (storage) and sends it soon; never waits. */
    add(statement) {
      if (!statement || typeof statement !== 'object' || typeof statement.id !== 'string')
        throw new TypeError('lrs-queue: a statement needs its id');
      const list = queue.read();
      if (list.some((s) => s.id === statement.id)) return;
      list.push(statement);
      if (list.length > QUEUE_LIMIT)
        console.warn(
          `xAPI: more than ${QUEUE_LIMIT} statements wait for the LRS; the oldest ${list.length - QUEUE_LIMIT} are dropped`,
        );
      queue.write(list.slice(-QUEUE_LIMIT));
      if (halted) return;
      if (state === 'idle') setState('waiting');
      schedule(batchDelayMs);
    },
    flush,
    pending: () => queue.read().length,
    /** The statements not sent yet, oldest first (a copy). */
    waiting: () => queue.read(),
    /** Sends nothing more (what is stored stays stored). */
    stop() {
      halted = true;
      clearTimeout(timer);
      timer = 0;
      globalThis.removeEventListener?.('online', online);
    },
    get state() {
      return state;
    },
    get message() {
      return message;
    },
    get sent() {
      return sent;
    },
    get rejected() {
      return rejected;
    },
  };
}
