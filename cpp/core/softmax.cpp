#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check.h"
#include "caps.h"
#include "vecmath.h"

namespace posenc {

// What a row whose max is not a finite number becomes, as PyTorch has it:
// a NaN max, or a +inf (inf - inf = NaN), makes the whole row NaN; a row
// that is entirely -inf (fully masked) gives zeros (_safe_softmax), not NaN,
// but -inf and NaN only is NaN (the max may have skipped the NaN).
// Returns true when the row was settled here.
static bool settle_nonfinite_row(float* out, const float* x, std::int64_t n, float m) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (std::isnan(m) || m == std::numeric_limits<float>::infinity()) {
        std::fill(out, out + n, nan);
        return true;
    }
    if (m == -std::numeric_limits<float>::infinity()) {
        const bool has_nan = std::any_of(x, x + n, [](float v) { return std::isnan(v); });
        std::fill(out, out + n, has_nan ? nan : 0.0f);
        return true;
    }
    return false;
}

// With a finite max m, x_j - m is NaN only for a NaN x_j (-inf - m = -inf,
// whose exp is 0), so a NaN sum of exps says the row held a NaN, which
// PyTorch spreads to the whole row. This check stands in for tracking NaN
// in the max pass.
static bool settle_nan_sum(float* out, std::int64_t n, float sum) {
    if (!std::isnan(sum)) return false;
    std::fill(out, out + n, std::numeric_limits<float>::quiet_NaN());
    return true;
}

namespace scalar {

// x, out: (n); out may alias x
void softmax_row(float* out, const float* x, std::int64_t n) {
    // pass 1: row max (a NaN is skipped here and caught by the sum)
    float m = -std::numeric_limits<float>::infinity();
    for (std::int64_t j = 0; j < n; ++j)
        if (x[j] > m) m = x[j];
    softmax_row_with_max(out, x, n, m);
}

// x, out: (n); out may alias x; m: the row's max
void softmax_row_with_max(float* out, const float* x, std::int64_t n, float m) {
    if (settle_nonfinite_row(out, x, n, m)) return;

    // pass 1: e_j = exp(x_j - m). Subtracting the max puts every argument in
    // (-inf, 0], so exp never overflows however large the logits are.
    for (std::int64_t j = 0; j < n; ++j) out[j] = x[j] - m;
    exp_array(out, out, static_cast<std::size_t>(n));

    // pass 2: y_j = e_j * (1 / sum e), one reciprocal as PyTorch's kernel does;
    // the sum is >= 1 (the max's own term), so it is never 0.
    float sum = 0.0f;
    for (std::int64_t j = 0; j < n; ++j) sum += out[j];
    if (settle_nan_sum(out, n, sum)) return;
    const float inv = 1.0f / sum;
    for (std::int64_t j = 0; j < n; ++j) out[j] *= inv;
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {

// x, out: (n); out may alias x
void softmax_row(float* out, const float* x, std::int64_t n) {
    const std::int64_t lanes = static_cast<std::int64_t>(kLanes);
    const std::int64_t body = n - n % lanes;
    const float neg_inf = -std::numeric_limits<float>::infinity();

    // pass 1: row max (a NaN may be dropped here: the sum catches it), in four
    // running maxima, so that the max instructions overlap instead of each
    // waiting for the one before (2% on the whole softmax under V8)
    const std::int64_t wide = n - n % (4 * lanes);
    batch_f m0(neg_inf), m1(neg_inf), m2(neg_inf), m3(neg_inf);
    for (std::int64_t j = 0; j < wide; j += 4 * lanes) {
        m0 = pmax(m0, xsimd::load_unaligned(x + j));
        m1 = pmax(m1, xsimd::load_unaligned(x + j + lanes));
        m2 = pmax(m2, xsimd::load_unaligned(x + j + 2 * lanes));
        m3 = pmax(m3, xsimd::load_unaligned(x + j + 3 * lanes));
    }
    for (std::int64_t j = wide; j < body; j += lanes) m0 = pmax(m0, xsimd::load_unaligned(x + j));
    const batch_f vm = pmax(pmax(m0, m1), pmax(m2, m3));
    alignas(16) float lane_max[kLanes];
    vm.store_aligned(lane_max);
    float m = neg_inf;
    for (float l : lane_max) m = std::max(m, l);
    for (std::int64_t j = body; j < n; ++j) m = std::max(m, x[j]);
    softmax_row_with_max(out, x, n, m);
}

// x, out: (n); out may alias x; m: the row's max
void softmax_row_with_max(float* out, const float* x, std::int64_t n, float m) {
    if (settle_nonfinite_row(out, x, n, m)) return;
    const std::int64_t lanes = static_cast<std::int64_t>(kLanes);
    const std::int64_t body = n - n % lanes;

    // pass 1: e_j = exp(x_j - m), stored and summed in one sweep (XNNPACK's
    // "raddstoreexpminusmax"; Dukhan & Ablavatski 2020): every argument is in
    // [-inf, 0], which exp_nonpositive is made for. Two batches per step into
    // two sums (4% faster in L1 under V8, measured), one more batch, then the
    // tail. Each batch is loaded before it is stored, so out may alias x. The
    // row (4 KB at n = 1024) is still in L1 for pass 2.
    const batch_f bm(m);
    const std::int64_t pairs = n - n % (2 * lanes);
    batch_f vs(0.0f), vs1(0.0f);
    for (std::int64_t j = 0; j < pairs; j += 2 * lanes) {
        const batch_f e0 = exp_nonpositive(xsimd::load_unaligned(x + j) - bm);
        const batch_f e1 = exp_nonpositive(xsimd::load_unaligned(x + j + lanes) - bm);
        e0.store_unaligned(out + j);
        e1.store_unaligned(out + j + lanes);
        vs += e0;
        vs1 += e1;
    }
    vs += vs1;
    for (std::int64_t j = pairs; j < body; j += lanes) {
        const batch_f e = exp_nonpositive(xsimd::load_unaligned(x + j) - bm);
        e.store_unaligned(out + j);
        vs += e;
    }
    if (body < n) {
        // the tail, padded with -inf, whose exp is 0 and adds nothing
        alignas(16) float t[kLanes];
        std::fill(t, t + kLanes, -std::numeric_limits<float>::infinity());
        std::copy(x + body, x + n, t);
        const batch_f e = exp_nonpositive(xsimd::load_aligned(t) - bm);
        vs += e;
        e.store_aligned(t);
        std::copy(t, t + (n - body), out + body);
    }
    const float sum = xsimd::hadd(vs);
    if (settle_nan_sum(out, n, sum)) return;

    // pass 2: y_j = e_j * (1 / sum e)
    const float inv = 1.0f / sum;
    const batch_f binv(inv);
    for (std::int64_t j = 0; j < body; j += lanes)
        xsimd::store_unaligned(out + j, xsimd::load_unaligned(out + j) * binv);
    for (std::int64_t j = body; j < n; ++j) out[j] *= inv;
}

}  // namespace simd
#endif

// x, out: (rows, n); out may alias x
void softmax_rows(float* out, const float* x, std::int64_t rows, std::int64_t n) {
    check_range("rows", rows, 1, kMaxElements);
    check_range("n", n, 1, kMaxElements);
    check_elements("softmax (rows * n)", rows * n);
    for (std::int64_t r = 0; r < rows; ++r) kernels::softmax_row(out + r * n, x + r * n, n);
}

}  // namespace posenc
