// The test toolkit every Catch2 file shares (XNNPACK keeps one tester per
// kernel kind; this is ours): the seeded generator, the ULP measure, and
// the twin tester that runs a SIMD kernel and its scalar twin on the same
// inputs at every size that finds a tail bug.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

namespace test_util {

// Sizes that find SIMD tail bugs: one lane, below, at and past one vector of
// 4 (wasm SIMD, SSE), past two, and a long run with a tail.
inline constexpr std::int64_t kTailSizes[] = {1, 3, 4, 5, 8, 17, 64};

// Deterministic values in [-a, a], the same in every build (a 32-bit LCG,
// Numerical Recipes' constants; the top 24 bits become the float).
inline std::vector<float> pseudo_random(std::int64_t n, float a, std::uint32_t seed) {
    std::vector<float> x(static_cast<std::size_t>(n));
    for (auto& v : x) {
        seed = seed * 1664525u + 1013904223u;
        v = a * (static_cast<float>(seed >> 8) / 8388608.0f - 1.0f);
    }
    return x;
}

// The next state of the same LCG, for tests that draw raw bit patterns.
inline std::uint32_t lcg_next(std::uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return state;
}

inline float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// One ULP of the float nearest to r (subnormal spacing below FLT_MIN). The
// other error measure, fixture::max_abs_diff, is in fixture.h.
inline double ulp_of(double r) {
    if (r == 0) return std::ldexp(1.0, -149);
    int e;
    std::frexp(r, &e);
    return std::ldexp(1.0, std::max(e - 24, -149));
}

// A size as an index type.
inline std::size_t sz(std::int64_t n) {
    return static_cast<std::size_t>(n);
}

enum class Kernel { scalar, simd };

// The twin tester. run(n, kernel) computes one output for size n with the
// given kernel (the same inputs for both: draw them from n, not from a
// shared generator); the SIMD output must equal the scalar one within
// `abs + rel * |scalar|` per element (0, 0: bit for bit, NaN where NaN).
// `sizes` adds to kTailSizes (a kernel with a wider tail, say).
template <class Run>
void check_twins(Run run, double abs = 0.0, double rel = 0.0, std::vector<std::int64_t> sizes = {}) {
    sizes.insert(sizes.begin(), std::begin(kTailSizes), std::end(kTailSizes));
    for (std::int64_t n : sizes) {
        INFO("size " << n);
        const std::vector<float> s = run(n, Kernel::scalar);
        const std::vector<float> v = run(n, Kernel::simd);
        REQUIRE(s.size() == v.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            INFO("element " << i << ": scalar " << s[i] << ", simd " << v[i]);
            if (std::isnan(s[i])) {
                REQUIRE(std::isnan(v[i]));
            } else if (abs == 0.0 && rel == 0.0) {
                REQUIRE(v[i] == s[i]);
            } else {
                REQUIRE(std::fabs(double(v[i]) - double(s[i])) <= abs + rel * std::fabs(double(s[i])));
            }
        }
    }
}

}  // namespace test_util
