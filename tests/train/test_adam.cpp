// Adam and gradient clipping against values torch.optim.Adam (foreach=False)
// and clip_grad_norm_ produced in PyTorch 1.13 for the same inputs.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "adam.h"
#include "errors.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

TEST_CASE("three Adam steps match torch.optim.Adam", "[adam]") {
    // lr 0.01, default betas and eps; zero, tiny, huge and sign-flipping grads
    std::vector<float> p = {0.5f, -1.25f, 3.0f, 0.0f, 1e-3f, -7.5f, 2.0f};
    const std::vector<std::vector<float>> grads = {{0.1f, -0.2f, 3.0f, 0.0f, 1e-6f, -50.0f, 0.7f},
                                                   {0.3f, 0.2f, -3.0f, 1e-4f, 1e-6f, -40.0f, -0.7f},
                                                   {-0.05f, 0.4f, 2.5f, 0.0f, 2e-6f, 60.0f, 0.1f}};
    const std::vector<std::vector<double>> torch_after = {
        {0.49000000953674316, -1.2400000095367432, 2.990000009536743, 0.0, -0.008900988847017288, -7.489999771118164,
         1.9900000095367432},
        {0.48082220554351807, -1.2405263185501099, 2.9905264377593994, -0.007440316490828991, -0.0188019797205925,
         -7.480118751525879, 1.9905263185501099},
        {0.4748130738735199, -1.2459782361984253, 2.9876320362091064, -0.013191519305109978, -0.02841194160282612,
         -7.478917121887207, 1.9902886152267456}};
    std::vector<float> m(p.size(), 0.0f), v(p.size(), 0.0f);
    AdamConfig c;
    c.lr = 0.01;
    for (std::size_t s = 0; s < grads.size(); ++s) {
        adam_update(p.data(), grads[s].data(), m.data(), v.data(), static_cast<std::int64_t>(p.size()),
                    static_cast<std::int64_t>(s + 1), c);
        for (std::size_t i = 0; i < p.size(); ++i) {
            INFO("step " << s + 1 << " element " << i);
            // torch's vector kernels fuse some multiply-adds: allow 2 ULP of
            // the update's scale
            REQUIRE(p[i] == Approx(torch_after[s][i]).margin(4e-9 + 2.5e-7 * std::fabs(torch_after[s][i])));
        }
    }
}

TEST_CASE("Adam's first step moves each weight by lr against its gradient's sign", "[adam]") {
    // m / sqrt(v) after one step, bias-corrected, is g / |g|
    for (std::int64_t n : kTailSizes) {
        std::vector<float> p(n, 1.0f), g(n), m(n, 0.0f), v(n, 0.0f);
        for (std::int64_t i = 0; i < n; ++i) g[i] = (i % 2 ? -1.0f : 1.0f) * 0.01f * static_cast<float>(i + 1);
        AdamConfig c;
        adam_update(p.data(), g.data(), m.data(), v.data(), n, 1, c);
        for (std::int64_t i = 0; i < n; ++i) REQUIRE(p[i] == Approx(1.0 - 1e-3 * (i % 2 ? -1 : 1)).epsilon(1e-6));
    }
}

TEST_CASE("Adam checks its arguments", "[adam][errors]") {
    float p = 0, g = 0, m = 0, v = 0;
    AdamConfig c;
    REQUIRE_THROWS_AS(adam_update(&p, &g, &m, &v, 1, 0, c), RangeError);
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, 1, 0, c), Catch::Contains("step must be >= 1"));
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, -1, 1, c), Catch::Contains("n must be >= 0, got -1"));
    c.lr = 0;
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, 1, 1, c),
                        Catch::Contains("lr must be a finite number greater than 0, got 0"));
    c = AdamConfig{};
    c.beta1 = 1;
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, 1, 1, c), Catch::Contains("beta1 must lie in [0, 1), got 1"));
    c = AdamConfig{};
    c.beta2 = -0.5;
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, 1, 1, c), Catch::Contains("beta2 must lie in [0, 1), got -0.5"));
    c = AdamConfig{};
    c.eps = NAN;
    REQUIRE_THROWS_WITH(adam_update(&p, &g, &m, &v, 1, 1, c),
                        Catch::Contains("eps must be a finite number greater than 0, got NaN"));
}

TEST_CASE("clip_grad_norm scales by max_norm / (total + 1e-6) only when over", "[adam][clip]") {
    // torch: grads (3, 4) and (12) -> total 13, scaled by 1/(13 + 1e-6)
    std::vector<float> a = {3.0f, 4.0f}, b = {12.0f};
    GradSpan spans[] = {{a.data(), 2}, {b.data(), 1}};
    REQUIRE(clip_grad_norm(spans, 2, 1.0) == 13.0f);
    REQUIRE(a[0] == 0.23076921701431274f);
    REQUIRE(a[1] == 0.307692289352417f);
    REQUIRE(b[0] == 0.923076868057251f);
    // under the limit: untouched
    std::vector<float> c = {0.3f, 0.4f};
    GradSpan one[] = {{c.data(), 2}};
    REQUIRE(clip_grad_norm(one, 1, 1.0) == Approx(0.5f));
    REQUIRE(c[0] == 0.3f);
    REQUIRE(c[1] == 0.4f);
    // empty tensors and no tensors
    GradSpan none[] = {{nullptr, 0}};
    REQUIRE(clip_grad_norm(none, 1, 1.0) == 0.0f);
    REQUIRE(clip_grad_norm(nullptr, 0, 1.0) == 0.0f);
    REQUIRE_THROWS_AS(clip_grad_norm(one, 1, 0.0), RangeError);
    REQUIRE_THROWS_WITH(clip_grad_norm(one, 1, -1.0),
                        Catch::Contains("max_norm must be a finite number greater than 0, got -1"));
}

#if POSENC_SIMD
TEST_CASE("Adam's SIMD twin equals the scalar twin bit for bit at every tail", "[adam][simd]") {
    // Five steps from zero moments; the output is p, m and v after them.
    check_twins([](std::int64_t n, Kernel k) {
        std::vector<float> p(sz(n)), g(sz(n)), m(sz(n), 0.0f), v(sz(n), 0.0f);
        for (std::int64_t i = 0; i < n; ++i) {
            p[i] = 0.1f * static_cast<float>(i) - 1.0f;
            g[i] = (i % 3 == 0 ? -1.0f : 1.0f) * std::pow(10.0f, static_cast<float>(i % 7) - 4.0f);
        }
        AdamConfig c;
        c.lr = 3e-3;
        const auto update = k == Kernel::simd ? simd::adam_update : scalar::adam_update;
        for (std::int64_t step = 1; step <= 5; ++step) update(p.data(), g.data(), m.data(), v.data(), n, step, c);
        return concat({&p, &m, &v});
    });
}
#endif
