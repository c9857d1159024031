// Three widgets a newcomer tripped on, checked as they read them:
// - attention-permutation with repeated words: the headline, the summary
//   table, the per-word rows and the maps tell one story, and it depends on
//   the two sentences only, never on how an order names the copies of a word;
// - rope-offset-check: a click, tap or Enter at an offset whose key would sit
//   before the first token says so under the plot instead of doing nothing,
//   and the widget says "position" (only the two printed lines of the
//   lesson's exercise keep its "Seats");
// - pe-wave-barcode at d_model 4: the slow wave is not dropped without a
//   word; d_model 2 is refused in words and the widget goes on working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWidget } from './harness.mjs';
import { ENCODINGS } from '../../web/lib/permutation/permutation-experiment.js';

const site = useSite();

// One widget alone on the development page, rendered (tests/browser/harness.mjs).
const widget = (markup, viewport, options) => openWidget(site, markup, viewport, options);

// Sets attributes and waits for the update they cause.
const set = (el, attrs) =>
  el.evaluate((n, a) => {
    for (const [k, v] of Object.entries(a)) n.setAttribute(k, v);
    return n.updateNow();
  }, attrs);

test('attention-permutation: repeated words tell one story in the headline, the table, the rows and the maps', async () => {
  const { page, el } = await widget(
    '<attention-permutation sentence="the the the" encoding="sinusoidal"></attention-permutation>',
  );
  const read = () =>
    el.evaluate((n) => {
      const r = n.shadowRoot;
      const cells = (tr) => [...tr.cells].map((c) => c.textContent.trim());
      return {
        lesson: r.querySelector('.lesson').textContent,
        perm: r.querySelector('.perm').textContent,
        // [encoding, max |difference|, verdict]
        table: [...r.querySelectorAll('.results tbody tr')].map((tr) => cells(tr).map((c) => c.replace(/^▶ /, ''))),
        // [word (seat), new seat, row original, row shuffle, largest |diff.|]
        rows: [...r.querySelectorAll('.perword tbody tr')].map(cells),
        maps: [...r.querySelectorAll('.maps canvas')].map((c) => c.toDataURL()),
      };
    });
  // "the the the": every shuffle is the same sentence, so the layer's input is
  // the same and every encoding gives the same outputs, seat by seat
  let r = await read();
  for (const [enc, diff, verdict] of r.table) {
    assert.equal(diff, '0', `${enc}: the same input gave other outputs`);
    assert.match(verdict, /^identical/, enc);
  }
  assert.match(r.lesson, /leaves the sentence as it was/);
  assert.doesNotMatch(r.lesson, /press Shuffle/i, 'no shuffle can change this sentence');
  for (const encoding of ENCODINGS) {
    await set(el, { encoding });
    r = await read();
    for (const [word, seat, before, after, diff] of r.rows) {
      assert.equal(`the (${seat})`, word, `${encoding}: ${word} is compared with seat ${seat}`);
      assert.equal(after, before, `${encoding}: ${word}`);
      assert.equal(diff, '0', `${encoding}: ${word}`);
    }
    assert.equal(r.maps[1], r.maps[0], `${encoding}: the two weight maps differ`);
  }
  // a shuffle that only trades the two "the": the sentence as it was
  await set(el, { sentence: 'the dog bit the man', order: '3,1,2,0,4', encoding: 'learned' });
  r = await read();
  assert.match(r.lesson, /only swaps copies of “the”.*leaves the sentence as it was/);
  assert.deepEqual(
    r.table.map((row) => row[1]),
    ['0', '0', '0', '0', '0', '0'],
  );
  assert.match(r.perm, /Only copies of “the” trade places/);
  // the reversal, however the order names the two "the", is the same
  // sentence: the same numbers, and ALiBi cannot tell it from the original
  await set(el, { order: '4,3,2,1,0', encoding: 'alibi' });
  const reversed = await read();
  await set(el, { order: '4,0,2,1,3' });
  r = await read();
  assert.equal(
    r.perm.replace(/^.*?of the original\. /, ''),
    reversed.perm.replace(/^.*?of the original\. /, ''),
    'the same move described two ways',
  );
  assert.match(r.perm, /both copies of “the” from positions 0 and 3 to positions 1 and 4/);
  assert.deepEqual(r.table, reversed.table, 'the same two sentences gave other numbers');
  assert.deepEqual(r.rows, reversed.rows);
  assert.match(
    r.lesson,
    /^With alibi, each word’s output still just moved with the word .*cannot tell these two orders apart, since ALiBi’s bias/,
  );
  assert.match(r.table.find((row) => row[0] === 'alibi')[2], /^(identical|equal up to float32 rounding)/);
  assert.match(
    r.rows.find((row) => row[0] === 'the (0)')[1],
    /^4$/,
    'the first “the” is compared with the copy its output matches',
  );
  assert.match(await el.evaluate((n) => n.shadowRoot.querySelector('.copies').textContent), /“the” comes 2 times/);
  // a sentence without repeated words has no such note
  await set(el, { sentence: 'a dog bit my man', order: '' });
  assert.equal(await el.evaluate((n) => n.shadowRoot.querySelector('.copies').textContent), '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rope-offset-check: an offset before the first token is refused in words, by click, tap and Enter; the widget says "position"', async () => {
  const { page, el } = await widget('<rope-offset-check></rope-offset-check>', undefined, { hasTouch: true });
  const svg = el.locator('svg[role=img]');
  const note = () => el.evaluate((n) => n.shadowRoot.querySelector('.refused').textContent);
  // the x of an offset on the plot, relative to the plot's box
  const xOf = (d) => el.evaluate((n, o) => n._geom.X(o), d);
  await svg.click({ position: { x: await xOf(-5), y: 100 } });
  assert.equal(await el.getAttribute('n'), null, 'n changed');
  assert.equal(
    await note(),
    'Offset −5 would put the key at position −4, before the first token (position 0): n stays 3.',
  );
  // by keyboard: Home goes to the plot's left end, Enter tries it
  await svg.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  assert.match(await note(), /^Offset −20 would put the key at position −19, before the first token .*n stays 3\.$/);
  // an offset that exists: n follows, and the note goes
  await svg.click({ position: { x: await xOf(4), y: 100 } });
  await page.waitForFunction((n) => n.getAttribute('n') === '5', await el.elementHandle());
  await el.evaluate((n) => n.updateNow());
  assert.equal(await note(), '');
  // "Seats" only in the two printed lines of the lesson's exercise (the
  // table of scores open, the pointer on an offset without a key)
  await el.locator('details.alt summary').click();
  await svg.hover({ position: { x: await xOf(-3), y: 100 } });
  const words = await el.evaluate((n) => {
    const r = n.shadowRoot;
    const printed = r.querySelector('pre').textContent;
    const labels = [...r.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
    return { printed, rest: [r.textContent.replace(printed, ''), ...labels].join('\n') };
  });
  assert.match(words.printed, /^Attention Score \(Seats 1 vs 5\): \S+\nAttention Score \(Seats 101 vs 105\): \S+$/);
  assert.doesNotMatch(words.rest, /seat/i);
  assert.match(words.rest, /position m \(q\)/);
  // past the other end: n takes at most 10000
  await set(el, { m: '10000', n: '10000' });
  await svg.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  assert.equal(
    await note(),
    'Offset 20 would put the key at position 10020, past the largest position n can take (10000): n stays 10000.',
  );
  // a phone: a tap says the same (m 2, so the key at −6 is at −4)
  await set(el, { m: '2', n: '4' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForFunction((n) => n._geom.W < 375, await el.elementHandle());
  await svg.tap({ position: { x: await xOf(-6), y: 100 } });
  assert.equal(
    await note(),
    'Offset −6 would put the key at position −4, before the first token (position 0): n stays 4.',
  );
  assert.equal(await el.getAttribute('n'), '4');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('pe-wave-barcode: d_model 4 says its second pair is both the medium and the slowest; 2 is refused, 6 shows three', async () => {
  const { page, el } = await widget('<pe-wave-barcode sentence="the dog" d-model="4"></pe-wave-barcode>');
  const read = () =>
    el.evaluate((n) => {
      const r = n.shadowRoot;
      return {
        pairs: [...r.querySelectorAll('.pairs li')].map((li) => li.textContent),
        note: r.querySelector('.pairs-note').textContent,
        waves: [...r.querySelectorAll('.card')].map((c) =>
          [...c.querySelectorAll('.wave .lab span:first-child')].map((s) => s.textContent),
        ),
        error: r.querySelector('.error').textContent,
      };
    });
  let r = await read();
  assert.deepEqual(
    r.pairs.map((t) =>
      t
        .match(/^(.*?) pair i = (\d+)/)
        .slice(1)
        .join(' '),
    ),
    ['fast 0', 'slow 1'],
  );
  assert.equal(
    r.note,
    'With d_model = 4 there are only 2 pairs: pair 1 is both the medium and the slowest, so each card shows 2 waves.',
  );
  assert.deepEqual(r.waves, [
    ['fast i=0', 'slow i=1'],
    ['fast i=0', 'slow i=1'],
  ]);
  // d_model 2 (one pair) is outside what the widget takes: said, not thrown
  // (the base class names the attribute, d-model, not its label)
  await set(el, { 'd-model': '2' });
  r = await read();
  assert.match(r.error, /^d.model must be an even integer from 4 to 128/);
  await set(el, { 'd-model': '6' });
  r = await read();
  assert.equal(r.error, '');
  assert.deepEqual(
    r.pairs.map((t) =>
      t
        .match(/^(.*?) pair i = (\d+)/)
        .slice(1)
        .join(' '),
    ),
    ['fast 0', 'medium 1', 'slow 2'],
  );
  assert.equal(r.note, '');
  assert.deepEqual(r.waves[0], ['fast i=0', 'medium i=1', 'slow i=2']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 46: on the dark theme the gentle heads' thumbnails read as empty
// squares. The bottom-left cell of each (the largest penalty) must stand out
// from the zero colour, and on one scale the widget says they are faint.
test('alibi-bias, dark theme: every head but the gentlest two shows its penalty; the faint ones are named', async () => {
  const { page, el } = await widget('<alibi-bias heads="8" seq-len="8" causal></alibi-bias>', undefined, {
    colorScheme: 'dark',
  });
  const corners = await el.evaluate((n) =>
    [...n.shadowRoot.querySelectorAll('.minis canvas')].map((c) => {
      const ctx = c.getContext('2d');
      const px = (x, y) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
      // the cell (7, 0): the query farthest from the first key; the diagonal's (0, 0) has bias 0
      return { far: px(Math.floor(c.width / 16), Math.floor((15 * c.height) / 16)), zero: px(1, 1) };
    }),
  );
  const { contrastRatio } = await import('../../web/lib/drawing/colormap.js');
  const ratios = corners.map(({ far, zero }) => contrastRatio(far, zero));
  for (let hh = 0; hh < 6; hh++)
    assert.ok(ratios[hh] >= 1.15, `head ${hh + 1}: ${ratios[hh].toFixed(2)}:1 against bias 0`);
  assert.match(
    await el.locator('.faint-note').innerText(),
    /^Heads 5–8 subtract at most 0\.219 over 8 positions: faint on one scale, not empty\./,
  );
  await set(el, { scale: 'per-head' });
  assert.equal(await el.locator('.faint-note').innerText(), '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
