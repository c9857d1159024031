#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check.h"
#include "caps.h"
#include "vecmath.h"

namespace posenc {

// What a row whose max is not a finite number becomes, as PyTorch has it:
// any NaN, or a +inf (inf - inf = NaN), makes the whole row NaN; a row that
// is entirely -inf (fully masked) gives zeros (_safe_softmax), not NaN.
// Returns true when the row was settled here.
static bool settle_nonfinite_row(float* out, std::int64_t n, float m, bool has_nan) {
    if (has_nan || m == std::numeric_limits<float>::infinity()) {
        std::fill(out, out + n, std::numeric_limits<float>::quiet_NaN());
        return true;
    }
    if (m == -std::numeric_limits<float>::infinity()) {
        std::fill(out, out + n, 0.0f);
        return true;
    }
    return false;
}

// x, out: (n); out may alias x
void softmax_row_scalar(float* out, const float* x, std::int64_t n) {
    // pass 1: row max (and whether a NaN hides in the row: max() would skip it)
    float m = -std::numeric_limits<float>::infinity();
    bool has_nan = false;
    for (std::int64_t j = 0; j < n; ++j) {
        if (std::isnan(x[j])) has_nan = true;
        else if (x[j] > m) m = x[j];
    }
    if (settle_nonfinite_row(out, n, m, has_nan)) return;

    // pass 2: e_j = exp(x_j - m). Subtracting the max puts every argument in
    // (-inf, 0], so exp never overflows however large the logits are.
    for (std::int64_t j = 0; j < n; ++j) out[j] = x[j] - m;
    exp_scalar(out, out, static_cast<std::size_t>(n));

    // pass 3: y_j = e_j * (1 / sum e), one reciprocal as PyTorch's kernel does;
    // the sum is >= 1 (the max's own term), so it is never 0.
    float sum = 0.0f;
    for (std::int64_t j = 0; j < n; ++j) sum += out[j];
    const float inv = 1.0f / sum;
    for (std::int64_t j = 0; j < n; ++j) out[j] *= inv;
}

#if POSENC_SIMD
// x, out: (n); out may alias x
void softmax_row_simd(float* out, const float* x, std::int64_t n) {
    const std::int64_t lanes = static_cast<std::int64_t>(kLanes);
    const std::int64_t body = n - n % lanes;
    const float neg_inf = -std::numeric_limits<float>::infinity();

    // pass 1: row max, NaN tracked apart (SSE max drops NaN depending on
    // operand order)
    batch_f vm(neg_inf);
    auto vnan = batch_f(0.0f) != batch_f(0.0f);
    for (std::int64_t j = 0; j < body; j += lanes) {
        const batch_f v = xsimd::load_unaligned(x + j);
        vnan = vnan | (v != v);
        vm = xsimd::max(vm, v);
    }
    alignas(16) float lane_max[kLanes];
    vm.store_aligned(lane_max);
    float m = neg_inf;
    for (float l : lane_max) m = std::max(m, l);
    bool has_nan = xsimd::any(vnan);
    for (std::int64_t j = body; j < n; ++j) {
        if (std::isnan(x[j])) has_nan = true;
        else if (x[j] > m) m = x[j];
    }
    if (settle_nonfinite_row(out, n, m, has_nan)) return;

    // pass 2: e_j = exp(x_j - m), arguments in (-inf, 0]
    const batch_f bm(m);
    for (std::int64_t j = 0; j < body; j += lanes)
        xsimd::store_unaligned(out + j, xsimd::load_unaligned(x + j) - bm);
    for (std::int64_t j = body; j < n; ++j) out[j] = x[j] - m;
    exp_simd(out, out, static_cast<std::size_t>(n));

    // pass 3: y_j = e_j * (1 / sum e)
    batch_f vs(0.0f);
    for (std::int64_t j = 0; j < body; j += lanes) vs += xsimd::load_unaligned(out + j);
    float sum = xsimd::hadd(vs);
    for (std::int64_t j = body; j < n; ++j) sum += out[j];
    const float inv = 1.0f / sum;
    const batch_f binv(inv);
    for (std::int64_t j = 0; j < body; j += lanes)
        xsimd::store_unaligned(out + j, xsimd::load_unaligned(out + j) * binv);
    for (std::int64_t j = body; j < n; ++j) out[j] *= inv;
}
#endif

// x, out: (rows, n); out may alias x
void softmax_rows(float* out, const float* x, std::int64_t rows, std::int64_t n) {
    check_range("rows", rows, 1, kMaxElements);
    check_range("n", n, 1, kMaxElements);
    check_elements("softmax (rows * n)", rows * n);
    for (std::int64_t r = 0; r < rows; ++r) {
#if POSENC_SIMD
        softmax_row_simd(out + r * n, x + r * n, n);
#else
        softmax_row_scalar(out + r * n, x + r * n, n);
#endif
    }
}

}  // namespace posenc
