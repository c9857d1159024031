// `npm start`'s server: serves web/ on http://localhost:8080, with the right
// MIME type for .wasm and .mjs, and nothing else. If 8080 is taken (another
// copy already running, another project's server) it says so and takes the
// next free port, printing the address it really serves; PORT=9000 asks for
// one port exactly, and a taken one is then a plain error, not a stack trace.
import { createServer } from 'node:http';
import net from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
// /vendor/ serves TensorFlow.js from node_modules (a devDependency), for the
// benchmark page (web/bench/bench.html) only.
const vendor = path.resolve(root, '../node_modules/@tensorflow');
const DEFAULT_PORT = 8080;
// how many ports after 8080 to try before giving up
const PORT_TRIES = 20;
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * A static file server for `dir`. options.headers: extra response headers
 * (the tests add a Content-Security-Policy). Every response allows any
 * origin to read it (CORS), so a course page elsewhere can load widgets.js.
 */
export function createStaticServer(dir = root, { headers = {} } = {}) {
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      const [base, rest] = url.pathname.startsWith('/vendor/')
        ? [vendor, url.pathname.slice('/vendor'.length)]
        : [dir, url.pathname];
      let file = path.normalize(path.join(base, decodeURIComponent(rest)));
      if (file !== base && !file.startsWith(base + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        'Access-Control-Allow-Origin': '*',
        ...headers,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
}

/**
 * Listens on `port` (127.0.0.1); if it is taken and `tries` > 1, on the next
 * ports in turn. Resolves to the port it listens on; rejects with the last
 * error (err.code 'EADDRINUSE', 'EACCES', ...) and err.tried, the ports tried.
 */
export async function listenFrom(server, port, tries = 1) {
  const tried = [];
  for (let p = port; p < port + tries && p <= 65535; p++) {
    tried.push(p);
    try {
      await new Promise((resolve, reject) => {
        const onError = (error) => (server.off('listening', onListening), reject(error));
        const onListening = () => (server.off('error', onError), resolve());
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(p, '127.0.0.1');
      });
      return p;
    } catch (error) {
      // only a taken port is worth trying the next one for
      if (error.code !== 'EADDRINUSE' || p + 1 >= port + tries) {
        error.tried = tried;
        throw error;
      }
    }
  }
  throw Object.assign(new Error(`no port from ${port} to ${port + tries - 1} is free`), { code: 'EADDRINUSE', tried });
}

/** Listens on a free port of 127.0.0.1 (a test's server); resolves to its URL, http://127.0.0.1:<port>. */
export async function listenLocal(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

/** A port of 127.0.0.1 free just now, for a program that opens its own server on it. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// The port PORT names: { port } or { error } (a message for the learner).
function requestedPort(text) {
  if (text === undefined || text === '') return { port: null };
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    return { error: `PORT must be a port number from 1 to 65535; got "${text}".` };
  return { port };
}

async function main() {
  const asked = requestedPort(process.env.PORT);
  if (asked.error) {
    console.error(asked.error);
    process.exit(1);
  }
  const server = createStaticServer();
  let port;
  try {
    // PORT=... means that port and no other; without it, 8080 or the next free one
    port = asked.port ? await listenFrom(server, asked.port, 1) : await listenFrom(server, DEFAULT_PORT, PORT_TRIES);
  } catch (error) {
    const first = asked.port ?? DEFAULT_PORT;
    if (error.code === 'EADDRINUSE' && asked.port) {
      console.error(
        `Port ${first} is already in use (PORT=${first}): another server is running there. Stop it, or choose another port, e.g. PORT=${first + 1} npm start`,
      );
    } else if (error.code === 'EADDRINUSE') {
      console.error(
        `Ports ${first} to ${first + PORT_TRIES - 1} are all in use. Stop one of the servers running there, or choose a port: PORT=9000 npm start`,
      );
    } else if (error.code === 'EACCES') {
      console.error(
        `Not allowed to listen on port ${first} (ports below 1024 need root). Choose another: PORT=8080 npm start`,
      );
    } else {
      console.error(`Could not start the server on port ${first}: ${error.message}`);
    }
    process.exit(1);
  }
  if (port !== DEFAULT_PORT && !asked.port) {
    console.log(
      `Port ${DEFAULT_PORT} is already in use (another server is running there), so this one serves on port ${port}.`,
    );
  }
  console.log(`Serving the lesson at http://localhost:${port}/  (Ctrl+C to stop)`);
  console.log(`  one widget for an iframe: http://localhost:${port}/embed.html?widget=rope-clock`);
  console.log(`  an example course page embedding widgets: http://localhost:${port}/examples/course-page.html`);
  console.log(`  benchmarks: http://localhost:${port}/bench/bench.html and /bench/bench-widgets.html`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
