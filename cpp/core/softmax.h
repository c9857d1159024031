// Numerically stable softmax over the last axis, the way PyTorch's CPU
// kernel computes it:
//   m = max_j x_j;  e_j = exp(x_j - m);  y_j = e_j * (1 / sum_j e_j)
// Subtracting the max keeps logits of 1e4 finite. A row that is entirely
// -inf (fully masked) gives zeros, as current PyTorch's _safe_softmax does,
// not NaN.
#pragma once
#include <cstdint>

#include "simd.h"

namespace posenc {

// x, out: (rows, n); out may alias x.
void softmax_rows(float* out, const float* x, std::int64_t rows, std::int64_t n);

// One row, the twins (no checks): scalar::softmax_row and, in SIMD builds,
// simd::softmax_row (simd.h). The SIMD twin exponentiates with
// exp_nonpositive (vecmath.h): within 2.3 ULP of exp down to FLT_MIN, and a
// weight below FLT_MIN (logit 87.3 or more under the max) may come out as 0
// where the scalar twin keeps a subnormal; both are off by < 1.2e-38.
//
// softmax_row_with_max: one row whose max is already known, for a caller that
// writes the row (attention's score pass) and finds the max while writing it,
// saving a pass. m: the max of x; a NaN in x may have been skipped (the SIMD
// max pass, pmax of simd.h, skips it) or become m, either works: a NaN max
// gives a NaN row, and a skipped NaN makes the sum of the exps NaN, which does
// too. softmax_row is this after its own max pass.
namespace scalar {
void softmax_row(float* out, const float* x, std::int64_t n);
void softmax_row_with_max(float* out, const float* x, std::int64_t n, float m);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void softmax_row(float* out, const float* x, std::int64_t n);
void softmax_row_with_max(float* out, const float* x, std::int64_t n, float m);
}  // namespace simd
#endif

}  // namespace posenc
