// The arithmetic of <rope-config-lab> over RoPE's rotated pairs, from the
// frequencies θᵢ the core computed (ropeInvFreq) before and after a config's
// scaling: wavelengths, the stretch, and the angles a pair turns through in
// training and at a target length.

export const TWO_PI = 2 * Math.PI;

// θᵢ before and after the scaling, wavelengths 2π/θᵢ, the stretch, the largest
// angle in training, (Lt − 1)·θᵢ, and at the target, (T − 1)·θᵢ after scaling.
// A pair meets new angles (fresh) when it never completed a turn in training
// and at T goes past its trained arc by more than one trained step θᵢ
// (position interpolation's last offset, (sL − 1)/s, lies between L − 1 and
// L); freshUnscaled: the same without the scaling. Columns, not an object per
// pair: a pasted head of 32768 pairs is redrawn on every change of a control.
//
// prev: the columns of the previous call, or null. When before, after and Lt
// are the same, its columns are reused (the same arrays: a caller may key a
// cache on them) and only the target's columns (reached, fresh,
// freshUnscaled) are recomputed, in place.
export function pairColumns(before, after, Lt, T, prev = null) {
  const n = before.length;
  const same = prev !== null && prev.before === before && prev.after === after && prev.Lt === Lt;
  if (same && prev.T === T) return prev;
  const cols = same ? prev : targetIndependent(before, after, Lt);
  cols.T = T;
  const { trained, reached, fresh, freshUnscaled } = cols;
  for (let i = 0; i < n; i++) {
    const b = before[i];
    const t = trained[i];
    const r = (T - 1) * after[i];
    reached[i] = r;
    fresh[i] = t < TWO_PI && r - t > b ? 1 : 0;
    freshUnscaled[i] = t < TWO_PI && (T - 1) * b - t > b ? 1 : 0;
  }
  return cols;
}

// The columns that do not depend on the target, and room for those that do.
function targetIndependent(before, after, Lt) {
  const n = before.length;
  const f64 = () => new Float64Array(n);
  const [wlBefore, wlAfter, ratio, trained] = [f64(), f64(), f64(), f64()];
  for (let i = 0; i < n; i++) {
    const b = before[i];
    const a = after[i];
    wlBefore[i] = TWO_PI / b;
    wlAfter[i] = TWO_PI / a;
    ratio[i] = b / a;
    trained[i] = (Lt - 1) * b;
  }
  const [reached, fresh, freshUnscaled] = [f64(), new Uint8Array(n), new Uint8Array(n)];
  return { before, after, Lt, T: NaN, wlBefore, wlAfter, ratio, trained, reached, fresh, freshUnscaled };
}

// pair i of pairColumns' columns as one object
export function rowAt(cols, i) {
  return {
    i,
    before: cols.before[i],
    after: cols.after[i],
    wlBefore: cols.wlBefore[i],
    wlAfter: cols.wlAfter[i],
    ratio: cols.ratio[i],
    trained: cols.trained[i],
    reached: cols.reached[i],
    fresh: cols.fresh[i] === 1,
  };
}
