// `npm run bench:browser`: the benchmark page (web/bench.html) in Debian's
// headless Chromium, driven over the DevTools protocol (--remote-debugging-pipe,
// no extra npm package). Serves web/ on a free port, runs the page, prints
// the page's table. `--quick` runs the tiny sizes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStaticServer } from './serve.mjs';

const quick = process.argv.includes('--quick');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const timeoutMs = quick ? 120_000 : 900_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const server = createStaticServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/bench.html?auto=1${quick ? '&quick=1' : ''}`;
const profile = mkdtempSync(path.join(os.tmpdir(), 'posenc-bench-'));
// The flags that work here as root (toolchain-notes.md): no sandbox, no
// background networking (this machine's network is closed).
const chrome = spawn(
  chromiumPath,
  ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
  { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
);
let stderr = '';
chrome.stderr.on('data', (d) => (stderr += d));

// CDP over the pipe: JSON messages separated by NUL bytes.
const pending = new Map();
let nextId = 0;
let buffer = '';
chrome.stdio[4].on('data', (chunk) => {
  buffer += chunk.toString();
  for (let end; (end = buffer.indexOf('\0')) >= 0; buffer = buffer.slice(end + 1)) {
    const message = JSON.parse(buffer.slice(0, end));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    } else if (message.method === 'Runtime.exceptionThrown') {
      console.error('page exception:', message.params.exceptionDetails.exception?.description ?? message.params.exceptionDetails.text);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = ++nextId;
  chrome.stdio[3].write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
  return new Promise((resolve, reject) =>
    pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result))),
  );
}
const evaluate = async (expression, sessionId) =>
  (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result.value;

let status = 1;
try {
  const { product } = await send('Browser.getVersion');
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Runtime.enable', {}, sessionId);
  await send('Page.navigate', { url }, sessionId);
  console.error(`bench:browser: ${product}, ${url}`);
  const started = Date.now();
  let state = '';
  while (Date.now() - started < timeoutMs && state !== 'done' && state !== 'error') {
    await sleep(1000);
    state = await evaluate('document.body?.dataset.state ?? ""', sessionId);
  }
  const page = await evaluate(
    `({ engine: document.getElementById('engine').textContent, status: document.getElementById('status').textContent,
        error: document.getElementById('error').textContent,
        rows: [...document.querySelectorAll('#results tr')].map((tr) => [...tr.children].map((c) => c.textContent)) })`,
    sessionId,
  );
  console.log(`# posenc benchmark in ${product} (${quick ? 'quick' : 'full'})\n${page.engine}\n`);
  page.rows.forEach((row, i) => {
    console.log(`| ${row.join(' | ')} |`);
    if (i === 0) console.log(`|${row.map(() => '---').join('|')}|`);
  });
  console.log(`\n${page.status}`);
  if (state === 'done') status = 0;
  else console.error(`bench:browser: the page ended in state '${state}': ${page.error}`);
  await send('Browser.close').catch(() => {});
} catch (e) {
  console.error(`bench:browser: ${e.message}\n${stderr.slice(-2000)}`);
} finally {
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  chrome.kill();
  await Promise.race([exited, sleep(5000)]); // Chromium still writes its profile while closing
  server.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
process.exit(status);
