// The widget part of `npm run bench`: web/bench-widgets.html in Debian's
// headless Chromium (playwright-core), once with the SIMD build and once with
// the scalar one. Returns { tag: { simd: { median, p95, max }, scalar: {...} } }.
//   node scripts/bench-widgets.mjs [--quick]     prints the table alone
import { pathToFileURL } from 'node:url';
import { createStaticServer } from './serve.mjs';
import { launchChromium } from './chromium.mjs';

export async function benchWidgets({ quick = false, onProgress = () => {} } = {}) {
  const server = createStaticServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  const out = {};
  try {
    for (const build of ['simd', 'scalar']) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const frames = quick ? 10 : 100;
      await page.goto(`http://127.0.0.1:${server.address().port}/bench-widgets.html?auto=1&simd=${build === 'simd' ? 1 : 0}&frames=${frames}`);
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 300_000 });
      const results = await page.evaluate(() => window.widgetBenchResults ?? window.widgetBenchError);
      if (!Array.isArray(results)) throw new Error(`widget benchmark failed (${build}): ${results} ${errors.join('; ')}`);
      if (errors.length) throw new Error(`widget benchmark page errors (${build}): ${errors.join('; ')}`);
      for (const r of results) {
        if (r.error) throw new Error(`<${r.tag}> showed an error during the benchmark: ${r.error}`);
        (out[r.tag] ??= {})[build] = { median: r.median, p95: r.p95, max: r.max, n: r.n };
        onProgress(`${build} ${r.tag}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
      }
      await page.close();
    }
    return { results: out, browser: browser.version() };
  } finally {
    await browser.close();
    server.close();
  }
}

/** A Markdown table: widget, SIMD median / p95, scalar median / p95, p95 under 16 ms? */
export function widgetTable(results) {
  const f = (x) => (x === undefined ? '-' : x.toFixed(2));
  const lines = ['| widget update (default size) | simd median | simd p95 | scalar median | scalar p95 | p95 < 16 ms |', '|---|---:|---:|---:|---:|:---:|'];
  for (const [tag, r] of Object.entries(results)) {
    const ok = Math.max(r.simd?.p95 ?? Infinity, r.scalar?.p95 ?? Infinity) < 16 ? 'yes' : 'no';
    lines.push(`| \`<${tag}>\` | ${f(r.simd?.median)} | ${f(r.simd?.p95)} | ${f(r.scalar?.median)} | ${f(r.scalar?.p95)} | ${ok} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { results, browser } = await benchWidgets({ quick: process.argv.includes('--quick'), onProgress: (t) => process.stderr.write(`  ${t}\n`) });
  console.log(`Chromium ${browser}, headless`);
  console.log(widgetTable(results));
}
