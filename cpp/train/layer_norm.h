// Layer normalisation (Ba, Kiros & Hinton 2016), as nn.LayerNorm(n) with
// elementwise affine, over the last axis:
//
//   mean = (1/n) sum_j x_j;  var = (1/n) sum_j (x_j - mean)^2   (biased, as torch)
//   rstd = 1 / sqrt(var + eps)
//   y_j  = (x_j * rstd + (-rstd * mean)) * gamma_j + beta_j     (torch's CPU order)
//
// Backward, with xhat_j = (x_j - mean) * rstd and g_j = dy_j * gamma_j:
//   dx_j     = rstd * (g_j - mean(g) - xhat_j * mean(g * xhat))
//   dgamma_j += sum_rows dy_j * xhat_j;   dbeta_j += sum_rows dy_j
#pragma once
#include <cstdint>

namespace posenc {

constexpr float kLayerNormEps = 1e-5f;

// x, y: (rows, n); gamma, beta: (n); mean, rstd: (rows), saved for backward.
// y must not alias x (backward needs x). The mean and variance are summed in
// double: one rounding, not n.
// Throws RangeError for rows outside 1..2^24 or n outside 1..kMaxDim.
void layer_norm_forward(float* y, float* mean, float* rstd, const float* x, const float* gamma, const float* beta,
                        std::int64_t rows, std::int64_t n, float eps = kLayerNormEps);

// dy, x, dx: (rows, n); mean, rstd: (rows) from the forward; gamma: (n).
// dx is overwritten (accumulate = false) or added to (true: the residual
// stream's gradient arrives there already). dgamma, dbeta: (n), added to.
// dx must not alias dy. Same checks as the forward.
void layer_norm_backward(float* dx, float* dgamma, float* dbeta, const float* dy, const float* x, const float* mean,
                         const float* rstd, const float* gamma, std::int64_t rows, std::int64_t n, bool accumulate);

}  // namespace posenc
