// web/lib/base/params.js (the one reader of a parameter's text: attributes,
// typed boxes, URLs, a live sample's parameters) and web/lib/base/dom.js's
// patchSpecs (the one way a widget redraws markup), in Node: patchSpecs
// against linkedom's DOM, checking that kept nodes are the same objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHTML } from 'linkedom';
import { parseParam, formatParam } from '../../web/lib/base/params.js';

const { document, Node } = parseHTML('<!doctype html><html><body></body></html>');
globalThis.document = document;
globalThis.Node = Node;
const { h, patchSpecs, setText } = await import('../../web/lib/base/dom.js');

test('parseParam: numbers by type, range, evenness and grid; the error names what it must be and what it got', () => {
  const dModel = { type: 'int', default: 8, min: 2, max: 128, even: true };
  assert.deepEqual(parseParam('d-model', dModel, null), { value: 8 });
  assert.deepEqual(parseParam('d-model', dModel, ' 64 '), { value: 64 });
  for (const bad of ['7', '130', '0', '', 'abc', '8.5', 'Infinity']) {
    assert.match(
      parseParam('d-model', dModel, bad).error,
      /^d-model must be an even integer from 2 to 128; got "/,
      bad,
    );
  }
  const theta = { type: 'float', default: 0.5, min: 0.05, max: 1.5, grid: 0.05 };
  assert.deepEqual(parseParam('theta', theta, '0.15'), { value: 0.15 });
  assert.equal(
    parseParam('theta', theta, '0.17').error,
    'theta must be a number from 0.05 to 1.5 in steps of 0.05; got "0.17"',
  );
  assert.equal(parseParam('base', { type: 'float', min: 2 }, 'NaN').error, 'base must be a number from 2; got "NaN"');
  // a long text is cut in the message
  assert.match(parseParam('base', { type: 'float' }, 'x'.repeat(100)).error, /got "x{40}…"$/);
});

test('parseParam: booleans, menus, vectors (also as Python prints a list) and strings', () => {
  const causal = { type: 'bool', default: false };
  for (const yes of ['', 'true', 'True', 'causal'])
    assert.deepEqual(parseParam('causal', causal, yes), { value: true });
  for (const no of ['false', 'False']) assert.deepEqual(parseParam('causal', causal, no), { value: false });
  assert.equal(parseParam('causal', causal, 'yes').error, 'causal must be true or false; got "yes"');
  const enc = { type: 'enum', options: ['none', 'rope'], default: 'none' };
  assert.deepEqual(parseParam('encoding', enc, 'rope'), { value: 'rope' });
  assert.equal(parseParam('encoding', enc, 'alibi').error, 'encoding must be one of none, rope; got "alibi"');
  const q = { type: 'vector', length: 2, default: [1, 0.5] };
  assert.deepEqual(parseParam('q', q, '1, -0.5'), { value: [1, -0.5] });
  assert.deepEqual(parseParam('q', q, '[1, -0.5]'), { value: [1, -0.5] });
  assert.equal(parseParam('q', q, '1,2,3').error, 'q must be 2 comma-separated numbers; got "1,2,3"');
  assert.match(
    parseParam('q', { ...q, min: -1, max: 1 }, '1,2').error,
    /^q must be 2 comma-separated numbers from -1 to 1/,
  );
  assert.equal(formatParam(q, [1, -0.5]), '1,-0.5');
  assert.equal(formatParam(causal, true), 'true');
  const sample = { type: 'string', maxLength: 10, pattern: /^[a-z-]*$/, patternMessage: 'must be a sample id' };
  assert.deepEqual(parseParam('sample', sample, 'rope-seats'), { value: 'rope-seats' });
  assert.equal(parseParam('sample', sample, 'Rope').error, 'sample must be a sample id; got "Rope"');
  assert.equal(parseParam('sample', sample, 'a'.repeat(11)).error, 'sample must be at most 10 characters long');
});

test('patchSpecs: builds what h() builds; a second pass keeps every node and changes only what differs', () => {
  const parent = document.createElement('div');
  const specs = (x, cls) => [
    'Score: ',
    ['b', { class: cls }, x],
    ' and ',
    [
      'ul',
      {},
      [
        ['li', {}, 'one'],
        ['li', { hidden: true }, 'two'],
      ],
    ],
    null,
    false,
  ];
  patchSpecs(parent, specs('0.5', 'a'));
  const built = h(
    'div',
    {},
    'Score: ',
    h('b', { class: 'a' }, '0.5'),
    ' and ',
    h('ul', {}, h('li', {}, 'one'), h('li', { hidden: true }, 'two')),
  );
  assert.equal(parent.innerHTML, built.innerHTML);
  const before = [...parent.childNodes];
  const items = [...parent.querySelectorAll('li')];
  patchSpecs(parent, specs('0.75', null));
  assert.deepEqual([...parent.childNodes], before, 'the same nodes, in place');
  assert.deepEqual([...parent.querySelectorAll('li')], items);
  assert.equal(parent.querySelector('b').textContent, '0.75');
  assert.equal(parent.querySelector('b').hasAttribute('class'), false, 'an attribute no longer given is removed');
  assert.equal(
    parent.innerHTML,
    h(
      'div',
      {},
      'Score: ',
      h('b', {}, '0.75'),
      ' and ',
      h('ul', {}, h('li', {}, 'one'), h('li', { hidden: true }, 'two')),
    ).innerHTML,
  );
});

test('patchSpecs: a node of another kind is replaced, extra nodes are removed, missing ones appended; SVG tags in their namespace', () => {
  const parent = document.createElement('div');
  patchSpecs(parent, [['p', {}, 'x'], ['p', {}, 'y'], 'tail']);
  const first = parent.firstChild;
  patchSpecs(parent, [
    ['p', {}, 'x'],
    ['span', {}, 'y'],
  ]);
  assert.equal(parent.firstChild, first);
  assert.equal(parent.innerHTML, '<p>x</p><span>y</span>');
  patchSpecs(parent, [
    ['p', {}, 'x'],
    ['span', {}, 'y'],
    ['svg:svg', { viewBox: '0 0 1 1' }, [['svg:line', { x1: 0 }]]],
  ]);
  const svg = parent.lastChild;
  assert.equal(svg.namespaceURI, 'http://www.w3.org/2000/svg');
  assert.equal(svg.firstChild.localName, 'line');
  patchSpecs(parent, []);
  assert.equal(parent.childNodes.length, 0);
});

test('setText: writes into the one text node it has, and only when the text differs', () => {
  const el = h('p', {}, 'a');
  const node = el.firstChild;
  setText(el, 'b');
  assert.equal(el.firstChild, node);
  assert.equal(el.textContent, 'b');
  setText(el, '');
  assert.equal(el.textContent, '');
});
