// The base class's lifecycle (web/lib/base/pe-element.js), as lit's
// ReactiveElement has it: update() is told which parameters changed since
// the last drawing; what a widget gives to own() lives exactly while the
// element is on the page (observers included: a removed widget keeps none);
// updateComplete settles once the pending update has drawn. Throwaway
// widgets on the PeElement base, on the development page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage } from './harness.mjs';

const site = useSite();

// Counts the page's live ResizeObservers (observing something, not yet
// disconnected), then defines <test-base>: it records each update's changed
// map, owns a subscription and a buffer that count their starts and
// releases, and follows its box's width (redrawOnResize).
function defineWidget() {
  const Native = window.ResizeObserver;
  window.liveObservers = new Set();
  window.ResizeObserver = class extends Native {
    observe(...args) {
      window.liveObservers.add(this);
      return super.observe(...args);
    }
    disconnect() {
      window.liveObservers.delete(this);
      return super.disconnect();
    }
  };
  return import('/lib/base/pe-element.js').then(({ PeElement, define, inputError, h, setText }) => {
    class TestBase extends PeElement {
      static tag = 'test-base';
      static needsCore = false;
      static params = {
        n: { type: 'int', default: 3, min: 1, max: 100 },
        v: { type: 'vector', length: 2, default: [1, 2] },
        word: { type: 'string', default: 'ok' },
      };
      constructor() {
        super();
        this.log = [];
        this.counts = { started: 0, released: 0, freed: 0 };
        this.own(() => {
          this.counts.started++;
          return () => this.counts.released++;
        });
        this.own({ free: () => this.counts.freed++ });
      }
      build(root) {
        this.box = h('div', {}, '');
        this.text = h('p', {});
        root.append(this.box, this.text);
        this.redrawOnResize(this.box);
      }
      update(_pe, p, changed) {
        this.log.push([...changed].map(([k, old]) => [k, old === undefined ? null : old]));
        this.widths = [...(this.widths ?? []), this.widthOf(this.box)];
        if (p.word === 'bad') throw inputError('not this word');
        setText(this.text, `${p.n} ${p.v.join(',')} ${p.word}`);
      }
    }
    define(TestBase);
  });
}

async function openPage() {
  const page = await newPage(site.browser, { viewport: { width: 800, height: 600 } });
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(defineWidget);
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<test-base id="a"></test-base>');
    return document.querySelector('#a').updateComplete;
  });
  return { page, el: page.locator('#a') };
}

// Sets attributes, then waits for the widget's updateComplete and returns what the last update was told.
const change = (el, attrs) =>
  el.evaluate(async (n, a) => {
    for (const [k, v] of Object.entries(a)) n.setAttribute(k, v);
    await n.updateComplete;
    return n.log.at(-1);
  }, attrs);

test('update() is told which parameters changed since the last drawing, by value, and after an error all since', async () => {
  const { page, el } = await openPage();
  assert.deepEqual(
    await el.evaluate((n) => n.log),
    [
      [
        ['n', null],
        ['v', null],
        ['word', null],
      ],
    ],
    'the first update: every parameter, none had a value',
  );
  assert.deepEqual(await change(el, { n: '4' }), [['n', 3]]);
  // the same values written differently are no change
  assert.deepEqual(await change(el, { n: '004', v: '1, 2' }), []);
  assert.deepEqual(await change(el, { v: '1,5' }), [['v', [1, 2]]]);
  // an update that fails draws nothing: the next one is told everything since the last drawing
  assert.deepEqual(await change(el, { word: 'bad' }), [['word', 'ok']]);
  assert.match(await el.evaluate((n) => n.shadowRoot.querySelector('.error').textContent), /not this word/);
  assert.deepEqual(await change(el, { word: 'fine', n: '5' }), [
    ['n', 4],
    ['word', 'ok'],
  ]);
  assert.equal(await el.evaluate((n) => n.text.textContent), '5 1,5 fine');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('updateComplete settles after the drawing: at once when nothing is pending, for an element off screen once it is shown', async () => {
  const { page, el } = await openPage();
  // read right after the await: no frame, no polling
  assert.equal(
    await el.evaluate(async (n) => {
      n.setAttribute('n', '42');
      await n.updateComplete;
      return n.text.textContent;
    }),
    '42 1,2 ok',
  );
  assert.equal(await el.evaluate((n) => n.updateComplete), true, 'nothing pending: settled');
  // a widget far below the screen works only once it is near it
  const state = await page.evaluate(async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<div id="spacer" style="height: 5000px"></div><test-base id="far" n="7"></test-base>',
    );
    const far = document.querySelector('#far');
    const later = (ms) => new Promise((r) => setTimeout(() => r('pending'), ms));
    const before = await Promise.race([far.updateComplete.then(() => 'settled'), later(500)]);
    const drawn = far.updateComplete.then(() => far.text.textContent);
    far.scrollIntoView();
    return { before, after: await drawn };
  });
  assert.deepEqual(state, { before: 'pending', after: '7 1,2 ok' });
  // one taken off the page before it drew settles too (nothing will draw it)
  const removed = await page.evaluate(async () => {
    document.body.insertAdjacentHTML('beforeend', '<test-base id="gone"></test-base>');
    const gone = document.querySelector('#gone');
    const done = gone.updateComplete.then(() => 'settled');
    gone.remove();
    return Promise.race([done, new Promise((r) => setTimeout(() => r('pending'), 2000))]);
  });
  assert.equal(removed, 'settled');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('own(): started while on the page, released when it leaves, started again when it comes back; no observer outlives it', async () => {
  const { page, el } = await openPage();
  const counts = () => el.evaluate((n) => ({ ...n.counts, observers: window.liveObservers.size }));
  const first = await counts();
  assert.deepEqual(
    { ...first, observers: first.observers > 0 },
    { started: 1, released: 0, freed: 0, observers: true },
  );
  // a width that changes draws again (redrawOnResize), at the new width
  const widths = await el.evaluate(async (n) => {
    const drawn = new Promise((r) => n.addEventListener('pe-update', r, { once: true }));
    n.style.width = '300px';
    await drawn;
    return n.widths.slice(-2);
  });
  assert.ok(widths[1] < widths[0] && widths[1] < 300, `widths ${widths}`);
  // removed: everything released, no observer left (the page has no other widget)
  await el.evaluate((n) => n.remove());
  assert.deepEqual(await page.evaluate(() => window.liveObservers.size), 0);
  const away = await page.evaluate(() => {
    const n = document.createElement('test-base');
    n.id = 'b';
    document.body.append(n);
    return n.updateComplete.then(() => {
      n.remove();
      const afterRemove = { ...n.counts, observers: window.liveObservers.size };
      document.body.append(n);
      return n.updateComplete.then(() => ({
        afterRemove,
        back: { ...n.counts, observers: window.liveObservers.size > 0 },
        text: n.text.textContent,
      }));
    });
  });
  assert.deepEqual(away, {
    afterRemove: { started: 1, released: 1, freed: 1, observers: 0 },
    back: { started: 2, released: 1, freed: 1, observers: true },
    text: '3 1,2 ok',
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('updateComplete settles when what an update waited for fails: the lesson that will not load is said in the box of each question, and the page goes on', async () => {
  const page = await newPage(site.browser, { viewport: { width: 800, height: 600 } });
  await page.goto(`${site.url}/widgets/dev.html`);
  const states = await page.evaluate(async () => {
    const { registerLessonLoader } = await import('/lib/lesson/lesson-registry.js');
    // the lesson's data is lent by id (as widgets.js does), and its file cannot be fetched
    registerLessonLoader(() => Promise.reject(new Error('the network is down')));
    await Promise.all(
      ['pe-quiz', 'pe-exercise', 'pe-code-exercise', 'pe-live-output', 'pe-quiz-score'].map(
        (t) => import(`/widgets/${t}.js`),
      ),
    );
    document.body.insertAdjacentHTML(
      'beforeend',
      '<pe-quiz quiz="rope-what-rotates"></pe-quiz><pe-exercise exercise="rope-rotated-pair"></pe-exercise>' +
        '<pe-code-exercise exercise="sinusoidal-code-row"></pe-code-exercise><pe-live-output sample="rope-seats"></pe-live-output>' +
        '<pe-quiz-score></pe-quiz-score>',
    );
    const els = [...document.querySelectorAll('pe-quiz, pe-exercise, pe-code-exercise, pe-live-output, pe-quiz-score')];
    const timeout = new Promise((r) => setTimeout(() => r('pending'), 10000));
    return Promise.all(
      els.map(async (n) => [
        n.localName,
        await Promise.race([n.updateComplete.then(() => 'settled'), timeout]),
        n.shadowRoot.querySelector('.error').textContent,
      ]),
    );
  });
  for (const [tag, settled, box] of states) {
    assert.equal(settled, 'settled', `${tag}: updateComplete settles`);
    assert.match(box, /could not be loaded: the network is down/, tag);
  }
  await page.context().close();
});
