// Firefox ESR and WebKitGTK behind one small page API, so the same checks run
// in both (tests/browser/engines/checks.mjs). Each engine is its own Debian
// package driven by a library from npm:
//   firefox  /usr/bin/firefox-esr, puppeteer-core over WebDriver BiDi (headless)
//   webkit   WebKitGTK's MiniBrowser through /usr/bin/WebKitWebDriver and
//            selenium-webdriver (W3C WebDriver classic); it needs a display,
//            so scripts/test/test.mjs runs the WebKit tests under xvfb-run
// (toolchain notes: ../shared/reference/toolchain-notes.md).
//
// Errors. Firefox reports console errors and uncaught exceptions over BiDi,
// engine messages included (malformed MathML, CSP). WebKitWebDriver speaks no
// BiDi, so the test server puts a probe script (probe.js, served from 'self',
// allowed by the strict CSP) first in every HTML page: it records
// console.error, uncaught errors and rejections, failed resource loads and
// CSP violations in window.__peProbe, which the page API reads before each
// navigation. The probe is injected for both engines, so both report CSP
// violations the same way.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { createStaticServer, freePort, listenLocal } from '../../../scripts/run/serve.mjs';
import { killTree } from '../../../scripts/run/kill-tree.mjs';

export const FIREFOX_PATH = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export const PROBE = readFileSync(new URL('./probe.js', import.meta.url), 'utf8');
const PROBE_TAG = '<script src="/__pe-probe.js"></script>';

/** Puts the probe first in an HTML document: as a file from 'self', or inline (file://). */
export function injectProbe(html, inline = false) {
  const tag = inline ? `<script>${PROBE}</script>` : PROBE_TAG;
  return html.replace(/<head[^>]*>/i, (m) => `${m}\n${tag}`);
}

/** The static server of `npm start` (same options), with the probe in every HTML page. */
export async function startProbedServer(options) {
  const inner = createStaticServer(undefined, options);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/__pe-probe.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', ...(options?.headers ?? {}) }).end(PROBE);
      return;
    }
    if (url.pathname === '/__pe-frame.html') {
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...(options?.headers ?? {}) })
        .end(framePage(url.searchParams));
      return;
    }
    // buffer HTML responses of the inner server and inject the probe
    const { writeHead, end } = res;
    let html = false;
    res.writeHead = function (status, headers = {}) {
      html = /text\/html/.test(headers['Content-Type'] ?? '');
      if (html) delete headers['Content-Length'];
      return writeHead.call(this, status, headers);
    };
    res.end = function (body, ...rest) {
      if (html && body) body = injectProbe(body.toString('utf8'));
      return end.call(this, body, ...rest);
    };
    inner.emit('request', req, res);
  });
  return { server, url: await listenLocal(server) };
}

/**
 * /__pe-frame.html?src=/&width=375&height=812: a page of this server holding
 * one borderless iframe of that size (CSS px), same origin. A page laid out
 * in it has a viewport exactly that wide, whatever the window's own minimum
 * width (MiniBrowser's is 447 CSS px); the page API's enterFrame() works in it.
 */
function framePage(params) {
  const int = (name, fallback) => Math.min(4000, Math.max(1, Number.parseInt(params.get(name) ?? '', 10) || fallback));
  const src = params.get('src') ?? '/';
  if (!src.startsWith('/') || src.startsWith('//'))
    return '<!doctype html><title>frame</title><p>src must be a path of this server</p>';
  const attr = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return injectProbe(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frame</title></head><body><iframe title="page" src="${attr}" width="${int('width', 375)}" height="${int('height', 812)}" frameborder="0"></iframe></body></html>`,
  );
}

// errors the probe recorded since the page loaded, read before it goes away
const READ_PROBE = () => {
  const p = window.__peProbe;
  if (!p) return { errors: ['probe: the page ran without the error probe'], violations: [] };
  const out = { errors: p.errors.splice(0), violations: p.violations.splice(0) };
  return out;
};

/**
 * What the pages were last asked to do ('webkit: goto http://...'), so a
 * check that stops getting answers can say where it stood.
 */
export const activity = { step: '' };
/** Printed by a check (or an engine's start) that hung and ran again; scripts/test/test.mjs counts it. */
export const RETRIED_MARK = 'RETRIED AFTER A HANG:';
const step = (engine, what) => (activity.step = `${engine}: ${what}`.slice(0, 200));
const fnName = (fn) => fn.name || fn.toString().slice(0, 60).replace(/\s+/g, ' ');

// ------------------------------------------------------------------ Firefox
async function launchFirefox({ dark = false } = {}) {
  if (!existsSync(FIREFOX_PATH)) throw new Error(`no Firefox at ${FIREFOX_PATH} (npm test installs firefox-esr)`);
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // no network of its own (updates, telemetry, remote settings); dark mode
    // by preference, since BiDi has no media emulation for Firefox
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
      // scrollbars over the content, as on a phone (and in Chromium's tests):
      // a 375 px viewport is 375 px of page
      'ui.useOverlayScrollbars': 1,
    },
  });
  return {
    name: 'firefox',
    async newPage({ width = 1280, height = 900 } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const api = new FirefoxPage(context, page);
      await api.setViewport(width, height);
      return api;
    },
    close: () => browser.close(),
    // ends the browser and its content processes at once (it stopped answering)
    kill: () => killTree(browser.process()?.pid),
  };
}

class FirefoxPage {
  constructor(context, page) {
    this.context = context;
    this.page = page;
    this.errors = [];
    this.violations = [];
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.errors.push(`exception: ${e.message}`));
  }
  async setViewport(width, height) {
    step('firefox', `viewport ${width}x${height}`);
    await this.page.setViewport({ width, height });
  }
  async drain() {
    const got = await this.page.evaluate(READ_PROBE).catch(() => null);
    // the probe's console.error records also arrive over BiDi: keep BiDi's
    if (got) this.violations.push(...got.violations);
  }
  async goto(url) {
    this.frame = null;
    await this.drain();
    step('firefox', `goto ${url}`);
    await this.page.goto(url, { waitUntil: 'load' });
  }
  async reload() {
    await this.drain();
    step('firefox', 'reload');
    await this.page.reload({ waitUntil: 'load' });
  }
  evaluate(fn, ...args) {
    step('firefox', `evaluate ${fnName(fn)}`);
    return (this.frame ?? this.page).evaluate(fn, ...args);
  }
  /** Runs evaluate() in the iframe `selector` (of any origin, once it has a document) until leaveFrame() or goto(). */
  async enterFrame(selector = 'iframe') {
    step('firefox', `enter the frame ${selector}`);
    const element = await this.page.$(selector);
    this.frame = await element.contentFrame();
  }
  leaveFrame() {
    this.frame = null;
  }
  async press(key) {
    const [mod, k] = key.includes('+') ? key.split('+') : [null, key];
    step('firefox', `press ${key}`);
    if (mod) await this.page.keyboard.down(mod);
    await this.page.keyboard.press(k === 'Space' ? ' ' : k);
    if (mod) await this.page.keyboard.up(mod);
  }
  async screenshot(file) {
    step('firefox', `screenshot ${file}`);
    await this.page.screenshot({ path: file });
  }
  async close() {
    await this.drain();
    step('firefox', 'close the page');
    await this.context.close();
  }
}

// ------------------------------------------------------------------ WebKit
// A session normally starts in a second or two. Once in a fresh-clone run
// WebKitWebDriver took the request and MiniBrowser never came up (its web
// process left defunct): the check's 4-minute hang limit caught it. A
// session that has not started after this long gets a fresh driver and one
// more try instead. POSENC_SESSION_START_MS sets it (1 takes that path for
// every session).
const SESSION_START_MS =
  Number(process.env.POSENC_SESSION_START_MS) > 0 ? Number(process.env.POSENC_SESSION_START_MS) : 60_000;

async function launchWebKit({ env = {} } = {}) {
  for (const f of [WEBKIT_DRIVER, MINIBROWSER])
    if (!existsSync(f)) throw new Error(`no ${f} (npm test installs webkit2gtk-driver)`);
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    throw new Error('WebKitGTK needs a display: run under xvfb-run -a (npm test does)');
  const { Builder } = await import('selenium-webdriver');
  let driver; // { process, port, exit }: the WebKitWebDriver serving this engine's sessions
  async function startDriver() {
    const port = await freePort();
    // the driver starts MiniBrowser with its own environment: JSC_useWasmSIMD=0 goes here
    const child = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const exit = new Promise((resolve) => child.once('exit', resolve));
    for (let i = 0; ; i++) {
      const up = await new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (up) break;
      if (i > 100) {
        killTree(child.pid);
        throw new Error('WebKitWebDriver did not start');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    driver = { process: child, port, exit };
  }
  await startDriver();
  const sessions = [];
  const build = () =>
    new Builder()
      .usingServer(`http://127.0.0.1:${driver.port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
      })
      .build();
  const open = async () => {
    step('webkit', 'start a session (MiniBrowser)');
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, SESSION_START_MS, null)));
    let session = await Promise.race([build(), late]).finally(() => clearTimeout(timer));
    if (!session) {
      step(
        'webkit',
        `start a session (MiniBrowser) again, with a fresh driver: none started in ${SESSION_START_MS / 1000} s`,
      );
      console.log(
        `# ${RETRIED_MARK} no WebKit session started in ${SESSION_START_MS / 1000} s; a fresh WebKitWebDriver tries once more.`,
      );
      killTree(driver.process.pid);
      await startDriver();
      session = await build();
    }
    await session.manage().setTimeouts({ script: 120_000, pageLoad: 120_000 });
    sessions.push(session);
    return session;
  };
  return {
    name: 'webkit',
    // a session per page: a fresh profile (localStorage) each time, as a new context in Firefox
    // (WebKitWebDriver runs one session at a time: the previous page closes)
    async newPage({ width = 1280, height = 900 } = {}) {
      while (sessions.length)
        await sessions
          .pop()
          .quit()
          .catch(() => {});
      const page = new WebKitPage(await open());
      await page.setViewport(width, height);
      return page;
    },
    async close() {
      step('webkit', 'quit');
      for (const d of sessions) await d.quit().catch(() => {});
      driver.process.kill();
      await driver.exit;
    },
    // ends the driver, MiniBrowser and its web processes at once (they stopped answering)
    kill: () => killTree(driver.process.pid),
  };
}

class WebKitPage {
  constructor(driver) {
    this.driver = driver;
    this.errors = [];
    this.violations = [];
  }
  async setViewport(width, height) {
    // the window's outer size is what WebDriver sets: correct by the chrome around the page
    step('webkit', `viewport ${width}x${height}`);
    await this.driver.manage().window().setRect({ width, height });
    for (let i = 0; i < 3; i++) {
      const [w, h] = await this.driver.executeScript('return [innerWidth, innerHeight]');
      if (w === width && h === height) return;
      const rect = await this.driver.manage().window().getRect();
      await this.driver
        .manage()
        .window()
        .setRect({ width: rect.width + width - w, height: rect.height + height - h });
    }
  }
  /**
   * Runs evaluate() and the rest in the iframe `selector` until leaveFrame()
   * or the next goto(); a same-origin frame is waited for until it has
   * loaded, a cross-origin one (whose document the parent cannot see) is
   * entered as it is: the caller waits for its sign of life.
   */
  async enterFrame(selector = 'iframe', { crossOrigin = false } = {}) {
    if (!crossOrigin)
      await this.evaluate((sel) => {
        const f = document.querySelector(sel);
        return f.contentDocument?.readyState === 'complete' && f.contentWindow.location.href !== 'about:blank'
          ? null
          : new Promise((resolve) => f.addEventListener('load', resolve, { once: true }));
      }, selector);
    step('webkit', `enter the frame ${selector}`);
    await this.driver.switchTo().frame(await this.driver.findElement({ css: selector }));
  }
  async leaveFrame() {
    step('webkit', 'back to the top-level page');
    await this.driver.switchTo().defaultContent();
  }
  async drain() {
    const got = await this.evaluate(READ_PROBE).catch(() => null);
    if (got) {
      this.errors.push(...got.errors);
      this.violations.push(...got.violations);
    }
  }
  async goto(url) {
    if ((await this.driver.getCurrentUrl()) !== 'about:blank') await this.drain();
    step('webkit', `goto ${url}`);
    await this.driver.get(url); // back in the top-level page
  }
  async reload() {
    await this.drain();
    step('webkit', 'reload');
    await this.driver.navigate().refresh();
  }
  /** Runs `fn(...args)` in the page (it may return a promise); args (or undefined) and result as JSON. */
  async evaluate(fn, ...args) {
    // an undefined argument stays undefined, as in puppeteer (JSON would make
    // it null, and null defeats a default parameter: WAIT_FOR's timeout = null
    // gave up at once, which made two checks fail at random)
    const list = args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ');
    step('webkit', `evaluate ${fnName(fn)}`);
    const r = await this.driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => (${fn.toString()})(${list}))
         .then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: String(e) + (e && e.stack ? ' at ' + e.stack : '') }));`,
    );
    if (r?.error) throw new Error(`in the page: ${r.error}`);
    return r?.value;
  }
  async press(key) {
    const { Key } = await import('selenium-webdriver');
    const name = (k) =>
      ({
        Tab: Key.TAB,
        Shift: Key.SHIFT,
        Space: Key.SPACE,
        Enter: Key.ENTER,
        ArrowDown: Key.ARROW_DOWN,
        ArrowUp: Key.ARROW_UP,
        ArrowRight: Key.ARROW_RIGHT,
        ArrowLeft: Key.ARROW_LEFT,
      })[k] ?? k;
    const actions = this.driver.actions();
    step('webkit', `press ${key}`);
    if (key.includes('+')) {
      const [mod, k] = key.split('+');
      await actions.keyDown(name(mod)).sendKeys(name(k)).keyUp(name(mod)).perform();
    } else await actions.sendKeys(name(key)).perform();
  }
  async screenshot(file) {
    step('webkit', `screenshot ${file}`);
    writeFileSync(file, Buffer.from(await this.driver.takeScreenshot(), 'base64'));
  }
  async close() {
    await this.drain();
    step('webkit', 'close the page (quit the session)');
    await this.driver.quit().catch(() => {});
  }
}

/**
 * Starts `name` ('firefox' | 'webkit'); options: { dark } (Firefox), { env }
 * (WebKit's environment). The engine: { name, newPage(), close(), kill() }.
 */
export function launchEngine(name, options) {
  step(name, 'launch');
  if (name === 'firefox') return launchFirefox(options);
  if (name === 'webkit') return launchWebKit(options);
  throw new Error(`unknown engine ${name}`);
}
