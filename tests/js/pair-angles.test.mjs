// <rope-config-lab>'s per-pair arithmetic (web/lib/rope/pair-angles.js): the
// verdict "meets angles never seen in training" at its edges, and a change of
// the target alone recomputing only the target's columns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TWO_PI, pairColumns, rowAt } from '../../web/lib/rope/pair-angles.js';

// three pairs: fast (turns many times in training), slow, slower; the
// scaling slows the last two ×4
const before = new Float32Array([1, 1e-3, 1e-4]);
const after = new Float32Array([1, 2.5e-4, 2.5e-5]);

describe('pairColumns', () => {
  it('wavelengths, stretch and largest angles', () => {
    const c = pairColumns(before, after, 1000, 4000);
    const r = rowAt(c, 1);
    assert.equal(r.wlBefore, TWO_PI / before[1]);
    assert.equal(r.wlAfter, TWO_PI / after[1]);
    assert.equal(r.ratio, before[1] / after[1]);
    assert.equal(r.trained, 999 * before[1]);
    assert.equal(r.reached, 3999 * after[1]);
  });

  it('a pair that completed a turn in training never meets new angles; a slow one does past one trained step', () => {
    // pair 0 turned 999 rad in training: never fresh, whatever the target
    assert.equal(pairColumns(before, before, 1000, 1e6).fresh[0], 0);
    // pair 1 unscaled: trained 0.999 rad; at T the angle is (T - 1) 1e-3,
    // fresh only beyond 0.999 + 1e-3 (float32 1e-3 is a hair above 1e-3)
    assert.equal(pairColumns(before, before, 1000, 1001).fresh[1], 0);
    assert.equal(pairColumns(before, before, 1000, 1002).fresh[1], 1);
    // slowed ×4, it reaches at 4000 what it reached at 1000, and is not fresh
    const c = pairColumns(before, after, 1000, 4000);
    assert.deepEqual([...c.fresh], [0, 0, 0]);
    assert.deepEqual([...c.freshUnscaled], [0, 1, 1]);
    // beyond 4 L plus a step it is
    assert.equal(pairColumns(before, after, 1000, 4010).fresh[1], 1);
  });

  it('a new target reuses the target-independent columns and recomputes the rest', () => {
    const a = pairColumns(before, after, 1000, 4000);
    const wl = a.wlBefore;
    const b = pairColumns(before, after, 1000, 8000, a);
    assert.equal(b.wlBefore, wl, 'the same array');
    assert.equal(b.T, 8000);
    assert.deepEqual([...b.fresh], [0, 1, 1]);
    assert.deepEqual([...b.reached], [7999 * after[0], 7999 * after[1], 7999 * after[2]]);
    // the same as computed afresh
    const fresh = pairColumns(before, after, 1000, 8000);
    for (const k of ['wlBefore', 'wlAfter', 'ratio', 'trained', 'reached', 'fresh', 'freshUnscaled'])
      assert.deepEqual([...b[k]], [...fresh[k]], k);
    // another training length or other frequencies: new columns
    assert.notEqual(pairColumns(before, after, 2000, 8000, b).wlBefore, wl);
    assert.notEqual(pairColumns(before, before, 2000, 8000, b).wlBefore, wl);
  });
});
