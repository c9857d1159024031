// A real learning record store for the tests: Learning Locker's statements
// service (the npm package xapi-statements 5.0.1), in memory, no database.
// It serves POST/PUT/GET /xAPI/statements, validates every statement (a bad
// one gets 400 naming the field) and stamps `stored` and `authority`.
// It has no State API (cmi5's LMS.LaunchData lives there): tests that need
// one serve it themselves.
//
//   const lrs = await startLrs();          // on a free loopback port
//   lrs.endpoint                            // 'http://127.0.0.1:<port>/xAPI/'
//   await lrs.statements()                  // every stored statement, oldest first
//   await lrs.stop(); await lrs.start();    // down and up again, same port; memory is lost
//
// Stopping the process forgets what it stored (it is in memory), so a test
// that restarts it reads back what it needs before the stop.
import { spawn } from 'node:child_process';
import { freePort } from '../../scripts/run/serve.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killTree } from '../../scripts/run/kill-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVICE = path.join(root, 'node_modules/xapi-statements/dist/index.js');
/** Any Basic credentials pass (AUTH_REPO=test); these are what the tests send. */
export const LRS_AUTH = `Basic ${Buffer.from('posenc:test').toString('base64')}`;
export const XAPI_VERSION = '1.0.3';

export async function startLrs({ port } = {}) {
  const lrs = {
    port: port ?? (await freePort()),
    child: null,
    log: '',
    get origin() {
      return `http://127.0.0.1:${this.port}`;
    },
    get endpoint() {
      return `${this.origin}/xAPI/`;
    },
    async start() {
      if (this.child) return;
      const env = {
        ...process.env,
        AUTH_REPO: 'test',
        EVENTS_REPO: 'test',
        MODELS_REPO: 'memory',
        STORAGE_REPO: 'memory',
        EXPRESS_PORT: String(this.port),
        NODE_NO_WARNINGS: '1',
      };
      const child = spawn(process.execPath, [SERVICE], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      this.child = child;
      const onData = (d) => (this.log += d);
      child.stdout.setEncoding('utf8').on('data', onData);
      child.stderr.setEncoding('utf8').on('data', onData);
      child.once('exit', () => {
        if (this.child === child) this.child = null;
      });
      const deadline = Date.now() + 20_000;
      for (;;) {
        if (this.child !== child) throw new Error(`the LRS exited while starting:\n${this.log}`);
        try {
          const r = await fetch(`${this.endpoint}statements?limit=1`, { headers: this.headers() });
          if (r.ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the LRS did not answer within 20 s:\n${this.log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      const child = this.child;
      if (!child) return;
      const exited = new Promise((r) => child.once('exit', r));
      killTree(child.pid, { group: true });
      await exited;
      this.child = null;
    },
    headers(extra = {}) {
      return { Authorization: LRS_AUTH, 'X-Experience-API-Version': XAPI_VERSION, ...extra };
    },
    /** Every statement stored, oldest first (follows `more` links). */
    async statements(query = '') {
      const out = [];
      let next = `${this.endpoint}statements?ascending=true&limit=500${query ? `&${query}` : ''}`;
      while (next) {
        const r = await fetch(next, { headers: this.headers() });
        if (!r.ok) throw new Error(`GET statements: ${r.status} ${await r.text()}`);
        const body = await r.json();
        out.push(...body.statements);
        next = body.more ? new URL(body.more, this.origin).href : null;
      }
      return out;
    },
  };
  await lrs.start();
  return lrs;
}
