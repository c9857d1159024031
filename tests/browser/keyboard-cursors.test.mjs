// Every drawing a pointer can read has a keyboard path to the same numbers
// (docs/writing-a-widget.md, "Every reader"): focus the drawing, the keys of
// web/lib/drawing/grid-cursor.js move a cursor, and a live readout says what
// is under it, the same numbers as the widget's table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWidget } from './harness.mjs';

const site = useSite();
const widget = (markup) => openWidget(site, markup);

// Focuses the drawing `selector` inside the widget and presses `keys`; returns the readout's text.
async function press(page, el, selector, keys, readout = '.readout') {
  await el.locator(selector).first().focus();
  for (const k of keys) await page.keyboard.press(k);
  return el.evaluate((n, r) => n.shadowRoot.querySelector(r).textContent, readout);
}

// The cells of the widget's table alternative (opened first): rows of texts.
async function tableCells(el) {
  await el.locator('details.alt summary').first().click();
  // a lazy table is built on the toggle event, after the click
  await el.locator('details.alt tbody tr').first().waitFor();
  return el.evaluate((n) =>
    [...n.shadowRoot.querySelectorAll('details.alt tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
  );
}

test('pe-heatmap: arrows, Page Down and End move the cell cursor; the readout is the table’s value', async () => {
  const { page, el } = await widget('<pe-heatmap max-len="32" d-model="8"></pe-heatmap>');
  const text = await press(page, el, 'canvas[role=img]', [
    'ArrowDown',
    'ArrowDown',
    'ArrowRight',
    'ArrowRight',
    'ArrowRight',
  ]);
  const rows = await tableCells(el);
  // row 2 of the table, dimension 3 (its header is the first cell)
  assert.match(text, new RegExp(`^position 2, dimension 3 = cos of pair i = 1: value ${rows[2][4]};`));
  assert.match(await press(page, el, 'canvas[role=img]', ['End', 'PageDown']), /^position 12, dimension 7 = cos/);
  assert.match(await press(page, el, 'canvas[role=img]', ['Shift+ArrowUp', 'Home']), /^position 2, dimension 0 = sin/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('t5-learned-bias: the arrows read one bucket’s learned bias per head, as the table has them', async () => {
  const { page, el } = await widget('<t5-learned-bias></t5-learned-bias>');
  const before = await el.evaluate((n) => n.shadowRoot.querySelector('.readout').textContent);
  assert.match(before, /use the arrow keys/);
  const first = await press(page, el, 'svg[role=img]', ['ArrowRight']);
  const second = await press(page, el, 'svg[role=img]', ['ArrowRight']);
  const rows = await tableCells(el);
  const said = (row) =>
    `bucket ${row[0]}, offsets n − m ${row[1]}, first reached at length ${row[2]}: ${row
      .slice(3)
      .map((v, k) => `head ${k + 1} ${v}`)
      .join(', ')}`;
  assert.equal(first, said(rows[0]));
  assert.equal(second, said(rows[1]));
  assert.equal(await press(page, el, 'svg[role=img]', ['End']), said(rows.at(-1)));
  assert.match(await press(page, el, 'svg[role=img]', ['Escape']), /use the arrow keys/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('pe-binary-counter: the arrows read a position’s bit or sine, as the table has it', async () => {
  const { page, el } = await widget('<pe-binary-counter positions="12" d-model="8"></pe-binary-counter>');
  // the first press shows the cursor on position 0, bit 0; then five rows down
  const bitText = await press(page, el, 'canvas[role=img]', ['ArrowDown', ...Array(5).fill('ArrowDown')]);
  assert.equal(bitText, 'position 5, bit 0 = 1 (bit 0 flips every 1 positions)');
  const rows = await tableCells(el);
  // End: the last column, the sine of the last pair (4 bits, 4 pairs); the table prints 3 decimals
  const sineText = await press(page, el, 'canvas[role=img]', ['End']);
  const m = sineText.match(
    /^position 5, pair 3: sin\(m·θᵢ\) = (\S+) \(its sign changes every π\/θᵢ = \S+ positions\)$/,
  );
  assert.ok(m, sineText);
  assert.equal(Number(m[1]).toFixed(3), rows[5].at(-1));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('attention-permutation: the cursor reads one weight in both orders, the table’s numbers', async () => {
  const { page, el } = await widget('<attention-permutation sentence="the cat sat down"></attention-permutation>');
  const text = await press(page, el, '.maps canvas', ['ArrowRight', 'ArrowRight'], '.maps + .readout');
  const m = text.match(
    /^head 1: the \(0\) as the query, cat \(1\) as the key: weight (\S+) in the original; in the shuffle, at positions (\d) and (\d), (\S+)$/,
  );
  assert.ok(m, text);
  const rows = await tableCells(el);
  // the table: the original's rows, a separator row, the shuffle's rows (3 decimals)
  assert.equal(Number(m[1]).toFixed(3), rows[0][2]);
  assert.equal(Number(m[4]).toFixed(3), rows[5][2]);
  // the second map moves the same cursor
  const down = await press(page, el, '.maps figure:nth-child(2) canvas', ['ArrowDown'], '.maps + .readout');
  assert.match(down, /^head 1: cat \(1\) as the query, cat \(1\) as the key/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
