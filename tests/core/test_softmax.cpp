#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "errors.h"
#include "fixture.h"
#include "softmax.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

const float kInf = std::numeric_limits<float>::infinity();

// Softmax in double with the max subtracted: the reference the float rows meet.
std::vector<double> reference(const std::vector<float>& x) {
    double m = -INFINITY;
    for (float v : x) m = std::fmax(m, v);
    std::vector<double> e;
    double sum = 0;
    for (float v : x) {
        e.push_back(std::exp(double(v) - m));
        sum += e.back();
    }
    for (double& v : e) v /= sum;
    return e;
}

std::vector<float> softmax(const std::vector<float>& x) {
    std::vector<float> y(x.size());
    softmax_rows(y.data(), x.data(), 1, static_cast<std::int64_t>(x.size()));
    return y;
}

}  // namespace

TEST_CASE("softmax rows sum to 1 and match a double reference", "[softmax]") {
    for (std::int64_t n : {1, 3, 4, 5, 8, 17, 64, 1000}) {
        INFO("n " << n);
        const auto x = pseudo_random(n, 10.0f, static_cast<std::uint32_t>(n));
        const auto y = softmax(x);
        const auto r = reference(x);
        double sum = 0;
        for (std::size_t j = 0; j < y.size(); ++j) {
            REQUIRE(y[j] == Approx(r[j]).epsilon(1e-5).margin(1e-12));
            sum += y[j];
        }
        REQUIRE(sum == Approx(1.0).epsilon(1e-5));
    }
    REQUIRE(softmax({3.0f})[0] == 1.0f);
}

TEST_CASE("softmax survives logits that overflow exp without max subtraction", "[softmax]") {
    // exp(88.8f) is already inf in float32; 1e4 and 1e30 far more so.
    REQUIRE(std::isinf(std::exp(88.8f)));
    for (float big : {88.8f, 1e4f, 1e30f}) {
        INFO("logit " << big);
        for (std::size_t n : {2, 5, 17}) {
            std::vector<float> x(n, 0.0f);
            x[0] = big;
            x[n - 1] = big;  // two tied maxima share the mass
            const auto y = softmax(x);
            for (std::size_t j = 0; j < n; ++j) REQUIRE(std::isfinite(y[j]));
            REQUIRE(y[0] == Approx(0.5));
            REQUIRE(y[n - 1] == Approx(0.5));
        }
        // The next float down still gets its exact relative weight.
        const std::vector<float> pair = {big, std::nextafter(big, 0.0f)};
        const auto y = softmax(pair);
        const auto r = reference(pair);
        REQUIRE(y[0] == Approx(r[0]).epsilon(1e-6));
        REQUIRE(y[1] == Approx(r[1]).epsilon(1e-6));
    }
    // 1e4 apart: the small one underflows to exactly 0, no NaN.
    const auto y = softmax({1e4f, 0.0f, -1e30f});
    REQUIRE(y[0] == 1.0f);
    REQUIRE(y[1] == 0.0f);
    REQUIRE(y[2] == 0.0f);
}

TEST_CASE("softmax of masked entries and rows", "[softmax]") {
    SECTION("-inf entries get weight 0, the rest renormalise") {
        const auto y = softmax({1.0f, -kInf, 1.0f, -kInf, 1.0f});
        REQUIRE(y[1] == 0.0f);
        REQUIRE(y[3] == 0.0f);
        REQUIRE(y[0] == Approx(1.0f / 3));
    }
    SECTION("a fully masked row gives zeros, not NaN (_safe_softmax)") {
        for (std::int64_t n : kTailSizes) {
            const auto y = softmax(std::vector<float>(sz(n), -kInf));
            for (float v : y) REQUIRE(v == 0.0f);
        }
    }
    SECTION("NaN anywhere, or +inf, makes the whole row NaN as in PyTorch") {
        for (std::int64_t n : kTailSizes) {
            for (std::size_t at : {std::size_t{0}, sz(n / 2), sz(n - 1)}) {
                INFO("n " << n << " at " << at);
                for (float bad : {std::numeric_limits<float>::quiet_NaN(), kInf}) {
                    std::vector<float> x(sz(n), 1.0f);
                    x[at] = bad;
                    for (float v : softmax(x)) REQUIRE(std::isnan(v));
                }
                // a NaN among -inf only: still NaN, not the masked row's zeros
                std::vector<float> x(sz(n), -kInf);
                x[at] = std::numeric_limits<float>::quiet_NaN();
                for (float v : softmax(x)) REQUIRE(std::isnan(v));
            }
        }
    }
}

TEST_CASE("softmax rows are independent and may work in place", "[softmax]") {
    const std::int64_t rows = 3, n = 17;
    auto x = pseudo_random(static_cast<std::size_t>(rows * n), 50.0f, 7);
    for (std::int64_t j = 0; j < n; ++j) x[static_cast<std::size_t>(n + j)] = -kInf;  // row 1 masked
    std::vector<float> y(x.size());
    softmax_rows(y.data(), x.data(), rows, n);
    softmax_rows(x.data(), x.data(), rows, n);
    REQUIRE(x == y);
    for (std::int64_t j = 0; j < n; ++j) REQUIRE(y[static_cast<std::size_t>(n + j)] == 0.0f);
}

#if POSENC_SIMD
TEST_CASE("softmax SIMD twin matches the scalar twin", "[softmax]") {
    for (float a : {1.0f, 30.0f, 1e4f}) {
        INFO("scale " << a);
        check_twins(
            [a](std::int64_t n, Kernel k) {
                auto x = pseudo_random(n, a, static_cast<std::uint32_t>(n * 31));
                if (n > 2) x[1] = -kInf;
                std::vector<float> y(x.size());
                (k == Kernel::simd ? simd::softmax_row : scalar::softmax_row)(y.data(), x.data(), n);
                return y;
            },
            1e-30, 1e-5, {12, 1023});
    }
}

TEST_CASE("softmax SIMD kernel: weights below FLT_MIN are off by less than FLT_MIN", "[softmax]") {
    // The kernel's exp (exp_nonpositive) is exact to 2.3 ULP down to FLT_MIN
    // (x - max = -87.34) and gives 0 from -88 on, where the scalar twin's
    // expf still returns subnormals. Logits 80..104 below the max sweep
    // through that range, in every lane and the tail.
    auto logits = [](std::int64_t n) {
        std::vector<float> x(static_cast<std::size_t>(n));
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = -80.0f - 24.0f * float(j) / float(n - 1);
        x[0] = 0.0f;
        return x;
    };
    for (std::int64_t n : {5, 17, 64}) {
        const std::vector<float> x = logits(n);
        std::vector<float> v(x.size());
        simd::softmax_row(v.data(), x.data(), n);
        const auto r = reference(x);
        INFO("n " << n);
        for (std::size_t j = 0; j < x.size(); ++j) {
            REQUIRE(std::fabs(v[j] - r[j]) < std::numeric_limits<float>::min());
            if (x[j] - x[0] >= -87.3f) REQUIRE(v[j] == Approx(r[j]).epsilon(1e-6));
            if (x[j] - x[0] <= -88.0f) REQUIRE(v[j] == 0.0f);
        }
    }
    // The scalar twin keeps the subnormals: less than FLT_MIN apart (the
    // largest float below it is the bound).
    check_twins(
        [&logits](std::int64_t n, Kernel k) {
            const std::vector<float> x = logits(n);
            std::vector<float> y(x.size());
            (k == Kernel::simd ? simd::softmax_row : scalar::softmax_row)(y.data(), x.data(), n);
            return y;
        },
        std::nextafter(std::numeric_limits<float>::min(), 0.0f));
}
#endif

TEST_CASE("softmax with a known max equals the softmax that finds it, bit for bit", "[softmax]") {
    // n through every step of the SIMD kernel: its two-batch exp steps, a
    // last single batch (12, 15), the padded tail, the max pass's 16-value
    // steps and what follows them (31, 65, 130, 1000).
    for (std::int64_t n : {1, 3, 4, 5, 8, 12, 15, 17, 31, 64, 65, 130, 1000}) {
        for (int kind = 0; kind < 6; ++kind) {
            INFO("n " << n << " kind " << kind);
            auto x = pseudo_random(static_cast<std::size_t>(n), 40.0f, static_cast<std::uint32_t>(n * 7 + kind));
            const std::size_t at = static_cast<std::size_t>(n / 2);
            if (kind == 1) x[at] = -kInf;                                    // one masked entry
            if (kind == 2) x.assign(x.size(), -kInf);                        // fully masked row
            if (kind == 3) x[at] = std::numeric_limits<float>::quiet_NaN();  // NaN row
            if (kind == 4) x[at] = kInf;                                     // +inf row
            if (kind == 5) {                                                 // -inf and a NaN
                x.assign(x.size(), -kInf);
                x[at] = std::numeric_limits<float>::quiet_NaN();
            }
            // The max as a caller may find it: NaN skipped, or NaN itself.
            float m = -kInf;
            for (float v : x) m = std::fmax(m, v);
            auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
                for (std::size_t j = 0; j < a.size(); ++j)
                    if (!(a[j] == b[j] || (std::isnan(a[j]) && std::isnan(b[j])))) return false;
                return true;
            };
            std::vector<float> want(x.size()), got(x.size());
            scalar::softmax_row(want.data(), x.data(), n);
            scalar::softmax_row_with_max(got.data(), x.data(), n, m);
            REQUIRE(same(got, want));
            if (kind == 3 || kind == 5) {
                scalar::softmax_row_with_max(got.data(), x.data(), n, x[at]);  // a NaN max
                REQUIRE(same(got, want));
            }
            REQUIRE(same(got, want));
#if POSENC_SIMD
            simd::softmax_row(want.data(), x.data(), n);
            simd::softmax_row_with_max(got.data(), x.data(), n, m);
            REQUIRE(same(got, want));
            if (kind == 3 || kind == 5) {
                simd::softmax_row_with_max(got.data(), x.data(), n, x[at]);
                REQUIRE(same(got, want));
            }
            REQUIRE(same(got, want));
            std::vector<float> in_place(x);
            simd::softmax_row_with_max(in_place.data(), in_place.data(), n, m);
            REQUIRE(same(in_place, want));
#endif
        }
    }
}

TEST_CASE("softmax rejects bad sizes with messages naming them", "[softmax]") {
    float x[1] = {0};
    REQUIRE_THROWS_AS(softmax_rows(x, x, 0, 1), RangeError);
    REQUIRE_THROWS_WITH(softmax_rows(x, x, 0, 1), Catch::Contains("rows must be between 1 and 16777216, got 0"));
    REQUIRE_THROWS_WITH(softmax_rows(x, x, 1, 0), Catch::Contains("n must be between 1 and 16777216, got 0"));
    REQUIRE_THROWS_WITH(softmax_rows(x, x, 1, -3), Catch::Contains("n must be between 1 and 16777216, got -3"));
    REQUIRE_THROWS_AS(softmax_rows(x, x, 4097, 4096), RangeError);
    REQUIRE_THROWS_WITH(softmax_rows(x, x, 4097, 4096),
                        Catch::Contains("softmax") && Catch::Contains("16781312") && Catch::Contains("16777216"));
}

TEST_CASE("softmax matches PyTorch fixtures", "[softmax][fixture]") {
    const auto cases = fixture::all("softmax");
    double worst = 0;
    for (const auto& c : cases) {
        INFO(c.file);
        const std::int64_t rows = c.integer("rows"), n = c.integer("n");
        const auto x = c.tensor("x").f32();
        std::vector<float> y(x.size());
        softmax_rows(y.data(), x.data(), rows, n);
        const double err = fixture::max_abs_diff(y, c.tensor("out").f32());
        REQUIRE(err <= 1e-5);  // NaN where torch is not (or the reverse) fails
        worst = std::fmax(worst, err);
    }
    WARN("softmax max abs error vs fixtures: " << worst);
}
