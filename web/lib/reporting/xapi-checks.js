// The checks of configureXapi's options (web/lib/reporting/xapi.js): each takes what
// a page or a launch gave and returns the cleaned value, or { error } with
// a sentence that names the option and quotes (a little of) what was given.
// Nothing here keeps state.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
// BCP 47, loosely: en, en-US, zh-Hant-TW
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

export const isPlainObject = (v) =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

// a value as a message quotes it
export const show = (v) =>
  typeof v === 'string'
    ? JSON.stringify(v.slice(0, 80))
    : v === null
      ? 'null'
      : typeof v === 'object'
        ? 'an object'
        : String(v);

function absoluteUrl(v) {
  if (typeof v !== 'string' || /\s/.test(v)) return null;
  try {
    return new URL(v);
  } catch {
    return null;
  }
}

/** { endpoint } or { error }. */
export function checkEndpoint(v) {
  const u = absoluteUrl(v);
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:'))
    return {
      error: `The LRS endpoint must be an http(s) address such as https://lrs.example.org/xapi/; got ${show(v)}.`,
    };
  if (u.username || u.password) return { error: 'The LRS endpoint must not hold credentials; give them as auth.' };
  if (u.search || u.hash) return { error: `The LRS endpoint must not have a query or a fragment; got ${show(v)}.` };
  return { endpoint: u.href.endsWith('/') ? u.href : `${u.href}/` };
}

/** { auth } or { error }. */
export function checkAuth(v) {
  if (isPlainObject(v) && typeof v.username === 'string' && typeof v.password === 'string') {
    const bytes = new TextEncoder().encode(`${v.username}:${v.password}`);
    return { auth: `Basic ${btoa(String.fromCharCode(...bytes))}` };
  }
  // a header value: a scheme and its credentials, printable ASCII only
  if (typeof v === 'string' && /^[A-Za-z][A-Za-z0-9._~+-]* +[\x21-\x7e]+$/.test(v)) return { auth: v };
  return {
    error: 'The auth must be an Authorization header value such as "Basic dXNlcjpwYXNz" (or { username, password }).',
  };
}

/** { base } or { error }. */
export function checkBase(v) {
  const u = absoluteUrl(v);
  if (!u || u.search || u.hash || !/^[a-z][a-z0-9+.-]*:/i.test(v))
    return {
      error: `The activity IRI base must be an absolute IRI without query or fragment, such as https://courses.example.org/positional-encoding; got ${show(v)}.`,
    };
  return { base: v.replace(/\/+$/, '') };
}

// TinCan launch's older form gives each field as a one-item array, and an
// account as { accountServiceHomePage, accountName }
function legacyAgent(v) {
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = Array.isArray(x) && x.length === 1 ? x[0] : x;
  if (isPlainObject(out.account) && 'accountName' in out.account)
    out.account = { homePage: out.account.accountServiceHomePage, name: out.account.accountName };
  return out;
}

/** { agent } (cleaned, objectType Agent) or { error }: is `v` an xAPI Agent with exactly one identifier? */
export function checkAgent(v) {
  if (!isPlainObject(v))
    return { error: `expected an object such as {"name":"Ann","mbox":"mailto:ann@example.org"}; got ${show(v)}.` };
  const a = legacyAgent(v);
  if (a.objectType !== undefined && a.objectType !== 'Agent')
    return { error: `objectType must be "Agent"; got ${show(a.objectType)}.` };
  const known = ['objectType', 'name', 'mbox', 'mbox_sha1sum', 'openid', 'account'];
  const extra = Object.keys(a).filter((k) => !known.includes(k));
  if (extra.length)
    return {
      error: `unknown field ${extra.map((k) => k.slice(0, 40)).join(', ')} (an Agent has ${known.join(', ')}).`,
    };
  const ifis = ['mbox', 'mbox_sha1sum', 'openid', 'account'].filter((k) => a[k] !== undefined);
  if (ifis.length !== 1)
    return {
      error: `it needs exactly one of mbox, mbox_sha1sum, openid, account; got ${ifis.length ? ifis.join(', ') : 'none'}.`,
    };
  if (a.name !== undefined && typeof a.name !== 'string') return { error: 'name must be a text.' };
  if (a.mbox !== undefined && !(typeof a.mbox === 'string' && /^mailto:[^@\s]+@[^@\s]+$/.test(a.mbox)))
    return { error: `mbox must be a mailto: address; got ${show(a.mbox)}.` };
  if (a.mbox_sha1sum !== undefined && !(typeof a.mbox_sha1sum === 'string' && /^[0-9a-f]{40}$/i.test(a.mbox_sha1sum)))
    return { error: 'mbox_sha1sum must be 40 hex digits.' };
  if (a.openid !== undefined && !absoluteUrl(a.openid))
    return { error: `openid must be a URI; got ${show(a.openid)}.` };
  if (a.account !== undefined) {
    const homePage = absoluteUrl(a.account?.homePage);
    if (
      !isPlainObject(a.account) ||
      !homePage ||
      !/^https?:$/.test(homePage.protocol) ||
      typeof a.account.name !== 'string' ||
      !a.account.name
    )
      return { error: 'account must be { homePage: an http(s) address, name: a text }.' };
    a.account = { homePage: a.account.homePage, name: a.account.name };
  }
  return {
    agent: {
      objectType: 'Agent',
      ...Object.fromEntries(
        known
          .slice(1)
          .filter((k) => a[k] !== undefined)
          .map((k) => [k, a[k]]),
      ),
    },
  };
}
