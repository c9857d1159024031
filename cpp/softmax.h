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

// One row, the twins (no checks).
void softmax_row_scalar(float* out, const float* x, std::int64_t n);
#if POSENC_SIMD
void softmax_row_simd(float* out, const float* x, std::int64_t n);
#endif

}  // namespace posenc
