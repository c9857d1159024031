// `npm run bench:browser`: the benchmark page (web/bench/bench.html) in Debian's
// headless Chromium (playwright-core). Serves web/ on a free port, runs the
// page, prints the page's table. `--quick` runs the tiny sizes.
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';

const quick = process.argv.includes('--quick');
const timeoutMs = quick ? 120_000 : 900_000;

const server = createStaticServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/bench/bench.html?auto=1${quick ? '&quick=1' : ''}`;

let status = 1;
let browser;
try {
  browser = await launchChromium();
  const product = `Chromium ${browser.version()}`;
  const tab = await browser.newPage();
  tab.on('pageerror', (e) => console.error('page exception:', e.message));
  await tab.goto(url);
  console.error(`bench:browser: ${product}, ${url}`);
  await tab
    .waitForFunction(() => ['done', 'error'].includes(document.body?.dataset.state), null, {
      timeout: timeoutMs,
      polling: 1000,
    })
    .catch(() => {});
  const page = await tab.evaluate(() => ({
    state: document.body.dataset.state ?? '',
    engine: document.getElementById('engine').textContent,
    status: document.getElementById('status').textContent,
    error: document.getElementById('error').textContent,
    rows: [...document.querySelectorAll('#results tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
  }));
  console.log(`# posenc benchmark in ${product} (${quick ? 'quick' : 'full'})\n${page.engine}\n`);
  page.rows.forEach((row, i) => {
    console.log(`| ${row.join(' | ')} |`);
    if (i === 0) console.log(`|${row.map(() => '---').join('|')}|`);
  });
  console.log(`\n${page.status}`);
  if (page.state === 'done') status = 0;
  else console.error(`bench:browser: the page ended in state '${page.state}': ${page.error}`);
} catch (e) {
  console.error(`bench:browser: ${e.message}`);
} finally {
  await browser?.close();
  server.close();
}
process.exit(status);
