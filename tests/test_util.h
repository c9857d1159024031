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
#include <initializer_list>
#include <iterator>
#include <limits>
#include <utility>
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

// Which twin a check_twins run computes with: posenc::scalar or posenc::simd.
enum class Kernel { scalar, simd };

// What a run may return in place of its output alone: the output and, per
// element, an allowance added to check_twins' abs + rel * |scalar| (for a
// bound that depends on the inputs, as a sum's magnitude does). Empty
// `slack` adds nothing.
struct TwinOutput {
    std::vector<float> values;
    std::vector<double> slack;
};

inline TwinOutput as_twin_output(std::vector<float> values) {
    return TwinOutput{std::move(values), {}};
}
inline TwinOutput as_twin_output(TwinOutput out) {
    return out;
}

// Several outputs of one run as the one vector check_twins compares.
inline std::vector<float> concat(std::initializer_list<const std::vector<float>*> parts) {
    std::vector<float> all;
    for (const std::vector<float>* p : parts) all.insert(all.end(), p->begin(), p->end());
    return all;
}

// The twin tester. run(n, kernel) computes one output for size n with the
// given kernel (the same inputs for both: draw them from n, not from a
// shared generator; a run with several outputs concatenates them); the SIMD
// output must equal the scalar one within `abs + rel * |scalar|` (plus the
// run's slack) per element (a zero bound: bit for bit, NaN where NaN; equal
// infinities always pass). `sizes` adds to kTailSizes (a kernel with a wider
// tail, say). Returns the largest difference seen, for tests that print it.
template <class Run>
double check_twins(Run run, double abs = 0.0, double rel = 0.0, std::vector<std::int64_t> sizes = {}) {
    sizes.insert(sizes.begin(), std::begin(kTailSizes), std::end(kTailSizes));
    double worst = 0;
    for (std::int64_t n : sizes) {
        INFO("size " << n);
        const TwinOutput s = as_twin_output(run(n, Kernel::scalar));
        const TwinOutput v = as_twin_output(run(n, Kernel::simd));
        REQUIRE(s.values.size() == v.values.size());
        REQUIRE((s.slack.empty() || s.slack.size() == s.values.size()));
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            const double a = s.values[i], b = v.values[i];
            const double bound = abs + rel * std::fabs(a) + (s.slack.empty() ? 0.0 : s.slack[i]);
            const bool both_nan = std::isnan(a) && std::isnan(b);
            if (!both_nan && a != b) worst = std::fmax(worst, std::fabs(b - a));
            const bool same_bits = std::memcmp(&s.values[i], &v.values[i], sizeof(float)) == 0;
            // Only a failure pays for the message (runs reach millions of elements).
            if (both_nan || same_bits || (bound > 0 && (a == b || std::fabs(b - a) <= bound))) continue;
            INFO("element " << i << ": scalar " << a << ", simd " << b << ", allowed " << (bound > 0 ? bound : 0.0)
                            << (bound > 0 ? "" : " (bit for bit)"));
            FAIL("the SIMD twin is off its scalar twin");
        }
    }
    return worst;
}

}  // namespace test_util
