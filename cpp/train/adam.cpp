#include "adam.h"

#include <cmath>
#include <string>

#include "check.h"
#include "errors.h"
#include "simd.h"

namespace posenc {

namespace {

// The scalars as torch's kernels see them: Python floats (double) computed
// in double, rounded to float32 where they meet a tensor.
struct AdamScalars {
    float b1, a1, b2, a2, neg_step, bc2_sqrt, eps;
};

AdamScalars adam_scalars(std::int64_t step, const AdamConfig& c) {
    const double t = static_cast<double>(step);
    const double bc1 = 1.0 - std::pow(c.beta1, t);
    const double bc2 = 1.0 - std::pow(c.beta2, t);
    return AdamScalars{static_cast<float>(c.beta1),       static_cast<float>(1.0 - c.beta1),
                       static_cast<float>(c.beta2),       static_cast<float>(1.0 - c.beta2),
                       static_cast<float>(-(c.lr / bc1)), static_cast<float>(std::sqrt(bc2)),
                       static_cast<float>(c.eps)};
}

}  // namespace

namespace scalar {

// p, g, m, v: (n)
void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step,
                 const AdamConfig& config) {
    const AdamScalars s = adam_scalars(step, config);
    for (std::int64_t i = 0; i < n; ++i) {
        // m = m b1 + (1 - b1) g;  v = v b2 + (1 - b2) g g   (addcmul: (value * g) * g)
        const float mi = m[i] * s.b1 + s.a1 * g[i];
        const float vi = v[i] * s.b2 + (s.a2 * g[i]) * g[i];
        m[i] = mi;
        v[i] = vi;
        // p += (-step_size) m / (sqrt(v) / sqrt(bc2) + eps)   (addcdiv: (value * m) / denom)
        const float denom = std::sqrt(vi) / s.bc2_sqrt + s.eps;
        p[i] = p[i] + (s.neg_step * mi) / denom;
    }
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {

// The same operations in the same order, four lanes at a time; sqrt and
// division are correctly rounded in SIMD too, so it equals the twin bit for bit.
void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step,
                 const AdamConfig& config) {
    const AdamScalars s = adam_scalars(step, config);
    const batch_f b1(s.b1), a1(s.a1), b2(s.b2), a2(s.a2), neg_step(s.neg_step), bc2_sqrt(s.bc2_sqrt), eps(s.eps);
    const std::int64_t body = n - n % static_cast<std::int64_t>(kLanes);
    for (std::int64_t i = 0; i < body; i += kLanes) {
        const batch_f gi = xsimd::load_unaligned(g + i);
        const batch_f mi = xsimd::load_unaligned(m + i) * b1 + a1 * gi;
        const batch_f vi = xsimd::load_unaligned(v + i) * b2 + (a2 * gi) * gi;
        xsimd::store_unaligned(m + i, mi);
        xsimd::store_unaligned(v + i, vi);
        const batch_f denom = xsimd::sqrt(vi) / bc2_sqrt + eps;
        xsimd::store_unaligned(p + i, xsimd::load_unaligned(p + i) + (neg_step * mi) / denom);
    }
    scalar::adam_update(p + body, g + body, m + body, v + body, n - body, step, config);
}

}  // namespace simd
#endif

void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step, const AdamConfig& c) {
    if (n < 0) throw RangeError("n must be >= 0, got " + std::to_string(n), {"n"}, {double(n)});
    if (step < 1)
        throw RangeError("step must be >= 1 (the first step is 1), got " + std::to_string(step), {"step"},
                         {double(step)});
    check_positive("lr", c.lr);
    check_positive("eps", c.eps);
    if (!(c.beta1 >= 0 && c.beta1 < 1))
        throw RangeError("beta1 must lie in [0, 1), got " + format_number(c.beta1), {"beta1"}, {c.beta1});
    if (!(c.beta2 >= 0 && c.beta2 < 1))
        throw RangeError("beta2 must lie in [0, 1), got " + format_number(c.beta2), {"beta2"}, {c.beta2});
    kernels::adam_update(p, g, m, v, n, step, c);
}

float clip_grad_norm(const GradSpan* grads, std::size_t count, double max_norm) {
    check_positive("max_norm", max_norm);
    // pass 1: total = sqrt(sum ||g||^2), in double, rounded once
    double sq = 0;
    for (std::size_t t = 0; t < count; ++t)
        for (std::int64_t i = 0; i < grads[t].size; ++i) {
            const double x = grads[t].grad[i];
            sq += x * x;
        }
    const float total = static_cast<float>(std::sqrt(sq));
    // pass 2: coef = max_norm / (total + 1e-6), in float32 as torch's tensor ops
    const float coef = static_cast<float>(max_norm) / (total + 1e-6f);
    if (coef < 1.0f)
        for (std::size_t t = 0; t < count; ++t)
            for (std::int64_t i = 0; i < grads[t].size; ++i) grads[t].grad[i] *= coef;
    return total;
}

}  // namespace posenc
