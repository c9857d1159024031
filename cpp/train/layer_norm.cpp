#include "layer_norm.h"

#include <cmath>

#include "caps.h"
#include "check.h"

namespace posenc {

// x, y: (rows, n); gamma, beta: (n); mean, rstd: (rows)
void layer_norm_forward(float* y, float* mean, float* rstd, const float* x, const float* gamma, const float* beta,
                        std::int64_t rows, std::int64_t n, float eps) {
    check_range("rows", rows, 1, kMaxElements);
    check_range("n", n, 1, kMaxDim);
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * n;
        float* yr = y + r * n;
        // pass 1: mean and biased variance, two passes in double (no
        // cancellation from E[x^2] - E[x]^2 when |mean| >> std)
        double s = 0;
        for (std::int64_t j = 0; j < n; ++j) s += xr[j];
        const double mu = s / static_cast<double>(n);
        double ss = 0;
        for (std::int64_t j = 0; j < n; ++j) {
            const double d = xr[j] - mu;
            ss += d * d;
        }
        const float m = static_cast<float>(mu);
        const float rs = 1.0f / std::sqrt(static_cast<float>(ss / static_cast<double>(n)) + eps);
        mean[r] = m;
        rstd[r] = rs;
        // pass 2: y = (x * rstd + (-rstd * mean)) * gamma + beta, torch's order
        const float shift = -rs * m;
        for (std::int64_t j = 0; j < n; ++j) yr[j] = (xr[j] * rs + shift) * gamma[j] + beta[j];
    }
}

// dy, x, dx: (rows, n); mean, rstd: (rows); gamma, dgamma, dbeta: (n)
void layer_norm_backward(float* dx, float* dgamma, float* dbeta, const float* dy, const float* x, const float* mean,
                         const float* rstd, const float* gamma, std::int64_t rows, std::int64_t n, bool accumulate) {
    check_range("rows", rows, 1, kMaxElements);
    check_range("n", n, 1, kMaxDim);
    const float inv_n = 1.0f / static_cast<float>(n);
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * n;
        const float* dyr = dy + r * n;
        float* dxr = dx + r * n;
        const float m = mean[r], rs = rstd[r];
        // pass 1: mean(g) and mean(g * xhat), g = dy * gamma; the affine grads
        float sum_g = 0, sum_gx = 0;
        for (std::int64_t j = 0; j < n; ++j) {
            const float xhat = (xr[j] - m) * rs;
            const float g = dyr[j] * gamma[j];
            sum_g += g;
            sum_gx += g * xhat;
            dgamma[j] += dyr[j] * xhat;
            dbeta[j] += dyr[j];
        }
        const float mean_g = sum_g * inv_n, mean_gx = sum_gx * inv_n;
        // pass 2: dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
        for (std::int64_t j = 0; j < n; ++j) {
            const float xhat = (xr[j] - m) * rs;
            const float d = rs * (dyr[j] * gamma[j] - mean_g - xhat * mean_gx);
            dxr[j] = accumulate ? dxr[j] + d : d;
        }
    }
}

}  // namespace posenc
