#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "alibi.h"
#include "errors.h"
#include "fixture.h"
#include "softmax.h"

using namespace posenc;

namespace {

std::vector<float> slopes(std::int64_t heads) {
    std::vector<float> s(static_cast<std::size_t>(heads));
    alibi_slopes(s.data(), heads);
    return s;
}

// The formula of pytorch-semantics.md section 5, written out independently:
//   p2(n) = [2^(-8(i+1)/n)];  slopes(n) = p2(c) ++ slopes(2c)[0::2][:n-c]
std::vector<double> formula(std::int64_t n) {
    std::int64_t c = 1;
    while (c * 2 <= n) c *= 2;
    std::vector<double> out;
    for (std::int64_t i = 0; i < c; ++i) out.push_back(std::exp2(-8.0 * double(i + 1) / double(c)));
    for (std::int64_t i = 0; i < n - c; ++i) out.push_back(std::exp2(-8.0 * double(2 * i + 1) / double(2 * c)));
    return out;
}

}  // namespace

TEST_CASE("alibi slopes follow the formula for 1..64 heads", "[alibi]") {
    for (std::int64_t heads : {1, 2, 3, 5, 8, 12, 16, 64}) {
        INFO("heads " << heads);
        const auto got = slopes(heads);
        const auto want = formula(heads);
        for (std::size_t h = 0; h < got.size(); ++h) REQUIRE(got[h] == static_cast<float>(want[h]));
    }
    // The non-power-of-two case spelled out: 8 heads' slopes, then the odd
    // powers of 16 heads' ones.
    const auto s12 = slopes(12);
    const double e[12] = {-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5};
    for (int h = 0; h < 12; ++h) REQUIRE(s12[static_cast<std::size_t>(h)] == static_cast<float>(std::exp2(e[h])));
    REQUIRE(slopes(1)[0] == 0.00390625f);  // 2^-8
}

TEST_CASE("alibi bias: causal masks the future, symmetric mirrors the past", "[alibi]") {
    const std::int64_t heads = 3, n = 17;
    const auto m = slopes(heads);
    std::vector<float> causal(static_cast<std::size_t>(heads * n * n));
    std::vector<float> sym(causal.size());
    alibi_bias(causal.data(), heads, n, true);
    alibi_bias(sym.data(), heads, n, false);
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                const std::size_t at = static_cast<std::size_t>((h * n + i) * n + j);
                const float dist = static_cast<float>(i > j ? i - j : j - i);
                const float want = -m[static_cast<std::size_t>(h)] * dist;
                REQUIRE(sym[at] == want);
                if (j <= i)
                    REQUIRE(causal[at] == want);
                else
                    REQUIRE(causal[at] == -std::numeric_limits<float>::infinity());
            }
    // The diagonal is no penalty; one step back costs exactly one slope.
    REQUIRE(causal[0] == 0.0f);
    REQUIRE(causal[static_cast<std::size_t>(n)] == -m[0]);
    // A single position has nothing to mask.
    float one[2];
    alibi_bias(one, 2, 1, true);
    REQUIRE(one[0] == 0.0f);
    REQUIRE(one[1] == 0.0f);
}

TEST_CASE("alibi -m(i - j) and the reference repo's +m*j agree after softmax", "[alibi]") {
    // Per row i the two differ by the constant -m*i, which softmax cancels.
    const std::int64_t heads = 8, n = 64;
    const auto m = slopes(heads);
    std::vector<float> paper(static_cast<std::size_t>(heads * n * n));
    alibi_bias(paper.data(), heads, n, true);
    std::vector<float> repo(paper.size());
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                repo[static_cast<std::size_t>((h * n + i) * n + j)] =
                    j <= i ? m[static_cast<std::size_t>(h)] * static_cast<float>(j)
                           : -std::numeric_limits<float>::infinity();
    softmax_rows(paper.data(), paper.data(), heads * n, n);
    softmax_rows(repo.data(), repo.data(), heads * n, n);
    for (std::size_t x = 0; x < paper.size(); ++x) REQUIRE(paper[x] == Approx(repo[x]).margin(1e-6));
}

TEST_CASE("alibi rejects bad sizes with messages naming them", "[alibi]") {
    float out[4];
    REQUIRE_THROWS_AS(alibi_slopes(out, 0), RangeError);
    REQUIRE_THROWS_WITH(alibi_slopes(out, 0), Catch::Contains("heads must be between 1 and 1024, got 0"));
    REQUIRE_THROWS_WITH(alibi_slopes(out, 1025), Catch::Contains("heads must be between 1 and 1024, got 1025"));
    REQUIRE_THROWS_WITH(alibi_bias(out, -1, 1, true), Catch::Contains("heads must be between 1 and 1024, got -1"));
    REQUIRE_THROWS_AS(alibi_bias(out, 1, 0, true), RangeError);
    REQUIRE_THROWS_WITH(alibi_bias(out, 1, 0, true), Catch::Contains("seq_len must be between 1 and 8192, got 0"));
    REQUIRE_THROWS_WITH(alibi_bias(out, 1, 8193, false),
                        Catch::Contains("seq_len must be between 1 and 8192, got 8193"));
    // 2 * 4096^2 = 33554432 values: past the 2^24 cap.
    REQUIRE_THROWS_AS(alibi_bias(out, 2, 4096, true), RangeError);
    REQUIRE_THROWS_WITH(alibi_bias(out, 2, 4096, true),
                        Catch::Contains("alibi bias") && Catch::Contains("33554432") && Catch::Contains("16777216"));
}

TEST_CASE("alibi slopes and bias match PyTorch fixtures", "[alibi][fixture]") {
    const auto slope_cases = fixture::all("alibi_slopes");
    double worst = 0;
    for (const auto& c : slope_cases) {
        INFO(c.file);
        const auto got = slopes(c.integer("heads"));
        const double err = fixture::max_abs_diff(got, c.tensor("out").f32());
        REQUIRE(err <= 1e-6);
        worst = std::fmax(worst, err);
    }
    const auto bias_cases = fixture::all("alibi_bias");
    for (const auto& c : bias_cases) {
        INFO(c.file);
        const std::int64_t heads = c.integer("heads"), n = c.integer("seq_len");
        std::vector<float> got(static_cast<std::size_t>(heads * n * n));
        alibi_bias(got.data(), heads, n, c.integer("causal") != 0);
        const double err = fixture::max_abs_diff(got, c.tensor("out").f32());
        REQUIRE(err <= 1e-6);  // NaN (a -inf out of place) fails too
        worst = std::fmax(worst, err);
    }
    WARN("alibi max abs error vs fixtures: " << worst);
}
