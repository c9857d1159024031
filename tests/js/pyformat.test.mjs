// web/lib/printing/pyformat.js against what real numpy 1.24 and PyTorch 1.13 print
// (tests/fixtures/pyformat.json, written by make_pyformat.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  numpyStr,
  torchStr,
  pyRepr,
  fixed,
  exponential,
  npRound,
  numpyScalar,
  pyList,
  torchSize,
} from '../../web/lib/printing/pyformat.js';

const cases = JSON.parse(readFileSync(new URL('../fixtures/pyformat.json', import.meta.url), 'utf8'));
const decode = (v) => (typeof v === 'string' ? Number(v.replace('inf', 'Infinity').replace('nan', 'NaN')) : v);

const kinds = {
  numpy: (c) => numpyStr(c.values.map(decode), c.shape),
  torch: (c) => torchStr(c.values.map(decode), c.shape),
  'torch-int': (c) => torchStr(c.values, c.shape, { dtype: 'int64' }),
  repr: (c) => pyRepr(c.values[0]),
  fixed: (c) => fixed(c.values[0], c.arg),
  exp: (c) => exponential(c.values[0], c.arg),
  'np-round': (c) => Array.from(npRound(c.values, c.arg)),
};

for (const [kind, print] of Object.entries(kinds)) {
  test(`pyformat prints like Python: ${kind}`, () => {
    const mine = cases.filter((c) => c.kind === kind);
    assert.ok(mine.length > 0, `no ${kind} cases in the fixture`);
    for (const c of mine) {
      assert.deepEqual(
        print(c),
        c.out,
        `${kind} of shape ${JSON.stringify(c.shape)} arg ${c.arg}: ${JSON.stringify(c.values).slice(0, 120)}`,
      );
    }
  });
}

test("pyformat: the lesson's seat vectors and small helpers", () => {
  assert.equal(numpyStr([0, 1, 0, 1]), '[0. 1. 0. 1.]');
  assert.equal(
    numpyStr(npRound([Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)], 3)),
    '[0.841 0.54  0.01  1.   ]',
  );
  assert.equal(numpyScalar(0.1), '0.1');
  assert.equal(pyList([1, 0.5]), '[1.0, 0.5]');
  assert.equal(torchSize([600, 64]), 'torch.Size([600, 64])');
  assert.equal(torchStr([], [0]), 'tensor([])');
  assert.equal(torchStr([1, 2], [2], { suffix: ', requires_grad=True' }), 'tensor([1., 2.], requires_grad=True)');
});
