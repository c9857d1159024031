// `npm start`'s server: serves web/ on http://localhost:8080 (PORT to
// change), with the right MIME type for .wasm and .mjs, and nothing else.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web');
// /vendor/ serves TensorFlow.js from node_modules (a devDependency), for the
// benchmark page (web/bench.html) only.
const vendor = path.resolve(root, '../node_modules/@tensorflow');
const port = Number(process.env.PORT ?? 8080);
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

if (import.meta.url === `file://${process.argv[1]}`) {
  createStaticServer().listen(port, '127.0.0.1', () => {
    console.log(`Serving the lesson at http://localhost:${port}/  (Ctrl+C to stop)`);
    console.log(`  one widget for an iframe: http://localhost:${port}/embed.html?widget=rope-clock`);
    console.log(`  an example course page embedding widgets: http://localhost:${port}/examples/course-page.html`);
    console.log(`  benchmarks: http://localhost:${port}/bench.html and /bench-widgets.html`);
  });
}
