// Page-level theming (issue 47, item 5): a host page's `:root { --pe-fg: ...;
// --pe-accent: ... }` reaches every widget of web/widgets.js: the host's own
// colours, an element inside its shadow root and the colours it draws a
// canvas with (PeElement.theme()); a value set on one element still beats the
// page's; and with nothing set, each widget keeps its light and dark defaults.
// Before, each widget's :host declared all twelve defaults, so the page's
// values never arrived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, renderAllWidgets } from './harness.mjs';
import { tags } from './widget-tags.mjs';

const site = useSite();
const REQUIRED = {
  'pe-quiz': 'quiz="sinusoidal-fastest-pair"',
  'pe-exercise': 'exercise="sinusoidal-wavelength"',
  'pe-live-output': 'sample="seat-vectors"',
  'train-lab': 'steps="50" encodings="rope"',
};

async function pageWithEveryTag(css, { colorScheme = 'light' } = {}) {
  const page = await newPage(site.browser, { viewport: { width: 1100, height: 900 }, colorScheme });
  await page.goto(`${site.url}/widgets/dev.html`);
  if (css) await page.addStyleTag({ content: css });
  await page.evaluate(
    async (markup) => {
      await import('/widgets.js');
      document.body.insertAdjacentHTML('beforeend', markup);
    },
    tags.map((t) => `<${t} ${REQUIRED[t] ?? ''}></${t}>`).join('\n'),
  );
  await renderAllWidgets(page, tags);
  return page;
}

// per tag: the host's colour, the first shadow element's, and the theme the widget draws with
const colours = (page) =>
  page.evaluate((list) => {
    const out = {};
    for (const t of list) {
      const el = document.querySelector(t);
      const inner = el.shadowRoot.querySelector('p, h3, label, button, pre');
      out[t] = {
        host: getComputedStyle(el).color,
        background: getComputedStyle(el).backgroundColor,
        inner: inner ? getComputedStyle(inner).color : null,
        accent: el.theme().accent.join(','),
        fg: el.theme().fg.join(','),
      };
    }
    return out;
  }, tags);

test(':root theming changes every widget: host, shadow contents and canvas colours; one element set on its own keeps its value', async () => {
  const page = await pageWithEveryTag(`
    :root { --pe-fg: rgb(1, 2, 3); --pe-bg: rgb(250, 240, 230); --pe-accent: teal; }
    rope-clock { --pe-accent: rgb(200, 0, 100); }`);
  const seen = await colours(page);
  assert.equal(Object.keys(seen).length, tags.length);
  for (const [tag, c] of Object.entries(seen)) {
    assert.equal(c.host, 'rgb(1, 2, 3)', `${tag}: host colour`);
    assert.equal(c.background, 'rgb(250, 240, 230)', `${tag}: host background`);
    if (c.inner && tag !== 'pe-quiz-score')
      assert.notEqual(c.inner, 'rgb(29, 35, 43)', `${tag}: shadow contents keep the default`);
    assert.equal(c.fg, '1,2,3', `${tag}: drawing colour`);
    assert.equal(c.accent, tag === 'rope-clock' ? '200,0,100' : '0,128,128', `${tag}: accent`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('with nothing set, the light and the dark defaults still apply', async () => {
  for (const [scheme, fg, accent] of [
    ['light', 'rgb(29, 35, 43)', '36,95,201'],
    ['dark', 'rgb(227, 231, 236)', '122,167,255'],
  ]) {
    const page = await pageWithEveryTag('', { colorScheme: scheme });
    for (const [tag, c] of Object.entries(await colours(page))) {
      assert.equal(c.host, fg, `${scheme} ${tag}`);
      assert.equal(c.accent, accent, `${scheme} ${tag}`);
    }
    await page.context().close();
  }
});
