// Contrast of the text the widgets draw on canvases, in both themes (issue
// 46): axe reads the page's text, not a canvas's, so the colours are checked
// here, from the theme's own defaults (web/lib/drawing/theme.js's THEME_DEFAULTS, light
// and dark). Numbers written on heatmap cells use colormap.js's inkFor, which must
// give WCAG AA's 4.5:1 on every colour of the scale they are drawn on; labels
// in the theme's text and muted colours must reach it on the background.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { THEME_DEFAULTS, pageCodeCss } from '../../web/lib/drawing/theme.js';
import { withCodeColors } from '../../scripts/build/bundles.mjs';
import { parseColor, sequential, inkFor, contrastRatio } from '../../web/lib/drawing/colormap.js';

// the theme's defaults, light and dark (theme.js's THEME_DEFAULTS, the one place they are written)
function themes() {
  const read = (values) =>
    Object.fromEntries(
      Object.entries(values)
        .filter(([, v]) => /^#[0-9a-f]{6}$/i.test(v))
        .map(([name, v]) => [name.replace(/^--pe-/, ''), parseColor(v)]),
    );
  return { light: read(THEME_DEFAULTS.light), dark: read(THEME_DEFAULTS.dark) };
}

test('the theme defaults are read (both themes have text, background, zero and accent colours)', () => {
  for (const [name, t] of Object.entries(themes()))
    for (const k of ['fg', 'bg', 'muted', 'zero', 'accent', 'pos', 'neg']) assert.ok(t[k], `${name}: --pe-${k}`);
});

test('numbers on the shuffle widget’s attention cells reach 4.5:1 at every weight, in both themes', () => {
  for (const [name, t] of Object.entries(themes())) {
    const scale = sequential(t.zero, t.accent); // attention-permutation's weight scale
    let worst = Infinity;
    for (let k = 0; k <= 1000; k++) {
      const cell = scale(k / 1000);
      worst = Math.min(worst, contrastRatio(inkFor(cell), cell));
    }
    assert.ok(worst >= 4.5, `${name}: ${worst.toFixed(2)}:1`);
  }
});

test('inkFor gives at least 4.58:1 on any colour', () => {
  for (let r = 0; r < 256; r += 15)
    for (let g = 0; g < 256; g += 15)
      for (let b = 0; b < 256; b += 15)
        assert.ok(contrastRatio(inkFor([r, g, b]), [r, g, b]) >= 4.58, [r, g, b].join());
});

test('labels drawn in the text and muted colours reach 4.5:1 on the background, in both themes', () => {
  for (const [name, t] of Object.entries(themes())) {
    assert.ok(contrastRatio(t.fg, t.bg) >= 4.5, `${name} fg`);
    assert.ok(contrastRatio(t.muted, t.bg) >= 4.5, `${name} muted: ${contrastRatio(t.muted, t.bg).toFixed(2)}`);
  }
});

// Highlighted code: the palette is theme.js's --pe-code-* (one place), drawn
// on a widget's code box (--pe-panel) and on the lesson page's (lesson.css's
// --code-bg), whose stylesheet carries the palette in a block bundles.mjs writes.
const lessonCss = readFileSync(new URL('../../web/lesson.css', import.meta.url), 'utf8');
function lessonCodeBackgrounds() {
  const [light, dark] = [...lessonCss.matchAll(/--code-bg:\s*(#[0-9a-f]{6})/gi)].map((m) => parseColor(m[1]));
  return { light, dark };
}

test('highlighted code reaches 4.5:1 on the code boxes of the widgets and of the lesson page, in both themes', () => {
  const page = lessonCodeBackgrounds();
  for (const [name, t] of Object.entries(themes())) {
    const codes = Object.keys(t).filter((k) => k.startsWith('code-'));
    assert.equal(codes.length, 6, `${name}: six code colours`);
    for (const k of codes)
      for (const [where, bg] of [
        ['widget', t.panel],
        ['lesson page', page[name]],
      ]) {
        const ratio = contrastRatio(t[k], bg);
        assert.ok(ratio >= 4.5, `${name} ${k} on the ${where}'s code box: ${ratio.toFixed(2)}:1`);
      }
  }
});

test("the lesson page's code colours are theme.js's (web/lesson.css's block is the one bundles.mjs writes)", () => {
  assert.equal(withCodeColors(lessonCss, pageCodeCss()), lessonCss, 'run node scripts/build/bundles.mjs');
  assert.doesNotMatch(lessonCss.replace(/\/\* code-colors:start[\s\S]*code-colors:end \*\//, ''), /hljs/);
});
