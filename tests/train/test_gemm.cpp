// gemm against a double-precision naive product, in all three layouts, with
// and without accumulation, over shapes below, at and above every block size
// of the SIMD kernel (4 rows; 4- and 8-column batches) and the trainer's own
// shapes. No PyTorch fixtures: a float matrix product has no reference
// semantics beyond the sum itself, which double precision gives exactly
// enough.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gemm.h"
#include "simd.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

using Gemm = void (*)(float*, const float*, const float*, std::int64_t, std::int64_t, std::int64_t, bool);

enum class Layout { nn, nt, tn };

// One product's operands: the logical A (m, k) and B (k, n), and the same
// values stored the way each layout reads them.
struct Problem {
    std::int64_t m, k, n;
    std::vector<float> a, b;  // A (m, k), B (k, n)
    std::vector<float> c0;    // C before the call (m, n)

    Problem(std::int64_t m_, std::int64_t k_, std::int64_t n_, std::uint32_t seed)
        : m(m_),
          k(k_),
          n(n_),
          a(pseudo_random(m * k, 1.0f, seed)),
          b(pseudo_random(k * n, 1.0f, seed ^ 0x9e3779b9u)),
          c0(pseudo_random(m * n, 1.0f, seed ^ 0x85ebca6bu)) {}

    // A as the layout stores it: (m, k) for nn and nt, (k, m) for tn.
    std::vector<float> a_stored(Layout l) const { return l == Layout::tn ? transposed(a, m, k) : a; }
    // B as the layout stores it: (k, n) for nn and tn, (n, k) for nt.
    std::vector<float> b_stored(Layout l) const { return l == Layout::nt ? transposed(b, k, n) : b; }

    // x: (rows, cols) -> (cols, rows)
    static std::vector<float> transposed(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
        std::vector<float> t(x.size());
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < cols; ++j) t[j * rows + i] = x[i * cols + j];
        return t;
    }
};

// Guard floats on both sides of C: a kernel writing past its (m, n) block
// changes them.
constexpr std::int64_t kGuard = 16;
constexpr float kGuardValue = -12345.0f;

// Runs f on p; C starts as c0 when accumulating and as NaN otherwise (an
// overwrite must not read it). Returns the (m, n) result; REQUIREs the guards.
std::vector<float> run(Gemm f, Layout l, const Problem& p, bool accumulate) {
    const std::int64_t size = p.m * p.n;
    std::vector<float> buf(static_cast<std::size_t>(size + 2 * kGuard), kGuardValue);
    for (std::int64_t i = 0; i < size; ++i)
        buf[kGuard + i] = accumulate ? p.c0[i] : std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> a = p.a_stored(l), b = p.b_stored(l);
    f(buf.data() + kGuard, a.data(), b.data(), p.m, p.k, p.n, accumulate);
    std::int64_t guards_hit = 0;
    for (std::int64_t i = 0; i < kGuard; ++i)
        guards_hit += (buf[i] != kGuardValue) + (buf[kGuard + size + i] != kGuardValue);
    REQUIRE(guards_hit == 0);
    return {buf.begin() + kGuard, buf.begin() + kGuard + size};
}

// Each entry's magnitude: |c0| + sum |a b|, the size of the numbers its
// float sum passes through (a plain relative error would blow up where the
// sum cancels).
std::vector<double> magnitude(const Problem& p, bool accumulate) {
    std::vector<double> mag(static_cast<std::size_t>(p.m * p.n));
    for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.n; ++j) {
            double s = accumulate ? std::fabs(p.c0[i * p.n + j]) : 0.0;
            for (std::int64_t q = 0; q < p.k; ++q) s += std::fabs(double(p.a[i * p.k + q]) * double(p.b[q * p.n + j]));
            mag[i * p.n + j] = s;
        }
    return mag;
}

// The largest error of c against the double-precision product, in units of
// the tolerance 1e-5 sqrt(k) times the entry's magnitude. <= 1 passes.
double worst_error(const std::vector<float>& c, const Problem& p, bool accumulate) {
    const std::vector<double> mag = magnitude(p, accumulate);
    const double scale = 1e-5 * std::sqrt(double(std::max<std::int64_t>(p.k, 1)));
    double worst = 0;
    for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.n; ++j) {
            double ref = accumulate ? p.c0[i * p.n + j] : 0.0;
            for (std::int64_t q = 0; q < p.k; ++q) ref += double(p.a[i * p.k + q]) * double(p.b[q * p.n + j]);
            const double err = std::fabs(double(c[i * p.n + j]) - ref);
            const double tol = scale * mag[i * p.n + j];
            // tol is 0 only for an entry that must come out exactly 0 (or c0)
            const double e = tol > 0 ? err / tol : (err == 0 ? 0.0 : INFINITY);
            if (!(e <= worst)) worst = e;  // a NaN result counts as the worst
        }
    return worst;
}

struct Named {
    const char* name;
    Layout layout;
    Gemm f;
};

// kernels:: (the build's choice, what the trainer calls) and the scalar twins.
const Named kPublic[] = {{"kernels::gemm_nn", Layout::nn, kernels::gemm_nn},
                         {"kernels::gemm_nt", Layout::nt, kernels::gemm_nt},
                         {"kernels::gemm_tn", Layout::tn, kernels::gemm_tn}};
const Named kScalar[] = {{"scalar::gemm_nn", Layout::nn, scalar::gemm_nn},
                         {"scalar::gemm_nt", Layout::nt, scalar::gemm_nt},
                         {"scalar::gemm_tn", Layout::tn, scalar::gemm_tn}};

// Below, at and above the kernel's 4-row block and its 4- and 8-column
// batches, and a few multiples of neither.
const std::int64_t kSizes[] = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33};

void check_all_shapes(const Named (&fs)[3]) {
    std::uint32_t seed = 1;
    for (const Named& g : fs)
        for (std::int64_t m : kSizes)
            for (std::int64_t k : kSizes)
                for (std::int64_t n : kSizes)
                    for (bool acc : {false, true}) {
                        const Problem p(m, k, n, seed++);
                        INFO(g.name << " m=" << m << " k=" << k << " n=" << n << " accumulate=" << acc);
                        REQUIRE(worst_error(run(g.f, g.layout, p, acc), p, acc) <= 1.0);
                    }
}

}  // namespace

TEST_CASE("gemm: small products worked by hand, every layout", "[gemm]") {
    // A = [1 2 3; 4 5 6] (2, 3), B = [1 0; 0 1; 2 -1] (3, 2): A B = [7 -1; 16 -1]
    const std::vector<float> a = {1, 2, 3, 4, 5, 6};
    const std::vector<float> at = {1, 4, 2, 5, 3, 6};  // A^T stored (3, 2)
    const std::vector<float> b = {1, 0, 0, 1, 2, -1};
    const std::vector<float> bt = {1, 0, 2, 0, 1, -1};  // B^T stored (2, 3)
    const std::vector<float> expect = {7, -1, 16, -1};
    std::vector<float> c(4, 99.0f);

    kernels::gemm_nn(c.data(), a.data(), b.data(), 2, 3, 2, false);
    CHECK(c == expect);
    kernels::gemm_nt(c.data(), a.data(), bt.data(), 2, 3, 2, false);
    CHECK(c == expect);
    kernels::gemm_tn(c.data(), at.data(), b.data(), 2, 3, 2, false);
    CHECK(c == expect);

    // accumulate adds onto what C holds: twice the product now
    kernels::gemm_nn(c.data(), a.data(), b.data(), 2, 3, 2, true);
    CHECK(c == std::vector<float>{14, -2, 32, -2});
    kernels::gemm_nt(c.data(), a.data(), bt.data(), 2, 3, 2, true);
    CHECK(c == std::vector<float>{21, -3, 48, -3});
    kernels::gemm_tn(c.data(), at.data(), b.data(), 2, 3, 2, true);
    CHECK(c == std::vector<float>{28, -4, 64, -4});
}

TEST_CASE("gemm: 1x1x1 and empty products", "[gemm]") {
    const float a = 3.0f, b = -2.0f;
    for (const Named& g : kPublic) {
        INFO(g.name);
        float c = 10.0f;
        g.f(&c, &a, &b, 1, 1, 1, false);
        CHECK(c == -6.0f);
        g.f(&c, &a, &b, 1, 1, 1, true);
        CHECK(c == -12.0f);

        // k = 0: the empty sum, so C becomes 0, or stays as it was
        std::vector<float> c2(6, 5.0f), none;
        g.f(c2.data(), none.data(), none.data(), 2, 0, 3, true);
        CHECK(c2 == std::vector<float>(6, 5.0f));
        g.f(c2.data(), none.data(), none.data(), 2, 0, 3, false);
        CHECK(c2 == std::vector<float>(6, 0.0f));

        // m = 0 or n = 0: nothing to write (ASan sees any write to c0)
        const std::vector<float> ones(20, 1.0f);
        std::vector<float> c0;
        g.f(c0.data(), ones.data(), ones.data(), 0, 5, 3, false);
        g.f(c0.data(), ones.data(), ones.data(), 4, 5, 0, true);
    }
}

TEST_CASE("gemm: every shape from 0 to 33 in each dimension, both modes", "[gemm]") {
    check_all_shapes(kPublic);
}

TEST_CASE("gemm: scalar twins, every shape from 0 to 33", "[gemm]") {
    check_all_shapes(kScalar);
}

TEST_CASE("gemm: the trainer's shapes", "[gemm]") {
    // m = batch 32 x length 16; d_model 64, FFN 256; attention 16 x 16 x 16
    const std::int64_t shapes[][3] = {{512, 64, 64}, {512, 64, 256}, {512, 256, 64}, {512, 128, 128},
                                      {16, 16, 16},  {16, 64, 16},   {511, 65, 63}};
    std::uint32_t seed = 1000;
    for (const Named& g : kPublic)
        for (const auto& s : shapes)
            for (bool acc : {false, true}) {
                const Problem p(s[0], s[1], s[2], seed++);
                INFO(g.name << " m=" << s[0] << " k=" << s[1] << " n=" << s[2] << " accumulate=" << acc);
                REQUIRE(worst_error(run(g.f, g.layout, p, acc), p, acc) <= 1.0);
            }
}

TEST_CASE("gemm: large and cancelling values", "[gemm]") {
    // Entries up to 1e3 (products up to 1e6), with A's second half of
    // columns a copy of its first and B's second half of rows the negation
    // of its first: every exact entry of A B is 0, while the float sums pass
    // through values of order 1e6. The tolerance is relative to that magnitude.
    std::uint32_t seed = 7;
    for (const Named& g : kPublic) {
        Problem p(37, 64, 19, seed++);
        for (float& v : p.a) v *= 1000.0f;
        for (float& v : p.b) v *= 1000.0f;
        for (std::int64_t q = 32; q < 64; ++q)
            for (std::int64_t j = 0; j < p.n; ++j) p.b[q * p.n + j] = -p.b[(q - 32) * p.n + j];
        for (std::int64_t i = 0; i < p.m; ++i)
            for (std::int64_t q = 32; q < 64; ++q) p.a[i * p.k + q] = p.a[i * p.k + q - 32];
        INFO(g.name);
        const std::vector<float> c = run(g.f, g.layout, p, false);
        CHECK(worst_error(c, p, false) <= 1.0);
        CHECK(worst_error(run(g.f, g.layout, p, true), p, true) <= 1.0);
    }
}

TEST_CASE("gemm: accumulate adds to C, overwrite ignores it", "[gemm]") {
    std::uint32_t seed = 99;
    for (const Named& g : kPublic) {
        INFO(g.name);
        const Problem p(9, 17, 13, seed++);
        const std::vector<float> a = p.a_stored(g.layout), b = p.b_stored(g.layout);
        // overwrite: C full of NaN and inf gives the same as C full of zeros
        std::vector<float> dirty(9 * 13, std::numeric_limits<float>::quiet_NaN());
        dirty[5] = std::numeric_limits<float>::infinity();
        std::vector<float> zeros(9 * 13, 0.0f);
        g.f(dirty.data(), a.data(), b.data(), 9, 17, 13, false);
        g.f(zeros.data(), a.data(), b.data(), 9, 17, 13, true);
        CHECK(dirty == zeros);
        // accumulating twice equals twice the product (within rounding)
        g.f(zeros.data(), a.data(), b.data(), 9, 17, 13, true);
        for (std::size_t i = 0; i < dirty.size(); ++i) CHECK(zeros[i] == Approx(2.0f * dirty[i]).margin(1e-5));
    }
}

#if POSENC_SIMD
TEST_CASE("gemm: SIMD kernels against their scalar twins", "[gemm]") {
    const Named simd[] = {{"simd::gemm_nn", Layout::nn, simd::gemm_nn},
                          {"simd::gemm_nt", Layout::nt, simd::gemm_nt},
                          {"simd::gemm_tn", Layout::tn, simd::gemm_tn}};
    // Size n is the product's n; m and k run through the same tail sizes.
    for (int l = 0; l < 3; ++l)
        for (std::int64_t m : kTailSizes)
            for (std::int64_t k : kTailSizes)
                for (bool acc : {false, true}) {
                    INFO(simd[l].name << " m=" << m << " k=" << k << " accumulate=" << acc);
                    check_twins([&](std::int64_t n, Kernel kernel) {
                        const Problem p(m, k, n, std::uint32_t(4242 + (((l * 128 + m) * 128 + k) * 128 + n) * 2 + acc));
                        const Named& g = kernel == Kernel::simd ? simd[l] : kScalar[l];
                        TwinOutput c{run(g.f, g.layout, p, acc), {}};
                        REQUIRE(worst_error(c.values, p, acc) <= 1.0);
                        // Both add the same products; the header allows them
                        // to differ in the last bits: 4 ULP of 1 (2^-21) times
                        // the magnitude.
                        for (double mag : magnitude(p, acc)) c.slack.push_back(std::ldexp(mag, -21));
                        return c;
                    });
                }
}
#endif
