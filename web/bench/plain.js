// Plain-JavaScript versions of the benchmarked operations: the obvious loops
// over Float32Arrays with Math.sin/cos/exp, written as a JS developer would
// without wasm. They are the benchmark's baseline and the reference the other
// implementations are compared against (max abs difference), not a second
// copy of the core for the page to use.
//
// Semantics follow the core's (and PyTorch's): each step that torch does in
// float32 is rounded to float32 here too (Math.fround), above all the angles
// pos * freq before sin/cos. Computing them in double instead moves angles at
// position 8191 by up to ~5e-4 rad, and the agreement check would show it.
// (Math.exp is not SLEEF's expf: about 1 divisor in 10 still differs by 1 ULP
// from torch's and the core's, which position 8191 turns into ~5e-4.)

// Sinusoidal table (Vaswani et al. 2017, section 3.5):
//   PE[pos, 2i] = sin(pos * div_i), PE[pos, 2i+1] = cos(pos * div_i),
//   div_i = exp(2i * -ln(base) / dModel)
// -> (maxLen, dModel)
export function sinusoidal(maxLen, dModel, { base = 10000 } = {}) {
  const half = dModel / 2;
  const div = new Float32Array(half);
  const c = Math.fround(-Math.log(base) / dModel);
  for (let i = 0; i < half; i++) div[i] = Math.exp(Math.fround(2 * i * c));
  const out = new Float32Array(maxLen * dModel);
  for (let pos = 0; pos < maxLen; pos++) {
    const row = pos * dModel;
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(pos * div[i]);
      out[row + 2 * i] = Math.sin(angle);
      out[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

// RoPE (Su et al. 2021), 'half' pairing (Hugging Face's rotate_half):
//   theta_i = base^(-2i/dim), angle = pos * theta_i,
//   out[i]        = x[i] cos - x[i + dim/2] sin
//   out[i + dim/2] = x[i + dim/2] cos + x[i] sin
// x: (rows, dim) at positions 0..rows-1 -> (rows, dim)
export function ropeApplyHalf(x, rows, dim, { base = 10000 } = {}) {
  const half = dim / 2;
  const invFreq = new Float32Array(half);
  for (let i = 0; i < half; i++) invFreq[i] = 1 / Math.fround(Math.pow(base, Math.fround((2 * i) / dim)));
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const row = r * dim;
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(r * invFreq[i]);
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      const x1 = x[row + i];
      const x2 = x[row + i + half];
      out[row + i] = x1 * cos - x2 * sin;
      out[row + i + half] = x2 * cos + x1 * sin;
    }
  }
  return out;
}

// ALiBi (Press et al. 2022): bias[h, i, j] = -m_h (i - j), masked (j > i) = -Infinity,
// m_h = 2^(-8 (h+1) / heads) for a power-of-two head count (the benchmark's case).
// -> (heads, seqLen, seqLen)
export function alibiBiasCausal(heads, seqLen) {
  const out = new Float32Array(heads * seqLen * seqLen);
  for (let h = 0; h < heads; h++) {
    const slope = Math.pow(2, (-8 * (h + 1)) / heads);
    for (let i = 0; i < seqLen; i++) {
      const row = (h * seqLen + i) * seqLen;
      for (let j = 0; j < seqLen; j++) out[row + j] = j > i ? -Infinity : -slope * (i - j);
    }
  }
  return out;
}

// Stable softmax over each row: exp(x - max) / sum.
// x: (rows, n) -> (rows, n)
export function softmax(x, rows, n) {
  const out = new Float32Array(rows * n);
  for (let r = 0; r < rows; r++) {
    const row = r * n;
    let max = -Infinity;
    for (let j = 0; j < n; j++) max = Math.max(max, x[row + j]);
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp(x[row + j] - max);
      out[row + j] = e;
      sum += e;
    }
    for (let j = 0; j < n; j++) out[row + j] /= sum;
  }
  return out;
}

// Scaled dot-product attention, per head (Vaswani et al. 2017, eq. 1):
//   O = softmax(scale * Q K^T + bias) V, causal rows see keys 0..i only.
// q, k, v: (heads, seqLen, headDim); bias: (heads, seqLen, seqLen) or null
// -> output (heads, seqLen, headDim). Weights are not kept (tfjs does not return them either).
export function attention(
  q,
  k,
  v,
  { heads, seqLen, headDim, causal = false, bias = null, scale = 1 / Math.sqrt(headDim) },
) {
  const out = new Float32Array(heads * seqLen * headDim);
  const scores = new Float32Array(seqLen);
  for (let h = 0; h < heads; h++) {
    const base = h * seqLen * headDim;
    for (let i = 0; i < seqLen; i++) {
      const len = causal ? i + 1 : seqLen;
      const qi = base + i * headDim;
      const biasRow = (h * seqLen + i) * seqLen;
      // scores and their max
      let max = -Infinity;
      for (let j = 0; j < len; j++) {
        const kj = base + j * headDim;
        let dot = 0;
        for (let t = 0; t < headDim; t++) dot += q[qi + t] * k[kj + t];
        const s = dot * scale + (bias === null ? 0 : bias[biasRow + j]);
        scores[j] = s;
        max = Math.max(max, s);
      }
      // stable softmax
      let sum = 0;
      for (let j = 0; j < len; j++) {
        scores[j] = Math.exp(scores[j] - max);
        sum += scores[j];
      }
      // weighted sum of values
      const oi = base + i * headDim;
      for (let j = 0; j < len; j++) {
        const w = scores[j] / sum;
        const vj = base + j * headDim;
        for (let t = 0; t < headDim; t++) out[oi + t] += w * v[vj + t];
      }
    }
  }
  return out;
}
