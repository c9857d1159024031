// `npm start`'s server (scripts/run/serve.mjs) when its port is taken: with PORT
// set it says so in one plain line and exits 1 (no stack trace); without
// PORT it takes the next free port after 8080 and prints the address it
// really serves, which answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/run/serve.mjs');

// A listening socket on `port` (0: any free one), or null if that port is already taken.
function occupy(port) {
  return new Promise((resolve, reject) => {
    const blocker = createServer();
    blocker.once('error', (error) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
    blocker.listen(port, '127.0.0.1', () => resolve(blocker));
  });
}

// Starts serve.mjs; resolves when it prints its address or exits.
function startServe(env) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ child, stdout, stderr, code: 'timeout' }), 10000);
    child.stdout.on('data', () => {
      if (/Serving the lesson at/.test(stdout)) (clearTimeout(timer), resolve({ child, stdout, stderr, code: null }));
    });
    child.on('exit', (code) => (clearTimeout(timer), resolve({ child, stdout, stderr, code })));
  });
}

const noStackTrace = (text) =>
  assert.doesNotMatch(text, /^\s+at |node:events|Error: listen/m, `a stack trace was printed:\n${text}`);

test('PORT=<a taken port>: one plain sentence naming the port and PORT=, exit code 1', async () => {
  const blocker = await occupy(0);
  const port = blocker.address().port;
  try {
    const r = await startServe({ PORT: String(port) });
    assert.equal(r.code, 1, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`Port ${port} is already in use`));
    assert.match(r.stderr, /PORT=\d+ npm start/);
    noStackTrace(r.stderr);
  } finally {
    blocker.close();
  }
});

test('PORT that is not a port number: a plain message, exit code 1', async () => {
  const r = await startServe({ PORT: 'eighty' });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /PORT must be a port number/);
  noStackTrace(r.stderr);
});

test('8080 taken and no PORT: the server says so, takes the next free port and serves there', async () => {
  // 8080 may already be taken by someone else's server: that is the case under test too
  const blocker = await occupy(8080);
  const r = await startServe({});
  try {
    assert.equal(r.code, null, `the server did not start: ${r.stderr}`);
    noStackTrace(r.stderr);
    assert.match(r.stdout, /Port 8080 is already in use/);
    const port = Number(r.stdout.match(/Serving the lesson at http:\/\/localhost:(\d+)\//)?.[1]);
    assert.ok(port > 8080, `printed ${r.stdout}`);
    const res = await fetch(`http://127.0.0.1:${port}/favicon.png`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /image\/png/);
  } finally {
    r.child.kill();
    blocker?.close();
  }
});
