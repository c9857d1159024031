// LayerNorm forward against a double-precision reference and nn.LayerNorm's
// formula; backward against central differences of that reference (in
// double, so the check itself adds no float32 noise).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "errors.h"
#include "layer_norm.h"
#include "train_tasks.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

// Row i's mean and (biased) variance in double, two passes: the reference
// layer_norm is held to.
struct Moments {
    double mean, var;
};
template <class V>
Moments row_moments(const V& x, std::int64_t i, std::int64_t n) {
    double mu = 0, var = 0;
    for (std::int64_t k = 0; k < n; ++k) mu += x[i * n + k];
    mu /= n;
    for (std::int64_t k = 0; k < n; ++k) var += (x[i * n + k] - mu) * (x[i * n + k] - mu);
    return {mu, var / n};
}

// J = sum r * LN(x) in double: the scalar whose gradient backward returns for dy = r.
double objective(const std::vector<double>& x, const std::vector<double>& gamma, const std::vector<double>& beta,
                 const std::vector<double>& r, std::int64_t rows, std::int64_t n) {
    double j = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
        const auto [mu, var] = row_moments(x, i, n);
        const double rs = 1.0 / std::sqrt(var + 1e-5);
        for (std::int64_t k = 0; k < n; ++k) j += r[i * n + k] * ((x[i * n + k] - mu) * rs * gamma[k] + beta[k]);
    }
    return j;
}

// dJ/dv by the central difference (J(v + h) - J(v - h)) / 2h, v one entry
// of the objective's inputs (restored after).
template <class J>
double central_difference(double& v, J objective_now, double h = 1e-6) {
    const double keep = v;
    v = keep + h;
    const double up = objective_now();
    v = keep - h;
    const double down = objective_now();
    v = keep;
    return (up - down) / (2 * h);
}

std::vector<float> draw(TrainRng& rng, std::int64_t n, double lo, double hi) {
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(lo + (hi - lo) * rng.uniform());
    return v;
}

}  // namespace

TEST_CASE("layer_norm forward and backward at SIMD-tail widths", "[layer_norm]") {
    for (std::int64_t n : kTailSizes) {
        const std::int64_t rows = 3;
        TrainRng rng(static_cast<std::uint64_t>(n));
        // a large common offset: a one-pass E[x^2] - E[x]^2 would lose it
        std::vector<float> x = draw(rng, rows * n, 99.0, 101.0);
        const std::vector<float> gamma = draw(rng, n, 0.5, 1.5), beta = draw(rng, n, -0.5, 0.5);
        const std::vector<float> dy = draw(rng, rows * n, -1.0, 1.0);
        std::vector<float> y(rows * n), mean(rows), rstd(rows);
        layer_norm_forward(y.data(), mean.data(), rstd.data(), x.data(), gamma.data(), beta.data(), rows, n);
        for (std::int64_t i = 0; i < rows; ++i) {
            const auto [mu, var] = row_moments(x, i, n);
            REQUIRE(mean[i] == Approx(mu).epsilon(1e-7));
            REQUIRE(rstd[i] == Approx(1.0 / std::sqrt(var + 1e-5)).epsilon(1e-6));
            for (std::int64_t k = 0; k < n; ++k) {
                const double want = (x[i * n + k] - mu) / std::sqrt(var + 1e-5) * gamma[k] + beta[k];
                // (x - mean) loses the offset's bits: float32 x near 100 carries 8e-6 of rounding
                REQUIRE(y[i * n + k] == Approx(want).margin(2e-5 * std::sqrt(1.0 / (var + 1e-5))));
            }
        }
        // backward: accumulate = false overwrites, the affine grads add
        std::vector<float> dx(rows * n, 123.0f), dg(n, 1.0f), db(n, 2.0f);
        layer_norm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), mean.data(), rstd.data(),
                            gamma.data(), rows, n, false);
        std::vector<double> xd(x.begin(), x.end()), gd(gamma.begin(), gamma.end()), bd(beta.begin(), beta.end()),
            rd(dy.begin(), dy.end());
        const auto j = [&] { return objective(xd, gd, bd, rd, rows, n); };
        for (std::int64_t i = 0; i < rows * n; ++i) REQUIRE(dx[i] == Approx(central_difference(xd[i], j)).margin(2e-4));
        for (std::int64_t k = 0; k < n; ++k) {
            REQUIRE(dg[k] - 1.0f == Approx(central_difference(gd[k], j)).margin(2e-4));
            double sum = 0;
            for (std::int64_t i = 0; i < rows; ++i) sum += dy[i * n + k];
            REQUIRE(db[k] - 2.0f == Approx(sum).margin(1e-5));
        }
        // accumulate = true adds onto what is there
        std::vector<float> dx2(rows * n, 1.0f);
        layer_norm_backward(dx2.data(), dg.data(), db.data(), dy.data(), x.data(), mean.data(), rstd.data(),
                            gamma.data(), rows, n, true);
        for (std::int64_t i = 0; i < rows * n; ++i) REQUIRE(dx2[i] == Approx(dx[i] + 1.0f).margin(1e-6));
    }
}

TEST_CASE("layer_norm of a constant row is beta (variance 0, eps keeps it finite)", "[layer_norm]") {
    const std::vector<float> x(5, 3.0f), gamma(5, 2.0f), beta = {1, 2, 3, 4, 5};
    std::vector<float> y(5), mean(1), rstd(1);
    layer_norm_forward(y.data(), mean.data(), rstd.data(), x.data(), gamma.data(), beta.data(), 1, 5);
    for (int k = 0; k < 5; ++k) REQUIRE(y[k] == beta[k]);
    REQUIRE(rstd[0] == Approx(1.0 / std::sqrt(1e-5)).epsilon(1e-6));
}

TEST_CASE("layer_norm checks its sizes", "[layer_norm][errors]") {
    float x = 0, y = 0, m = 0, r = 0, g = 1, b = 0;
    REQUIRE_THROWS_AS(layer_norm_forward(&y, &m, &r, &x, &g, &b, 0, 1), RangeError);
    REQUIRE_THROWS_WITH(layer_norm_forward(&y, &m, &r, &x, &g, &b, 0, 1),
                        Catch::Contains("rows must be between 1 and"));
    REQUIRE_THROWS_WITH(layer_norm_forward(&y, &m, &r, &x, &g, &b, 1, 0),
                        Catch::Contains("n must be between 1 and 65536, got 0"));
    REQUIRE_THROWS_WITH(layer_norm_backward(&y, &g, &b, &x, &x, &m, &r, &g, 1, 0, false),
                        Catch::Contains("n must be between 1 and 65536, got 0"));
    REQUIRE_THROWS_WITH(layer_norm_backward(&y, &g, &b, &x, &x, &m, &r, &g, -2, 1, false), Catch::Contains("got -2"));
}
