// Widgets say what they show (issue 20, part 2): a typed value is applied or
// rejected in its box, never left beside a picture that ignores it; number
// boxes update as typed; messages are in the learner's words; the RoPE clock
// shows the score its claim is about; its text is 11 px or more on a phone.
// And (issue 19) drawings kept between updates still show the right colours,
// and a drawing skipped because nothing in it changed is the one a fresh
// widget draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWidget, renderAllWidgets } from './harness.mjs';

const site = useSite();

// One widget alone on the development page, rendered (tests/browser/harness.mjs).
const widget = (markup, viewport, options) => openWidget(site, markup, viewport, options);

test('a bad typed value is taken back with a note; a good one is applied as typed', async () => {
  const { page, el } = await widget('<pe-heatmap></pe-heatmap>');
  const base = el.locator('#c-base');
  await base.fill('1');
  assert.equal(await base.getAttribute('aria-invalid'), 'true', 'the box shows that 1 is not taken');
  assert.equal(await el.getAttribute('base'), null, 'an invalid value reached the widget');
  await base.press('Enter');
  assert.equal(await base.inputValue(), '10000', 'the box went back to the base in use');
  assert.match(await el.locator('#note-base').textContent(), /base must be a number from 2 .*; kept 10000/);
  await base.fill('100');
  await page.waitForFunction((n) => n.getAttribute('base') === '100', await el.elementHandle());
  assert.equal(await el.locator('#note-base').textContent(), '');
  // the d_model slider steps through powers of two; the box beside it shows the value
  await el.locator('#c-d-model').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((n) => n.getAttribute('d-model') === '128', await el.elementHandle());
  assert.equal(await el.locator('#c-d-model-box').inputValue(), '128');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the offset plot follows a position as it is typed (the exercise\'s printed lines keep its "Seats")', async () => {
  const { page, el } = await widget('<rope-offset-check></rope-offset-check>');
  await el.locator('#c-shift').fill('25');
  await page.waitForFunction(
    (n) => n.shadowRoot.querySelector('pre').textContent.includes('Seats 26 vs 28'),
    await el.elementHandle(),
  );
  assert.match(await el.evaluate((n) => n.shadowRoot.textContent), /start at offset −1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the learned table speaks the learner's words, with a number box beside the long sliders", async () => {
  const { page, el } = await widget('<learned-overflow rows="512" positions="513"></learned-overflow>');
  const text = await el.evaluate((n) => n.shadowRoot.textContent);
  assert.doesNotMatch(text, /learnedLookup|512–512/);
  assert.match(text, /position 512, the last of the 513 asked for, has no row/);
  await el.locator('#c-positions-box').fill('512');
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('✓ Works'), await el.elementHandle());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the RoPE clock: the swap changes the score only off phase 0; Swap sits by the dials; 11 px text on a phone', async () => {
  const { page, el } = await widget('<rope-clock></rope-clock>', { width: 375, height: 800 });
  const scores = () => el.evaluate((n) => [...n.shadowRoot.querySelectorAll('.scores b')].map((b) => b.textContent));
  const [here, swapped] = await scores();
  assert.equal(here, swapped, 'at phase 0 both orders score the same');
  const geometry = await el.evaluate((n) => {
    const r = n.shadowRoot;
    const button = r.querySelector('.swap-row button').getBoundingClientRect();
    const dials = r.querySelector('.dials').getBoundingClientRect();
    const sizes = [...r.querySelectorAll('.dials svg text')].map((t) => t.getBoundingClientRect().height);
    return {
      gap: dials.top - button.bottom,
      smallest: Math.min(...sizes),
      fontPx:
        (parseFloat(getComputedStyle(r.querySelector('.dials svg text')).fontSize) *
          r.querySelector('.dials svg').getBoundingClientRect().width) /
        144,
    };
  });
  assert.ok(geometry.gap < 120, `Swap is ${geometry.gap} px above the dials`);
  assert.ok(geometry.fontPx >= 10.9, `dial text drawn at ${geometry.fontPx} px`);
  await el.evaluate((n) => n.setAttribute('phase', '1'));
  await page.waitForFunction(
    ([n, h]) => n.shadowRoot.querySelector('.scores b').textContent !== h,
    [await el.elementHandle(), here],
  );
  const [a, b] = await scores();
  assert.notEqual(a, b, 'off phase 0 the two orders score differently');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the weight maps redraw exactly; drawings follow the colour scheme, and a host page's theme from the next update on", async () => {
  const { page, el } = await widget('<attention-permutation></attention-permutation>');
  // the first map's painted pixels: mean brightness, and the share that is green
  const look = (n) => {
    const c = n.shadowRoot.querySelector('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0,
      green = 0,
      painted = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (!d[i + 3]) continue;
      painted++;
      sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
      if (d[i + 1] > d[i] + 60 && d[i + 1] > d[i + 2] + 60) green++;
    }
    return { brightness: sum / painted, green: green / painted };
  };
  await el.evaluate((n, f) => (n._look = new Function(`return (${f})`)()), look.toString());
  // switching the encoding redraws only the grid: away and back gives the first picture again
  const pixels = () => el.evaluate((n) => [...n.shadowRoot.querySelectorAll('canvas')].map((c) => c.toDataURL()));
  const first = await pixels();
  for (const encoding of ['rope', 't5', 'sinusoidal'])
    await el.evaluate((n, e) => {
      n.setAttribute('encoding', e);
      return n.updateNow();
    }, encoding);
  assert.deepEqual(await pixels(), first, 'a redrawn map differs from the first drawing of the same weights');
  const light = await el.evaluate((n) => n._look(n));
  // the reader's scheme turns dark: no attribute changes, the map is drawn again
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(
    (b) =>
      document.querySelector('attention-permutation')._look(document.querySelector('attention-permutation'))
        .brightness <
      b - 80,
    light.brightness,
    { timeout: 5000 },
  );
  // a host page's theme, any CSS colour: the update after the change draws in
  // it (the widget reads its colours again once an update is painted, and
  // draws once more)
  await el.evaluate((n) => {
    n.style.setProperty('--pe-accent', 'lime');
    n.setAttribute('encoding', 'rope');
  });
  await page.waitForFunction((n) => n._look(n).green > 0.05, await el.elementHandle(), { timeout: 5000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the permutation experiment says what its table says, ALiBi on a reversed sentence included; the selected row is marked once', async () => {
  const { page, el } = await widget('<attention-permutation encoding="alibi"></attention-permutation>');
  const read = () =>
    el.evaluate((n) => ({
      lesson: n.shadowRoot.querySelector('.lesson').textContent,
      // the summary table as a reader sees it: [encoding cell, verdict] per row
      rows: [...n.shadowRoot.querySelectorAll('.results tbody tr')].map((tr) => [
        tr.cells[0].innerText.trim(),
        tr.cells[2].innerText.trim(),
        tr.getAttribute('aria-current'),
      ]),
    }));
  const set = (attrs) =>
    el.evaluate((n, a) => {
      for (const [k, v] of Object.entries(a)) n.setAttribute(k, v);
      return n.updateNow();
    }, attrs);
  // the swap preset: ALiBi sees it
  let r = await read();
  assert.match(
    r.lesson,
    /^With alibi, the same word at another position gives another output .*can tell the two orders apart/,
  );
  assert.deepEqual(
    r.rows.find((row) => row[2] === 'true'),
    ['▶ alibi', 'different: the layer sees the order', 'true'],
  );
  assert.equal(r.rows.filter((row) => row[0].startsWith('▶')).length, 1, 'one row is marked');
  // reversed: every distance |n - m| is kept, so ALiBi's outputs only move with the words
  await set({ sentence: 'the dog bit the man', order: '4,3,2,1,0' });
  r = await read();
  assert.match(
    r.lesson,
    /^With alibi, each word’s output still just moved with the word \(largest difference .*\): this encoding cannot tell these two orders apart, since ALiBi’s bias depends only on the distance \|n − m\|/,
  );
  assert.match(r.rows.find((row) => row[0] === '▶ alibi')[1], /^(identical|equal up to float32 rounding)/);
  // the other encodings all see a reversal
  for (const enc of ['sinusoidal', 'learned', 'rope', 't5'])
    assert.equal(r.rows.find((row) => row[0] === enc)[1], 'different: the layer sees the order', enc);
  // two words: their swap is a reversal, and a two-term sum is exact, so the outputs are identical
  await set({ sentence: 'dog bites', order: '1,0' });
  r = await read();
  assert.match(
    r.lesson,
    /^With alibi, each word’s output still just moved with the word \(largest difference 0\): this encoding cannot tell/,
  );
  assert.equal(r.rows.find((row) => row[0] === '▶ alibi')[1], 'identical: outputs only moved with the words');
  await set({ encoding: 'rope' });
  r = await read();
  assert.match(r.lesson, /^With rope, the same word at another position gives another output/);
  assert.deepEqual(
    r.rows.filter((row) => row[0].startsWith('▶')).map((row) => row[0]),
    ['▶ rope'],
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Shuffle always changes the sentence when it can, and returns when it cannot (two words, one word repeated)', async () => {
  const { page, el } = await widget('<attention-permutation sentence="the dog bit the man"></attention-permutation>');
  const shuffle = async () => {
    await el.locator('button', { hasText: /^Shuffle$/ }).click();
    await el.evaluate((n) => n.updateNow());
    return el.evaluate((n) => ({
      order: n.getAttribute('order'),
      shuffled: n.shadowRoot.querySelectorAll('.sentences div')[1].textContent,
      lesson: n.shadowRoot.querySelector('.lesson').textContent,
    }));
  };
  // ten presses: each a new order that changes the words' order (swapping the two "the" would not)
  const seen = new Set();
  for (let i = 0; i < 10; i++) {
    const r = await shuffle();
    assert.notEqual(
      r.shuffled,
      'shuffledthe dog bit the man',
      `press ${i + 1} gave back the sentence (order ${r.order})`,
    );
    assert.doesNotMatch(r.lesson, /leaves the sentence as it was/);
    seen.add(r.order);
  }
  assert.ok(seen.size >= 5, `ten presses gave only ${seen.size} orders`);
  // two words have one other order, which the swap preset already shows: Shuffle keeps it
  await el.evaluate((n) => {
    n.setAttribute('sentence', 'dog bites');
    n.removeAttribute('order');
    return n.updateNow();
  });
  assert.equal((await shuffle()).order, '1,0');
  // one word repeated: no shuffle changes the sentence, and the widget says so
  await el.evaluate((n) => {
    n.setAttribute('sentence', 'la la la');
    n.removeAttribute('order');
    return n.updateNow();
  });
  assert.match((await shuffle()).lesson, /leaves the sentence as it was/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the T5 bucket grid is drawn again only when a bucket in it changes, and then as a fresh widget draws it', async () => {
  const { page } = await widget('<t5-buckets id="first"></t5-buckets>');
  const el = page.locator('#first'); // a second one comes later
  // the grid is the first canvas; count the times an update starts drawing on it
  const grid = () => el.evaluate((n) => n.shadowRoot.querySelector('canvas').toDataURL());
  await el.evaluate((n) => {
    const c = n.shadowRoot.querySelector('canvas');
    const getContext = c.getContext.bind(c);
    n._gridDraws = 0;
    c.getContext = (...a) => (n._gridDraws++, getContext(...a));
  });
  const set = (name, value) =>
    el.evaluate(
      (n, [k, v]) => {
        n.setAttribute(k, v);
        return n.updateNow().then(() => n._gridDraws);
      },
      [name, value],
    );
  const first = await grid();
  const strip = () => el.evaluate((n) => n.shadowRoot.querySelectorAll('canvas')[1].toDataURL());
  const firstStrip = await strip();
  // 24 x 24 pairs have offsets up to 23: max distance 127 moves none of their buckets
  assert.equal(await set('max-distance', '127'), 0, 'the grid was drawn again though no bucket in it changed');
  assert.notEqual(await strip(), firstStrip, 'the strip (offsets up to max distance) did not follow');
  assert.equal(await set('max-distance', '128'), 0);
  assert.equal(await grid(), first);
  // max distance 20: offsets 20..23 saturate, so the grid changes
  assert.ok((await set('max-distance', '20')) > 0, 'the grid was not drawn again when its buckets changed');
  const changed = await grid();
  assert.notEqual(changed, first);
  await page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<t5-buckets id="fresh" max-distance="20"></t5-buckets>'),
  );
  await page.waitForSelector('#fresh[data-ready]', { state: 'attached' });
  const fresh = await page.evaluate(() =>
    document.getElementById('fresh').shadowRoot.querySelector('canvas').toDataURL(),
  );
  assert.equal(changed, fresh, "the redrawn grid differs from a fresh widget's");
  await set('max-distance', '128');
  assert.equal(await grid(), first, 'back at 128 the grid differs from its first drawing');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the barcode's mini waves are drawn on exactly the device pixels they cover, and drawn again exactly", async () => {
  const { page, el } = await widget(
    '<pe-wave-barcode></pe-wave-barcode>',
    { width: 900, height: 900 },
    { deviceScaleFactor: 2 },
  );
  const handle = await el.elementHandle();
  // until the layout has settled (fonts, a scrollbar, the cards' columns)
  // and the size observer has had each wave drawn at its device pixels: the
  // same sizes for 500 ms, each canvas as wide as it is on screen
  const settled = () =>
    page.waitForFunction(
      (n) => {
        const cs = [...n.shadowRoot.querySelectorAll('.wave canvas')];
        const sizes = cs
          .map((c) => `${c.width}/${Math.round(c.getBoundingClientRect().width * devicePixelRatio)}/${c.devicePixels}`)
          .join(' ');
        const now = performance.now();
        if (sizes !== n._sizes) [n._sizes, n._since] = [sizes, now];
        return (
          cs.length > 0 &&
          cs.every(
            (c) =>
              c.devicePixels &&
              c.width === c.devicePixels &&
              Math.abs(c.width - c.getBoundingClientRect().width * devicePixelRatio) <= 1,
          ) &&
          now - n._since > 500
        );
      },
      handle,
      { timeout: 10000, polling: 100 },
    );
  await settled();
  const sizes = await el.evaluate((n) => [...n.shadowRoot.querySelectorAll('.wave canvas')].map((c) => c.width));
  assert.equal(sizes.length, 15, 'five cards of three waves');
  // another base and back: the same pictures
  const pixels = () => el.evaluate((n) => [...n.shadowRoot.querySelectorAll('.wave canvas')].map((c) => c.toDataURL()));
  const first = await pixels();
  for (const base of ['20000', '10000'])
    await el.evaluate((n, b) => {
      n.setAttribute('base', b);
      return n.updateNow();
    }, base);
  await settled();
  assert.deepEqual(
    await el.evaluate((n) => [...n.shadowRoot.querySelectorAll('.wave canvas')].map((c) => c.width)),
    sizes,
    'the waves changed size meanwhile',
  );
  assert.deepEqual(await pixels(), first, 'a redrawn wave differs from its first drawing');
  // a narrower widget: the waves follow their new width
  await page.setViewportSize({ width: 500, height: 900 });
  await settled();
  assert.notDeepEqual(
    await el.evaluate((n) => [...n.shadowRoot.querySelectorAll('.wave canvas')].map((c) => c.width)),
    sizes,
    'the waves kept their size in a narrower widget',
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('pe-binary-counter: its table holds the bits of each position and the core’s sines; its sentence the core’s sign-change periods', async () => {
  const { page, el } = await widget('<pe-binary-counter positions="12" d-model="8"></pe-binary-counter>');
  await el.evaluate((n) => {
    n.shadowRoot.querySelector('details.alt').open = true;
    return n.updateNow();
  });
  const { rows, text, core } = await el.evaluate(async (n) => {
    const { loadPosenc } = await import('/posenc.js');
    const pe = await loadPosenc();
    return {
      rows: [...n.shadowRoot.querySelectorAll('details.alt tbody tr')].map((tr) =>
        [...tr.cells].map((c) => c.textContent),
      ),
      text: n.shadowRoot.querySelector('.periods').textContent,
      core: { table: [...pe.sinusoidal(12, 8)], freqs: [...pe.sinusoidalFrequencies(8)] },
    };
  });
  assert.equal(rows.length, 12);
  for (const [m, row] of rows.entries()) {
    assert.equal(row[0], String(m));
    assert.deepEqual(
      row.slice(1, 5),
      [0, 1, 2, 3].map((k) => String((m >> k) & 1)),
      `bits of ${m}`,
    );
    assert.deepEqual(
      row.slice(5),
      [0, 1, 2, 3].map((i) => core.table[m * 8 + 2 * i].toFixed(3)),
      `sines of ${m}`,
    );
  }
  assert.match(
    text,
    new RegExp(
      `every π/θᵢ positions \\(${(Math.PI / core.freqs[0]).toFixed(1)}, ${(Math.PI / core.freqs[1]).toFixed(1)},`,
    ),
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 46: a newcomer met labels in another notation than the lesson's
// (query m, key n, pair i; d_rot for one head; "seat" only from section 04)
test("the widgets' labels use the lesson's notation", async () => {
  const tags = ['attention-permutation', 'rope-clock', 'pe-wave-barcode', 't5-buckets'];
  const { page } = await widget('<attention-permutation encoding="alibi"></attention-permutation>');
  await page.evaluate(async (t) => {
    await Promise.all(t.map((x) => import(`/widgets/${x}.js`)));
    document.body.insertAdjacentHTML(
      'beforeend',
      t
        .slice(1)
        .map((x) => `<${x}></${x}>`)
        .join(''),
    );
  }, tags);
  await renderAllWidgets(page, tags);
  const text = (tag) => page.locator(tag).evaluate((n) => n.shadowRoot.textContent);
  assert.match(await text('attention-permutation'), /ALiBi \(bias −α_j·\|n − m\|\)/);
  assert.match(await text('attention-permutation'), /original-order map/);
  assert.match(await text('rope-clock'), /d_rot \(one head\)/);
  assert.match(await text('pe-wave-barcode'), /Position cards/);
  assert.doesNotMatch(await text('pe-wave-barcode'), /Seat cards/);
  await page.locator('t5-buckets canvas').first().focus();
  await page.keyboard.press('ArrowRight');
  assert.match(await text('t5-buckets'), /query m = \d+, key n = \d+, offset n − m = -?\d+/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
