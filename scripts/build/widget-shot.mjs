// Development aid: renders one widget alone in headless Chromium, prints its
// text, any console errors, the update time, and saves a screenshot.
//   node scripts/build/widget-shot.mjs '<rope-clock d-model="8"></rope-clock>' /tmp/shot.png [--dark] [--width=375]
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';

const [markup, out = '/tmp/widget.png', ...flags] = process.argv.slice(2);
const width = Number(flags.find((f) => f.startsWith('--width='))?.split('=')[1] ?? 900);
const server = createStaticServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const browser = await launchChromium();
const page = await browser.newPage({
  viewport: { width, height: 800 },
  colorScheme: flags.includes('--dark') ? 'dark' : 'light',
});
const errors = [];
page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
page.on('pageerror', (e) => errors.push(String(e)));
const tag = markup.match(/<([a-z0-9-]+)/)[1];
await page.goto(`http://127.0.0.1:${port}/widgets/dev.html`);
await page.evaluate(
  async ({ markup, tag }) => {
    await import(`/widgets/${tag}.js`);
    document.body.insertAdjacentHTML('beforeend', markup);
  },
  { markup, tag },
);
await page
  .waitForSelector(`${tag}[data-ready]`, { timeout: 15000 })
  .catch(() => errors.push('widget never became ready'));
const info = await page.evaluate((tag) => {
  const el = document.querySelector(tag);
  return {
    ms: el.lastUpdateMs,
    text: el.shadowRoot.textContent.replace(/\s+/g, ' ').slice(0, 1500),
    scrollW: document.documentElement.scrollWidth,
  };
}, tag);
await page.screenshot({ path: out, fullPage: true });
console.log(JSON.stringify({ ...info, errors, screenshot: out }, null, 1));
await browser.close();
server.close();
