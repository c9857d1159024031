// The README's two screenshots, in Debian's headless Chromium (after
// `npm run build`), light theme, one device pixel per CSS pixel:
//   docs/img/lesson.png  the lesson page (web/index.html) at section 4's clock dials
//   docs/img/widget.png  <rope-clock> embedded in another course's page
//                        (web/examples/course-page.html)
//   node scripts/build/docs-shots.mjs [--out=docs/img]
// Each is kept small (a viewport, not the whole page); the script prints
// their sizes and fails if a page logs an error.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(root, process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? 'docs/img');
mkdirSync(out, { recursive: true });

const server = createStaticServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
const errors = [];

async function shot(url, file, { width, height, ready, scrollTo = null, clipFrom = null }) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: 'light', reducedMotion: 'reduce' });
  page.on('console', (m) => m.type() === 'error' && errors.push(`${file}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${file}: ${e}`));
  await page.goto(`${base}${url}`);
  await page.waitForFunction(ready, null, { timeout: 30000 });
  if (scrollTo) {
    // scrolled again on every poll: sections above it lay out as they come
    // near the screen (content-visibility), which moves it
    await page.waitForFunction(
      (sel) => {
        const el = document.querySelector(sel);
        el.scrollIntoView({ block: 'start' });
        return el.matches('[data-ready]');
      },
      scrollTo,
      { timeout: 30000, polling: 250 },
    );
    await page.waitForTimeout(500);
    // down to its dials, past its controls
    await page.evaluate((sel) => {
      document.querySelector(sel).scrollIntoView({ block: 'start' });
      scrollBy(0, 300);
    }, scrollTo);
  }
  // fonts and the frame after the last update
  await page.evaluate(() =>
    document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))),
  );
  const clip = clipFrom
    ? await page.evaluate(
        ({ clipFrom, width, height }) => {
          const top = document.querySelector(clipFrom).getBoundingClientRect().top + scrollY;
          return { x: 0, y: Math.max(0, top - 16), width, height };
        },
        { clipFrom, width, height },
      )
    : undefined;
  const target = path.join(out, file);
  await page.screenshot({ path: target, clip, fullPage: Boolean(clip) });
  await page.close();
  console.log(`docs-shots: ${path.relative(root, target)} (${statSync(target).size.toLocaleString('en')} bytes)`);
}

try {
  await shot('/', 'lesson.png', {
    width: 1100,
    height: 560,
    ready: () => document.getElementById('build-info')?.textContent.startsWith('Running now'),
    // section 4 (RoPE), at its clock dials
    scrollTo: '#rope rope-clock',
  });
  await shot('/examples/course-page.html', 'widget.png', {
    width: 640,
    height: 940,
    ready: () => document.querySelector('rope-clock[data-ready]'),
    clipFrom: 'main > h2',
  });
} finally {
  await browser.close();
  server.close();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
