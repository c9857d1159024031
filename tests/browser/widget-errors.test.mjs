// What a widget does with an error its update() throws (web/lib/base/pe-element.js):
// an error about a value given (it carries `kind`: the core's, the API's
// checks', inputError()'s) is the learner's to read, in the widget's error
// box, and nothing more; any other error (a TypeError in widget code) is a
// bug: the box says so without details and the error reaches the page as an
// uncaught error, where every browser test that watches for page errors fails.
// Throwaway widgets on the PeElement base, on the development page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage } from './harness.mjs';

const site = useSite();

// Defines <test-update-error kind="bug|input|core">: its update() fails in that way.
function defineWidgets() {
  return import('/lib/base/pe-element.js').then(({ PeElement, define, inputError, h }) => {
    class TestUpdateError extends PeElement {
      static tag = 'test-update-error';
      static params = { fail: { type: 'enum', options: ['bug', 'input', 'core', 'none'], default: 'none' } };
      build(root) {
        root.append(h('p', {}, 'a test widget'));
      }
      update(pe, p) {
        if (p.fail === 'bug') return this.missing.field; // TypeError: reading a property of undefined
        if (p.fail === 'input') throw inputError('the value you gave is not one this widget takes');
        if (p.fail === 'core') pe.sinusoidal(4, 5); // the API's check: dModel must be even
      }
    }
    define(TestUpdateError);
  });
}

async function openPage() {
  const page = await newPage(site.browser);
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(defineWidgets);
  return page;
}

async function render(page, fail) {
  await page.evaluate((f) => document.body.insertAdjacentHTML('beforeend', `<test-update-error fail="${f}">`), fail);
  const el = page.locator(`test-update-error[fail="${fail}"]`);
  await page.waitForSelector(`test-update-error[fail="${fail}"][data-ready]`, { state: 'attached' });
  const box = await el.evaluate((n) => n.shadowRoot.querySelector('.error').textContent);
  const invalid = await el.evaluate((n) => n.hasAttribute('data-invalid'));
  return { el, box, invalid };
}

test("a TypeError in a widget's update reaches the page as an uncaught error; the box says it is a bug", async () => {
  const page = await openPage();
  const uncaught = page.waitForEvent('pageerror');
  const { box, invalid } = await render(page, 'bug');
  const error = await uncaught;
  assert.equal(error.name, 'TypeError');
  assert.match(error.message, /field/);
  assert.ok(invalid);
  assert.match(box, /a bug in it, not anything you entered/);
  assert.doesNotMatch(box, /field/, 'the details are for the console, not the learner');
  // and a test that updates it itself gets the error
  const again = await page.locator('test-update-error[fail="bug"]').evaluate((n) =>
    n.updateNow().then(
      () => 'resolved',
      (e) => `${e.name}: ${e.message}`,
    ),
  );
  assert.match(again, /^TypeError: .*field/);
  await page.context().close();
});

test("an error about a value given (inputError, the API's checks) is shown in the box and goes no further", async () => {
  const page = await openPage();
  const input = await render(page, 'input');
  assert.equal(input.box, 'the value you gave is not one this widget takes');
  assert.ok(input.invalid);
  const core = await render(page, 'core');
  assert.match(core.box, /^sinusoidal: dModel must be even/);
  assert.ok(core.invalid);
  const fine = await render(page, 'none');
  assert.equal(fine.box, '');
  assert.ok(!fine.invalid);
  // the same widget, now given a value it takes: the box empties
  await input.el.evaluate((n) => n.setAttribute('fail', 'none'));
  await page.waitForFunction(() => !document.querySelector('test-update-error[fail="none"][data-invalid]'));
  await page.waitForTimeout(200); // a frame or two for anything late to be reported
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
