#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "caps.h"
#include "check.h"
#include "errors.h"
#include "fixture.h"
#include "rope_fixture.h"
#include "rope.h"
#include "vecmath.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;
using Conv = RopeConvention;

namespace {

std::vector<float> randn(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(gen);
    return v;
}

// rope_apply on a fresh output; rotary_dim 0 means the whole row.
std::vector<float> apply(const std::vector<float>& x, std::int64_t dim, const std::vector<double>& pos, Conv conv,
                         std::int64_t rotary_dim = 0, double base = 10000.0, const RopeScaling& s = RopeScaling{}) {
    std::vector<float> out(x.size());
    rope_apply(out.data(), x.data(), static_cast<std::int64_t>(pos.size()), dim, pos.data(), base, conv,
               rotary_dim ? rotary_dim : dim, s);
    return out;
}

std::vector<float> inv_freq(std::int64_t dim, double base = 10000.0, const RopeScaling& s = RopeScaling{}) {
    std::vector<float> inv(static_cast<std::size_t>(dim / 2));
    rope_inv_freq(inv.data(), dim, base, s);
    return inv;
}

double dot(const float* a, const float* b, std::int64_t n) {
    double s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += double(a[i]) * double(b[i]);
    return s;
}

// Columns [0, 2, 4, ..., 1, 3, 5, ...] of each row: interleaved pairs laid
// out as half pairs.
std::vector<float> permute(const std::vector<float>& x, std::int64_t dim) {
    std::vector<float> y(x.size());
    const std::int64_t rows = static_cast<std::int64_t>(x.size()) / dim, h = dim / 2;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t i = 0; i < h; ++i) {
            y[r * dim + i] = x[r * dim + 2 * i];
            y[r * dim + h + i] = x[r * dim + 2 * i + 1];
        }
    return y;
}

RopeScaling linear(double factor) {
    return make_scaling(RopeScaling::Type::Linear, factor);
}

}  // namespace

TEST_CASE("rope convention names parse; others are a TypeError", "[rope]") {
    REQUIRE(rope_convention("half") == Conv::Half);
    REQUIRE(rope_convention("interleaved") == Conv::Interleaved);
    REQUIRE(named_values(&rope_convention_name) == std::vector<Conv>{Conv::Half, Conv::Interleaved});
    REQUIRE_THROWS_AS(rope_convention("neox"), TypeError);
    REQUIRE_THROWS_WITH(rope_convention("Half"), Catch::Contains("unknown RoPE convention 'Half'") &&
                                                     Catch::Contains("(expected one of 'half', 'interleaved')"));
    REQUIRE_THROWS_AS(rope_convention(nullptr), TypeError);
}

TEST_CASE("rope_inv_freq: HF Llama frequencies, scaling applied", "[rope]") {
    const auto inv = inv_freq(128);
    REQUIRE(inv[0] == 1.0f);
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const float e = static_cast<float>(2 * i) / 128.0f;
        REQUIRE(inv[i] == 1.0f / static_cast<float>(std::pow(10000.0, double(e))));
    }
    const auto lin = inv_freq(128, 10000.0, linear(4.0));
    for (std::size_t i = 0; i < inv.size(); ++i) REQUIRE(lin[i] == inv[i] / 4.0f);
    std::vector<float> buf(8);
    REQUIRE_THROWS_WITH(rope_inv_freq(buf.data(), 5), Catch::Contains("dim must be even, got 5"));
    REQUIRE_THROWS_AS(rope_inv_freq(buf.data(), 8, -1.0), RangeError);
    REQUIRE_THROWS_AS(rope_inv_freq(buf.data(), 8, 1e4, linear(-1)), RangeError);
}

TEST_CASE("the lesson's example: <R(1)q, R(3)k> = 0.65457 with theta = 0.5", "[rope]") {
    // dim 2 has one pair whose frequency is 1/base^0 = 1 for every base; linear
    // scaling with factor 2 makes it exactly 0.5 (1.0f / 2.0f). Positions must
    // be integers, so scaling the positions by theta is not an option.
    REQUIRE(inv_freq(2, 10000.0, linear(2.0))[0] == 0.5f);
    const std::vector<float> q = {1.0f, 0.5f}, k = {0.8f, 0.2f};
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        auto score = [&](double m, double n) {
            const auto qm = apply(q, 2, {m}, conv, 2, 10000.0, linear(2.0));
            const auto kn = apply(k, 2, {n}, conv, 2, 10000.0, linear(2.0));
            return dot(qm.data(), kn.data(), 2);
        };
        const double near = score(1, 3), far = score(101, 103);
        // q . R(1 rad) k = 0.8cos1 - 0.2sin1 + 0.5(0.2cos1 + 0.8sin1)
        REQUIRE(near == Approx(0.9 * std::cos(1.0) + 0.2 * std::sin(1.0)).margin(1e-6));
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.5g", near);
        REQUIRE(std::string(buf) == "0.65457");
        std::snprintf(buf, sizeof buf, "%.5g", far);
        REQUIRE(std::string(buf) == "0.65457");
        REQUIRE(far == Approx(near).margin(1e-6));
    }
}

TEST_CASE("rope: position 0 is the identity (times the attention factor)", "[rope]") {
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        const auto x = randn(3 * 34, 1);
        REQUIRE(apply(x, 34, {0, 0, 0}, conv) == x);
        const auto y = apply(x, 34, {0, 0, 0}, conv, 0, 10000.0, yarn_scaling(4.0, 4096));
        for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(y[i] == x[i] * 1.1386294f);
    }
}

TEST_CASE("rope: each pair keeps its length", "[rope]") {
    const std::int64_t dim = 64;
    const std::vector<double> pos = {1, 7, 100, 4095, 65536, 1048576, 16777216};
    const auto x = randn(pos.size() * dim, 2);
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        const auto y = apply(x, dim, pos, conv);
        for (std::size_t r = 0; r < pos.size(); ++r) {
            for (std::int64_t i = 0; i < dim / 2; ++i) {
                const std::int64_t ia = conv == Conv::Half ? i : 2 * i,
                                   ib = conv == Conv::Half ? i + dim / 2 : 2 * i + 1;
                const float* xr = &x[r * dim];
                const float* yr = &y[r * dim];
                const double before = std::hypot(double(xr[ia]), double(xr[ib]));
                const double after = std::hypot(double(yr[ia]), double(yr[ib]));
                REQUIRE(after == Approx(before).margin(1e-6).epsilon(1e-6));
            }
            REQUIRE(std::sqrt(dot(&y[r * dim], &y[r * dim], dim)) ==
                    Approx(std::sqrt(dot(&x[r * dim], &x[r * dim], dim))).epsilon(1e-6));
        }
    }
}

TEST_CASE("rope: half(x[perm]) == interleaved(x)[perm], perm = [0,2,4,...,1,3,5,...]", "[rope]") {
    // The checkpoint-mismatch relation (transformers #25199): the two
    // conventions are the same rotation on permuted coordinates, bit for bit.
    for (std::int64_t dim : {2, 6, 8, 10, 34, 128}) {
        INFO("dim " << dim);
        const std::vector<double> pos = {0, 1, 5, 333, 65536};
        const auto x = randn(pos.size() * dim, 3);
        const auto lhs = apply(permute(x, dim), dim, pos, Conv::Half);
        const auto rhs = permute(apply(x, dim, pos, Conv::Interleaved), dim);
        REQUIRE(lhs == rhs);
        // ... and they are not the same thing without the permutation.
        if (dim > 2) REQUIRE(apply(x, dim, pos, Conv::Half) != apply(x, dim, pos, Conv::Interleaved));
    }
}

TEST_CASE("rope: partial rotary turns the first rotary_dim columns only", "[rope]") {
    const std::int64_t dim = 64;
    const std::vector<double> pos = {0, 3, 9, 70000};
    const auto x = randn(pos.size() * dim, 4);
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        for (std::int64_t rd : {2, 6, 16, 34, 62}) {
            INFO("rotary_dim " << rd);
            const auto y = apply(x, dim, pos, conv, rd);
            // The head alone, rotated as a dim-rd vector, gives the same columns.
            std::vector<float> head;
            for (std::size_t r = 0; r < pos.size(); ++r)
                head.insert(head.end(), x.begin() + long(r * dim), x.begin() + long(r * dim + rd));
            const auto yh = apply(head, rd, pos, conv);
            for (std::size_t r = 0; r < pos.size(); ++r) {
                for (std::int64_t c = 0; c < rd; ++c) REQUIRE(y[r * dim + c] == yh[r * rd + c]);
                for (std::int64_t c = rd; c < dim; ++c) REQUIRE(y[r * dim + c] == x[r * dim + c]);
            }
        }
    }
}

TEST_CASE("rope: <R(m)q, R(n)k> depends only on n - m, to float32 accuracy", "[rope]") {
    // pytorch-semantics.md section 3: in float32 the invariance drifts as
    // positions grow (dim 128: shift 1e3 -> 1.5e-5, 1e5 -> 7e-3), so the
    // tolerance grows with the largest position involved.
    const std::int64_t dim = 128;
    const auto q = randn(dim, 5), k = randn(dim, 6);
    const double qk = std::sqrt(dot(q.data(), q.data(), dim) * dot(k.data(), k.data(), dim));
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        for (double m : {0.0, 3.0, 17.0}) {
            for (double gap : {0.0, 1.0, 5.0, 40.0}) {
                const auto qm = apply(q, dim, {m}, conv), kn = apply(k, dim, {m + gap}, conv);
                const double ref = dot(qm.data(), kn.data(), dim);
                for (double shift : {1.0, 100.0, 1000.0, 10000.0, 100000.0, 1048576.0}) {
                    INFO("m " << m << " gap " << gap << " shift " << shift);
                    const auto qs = apply(q, dim, {m + shift}, conv), ks = apply(k, dim, {m + gap + shift}, conv);
                    const double tol = qk * (1e-6 + 3e-9 * (m + gap + shift));
                    REQUIRE(dot(qs.data(), ks.data(), dim) == Approx(ref).margin(tol));
                }
            }
        }
    }
}

TEST_CASE("rope: large positions stay accurate (no sloppy range reduction)", "[rope]") {
    // The reference keeps the float32 angle f32(f32(m) * inv_i) -- that is the
    // PyTorch computation -- and takes sin/cos of it in double.
    const std::int64_t dim = 128;
    const auto inv = inv_freq(dim);
    for (double m : {65535.0, 65536.0, 1048576.0, 16777215.0, 16777216.0}) {
        const auto x = randn(dim, 7);
        for (Conv conv : {Conv::Half, Conv::Interleaved}) {
            INFO("position " << m);
            const auto y = apply(x, dim, {m}, conv);
            for (std::int64_t i = 0; i < dim / 2; ++i) {
                const float angle = static_cast<float>(m) * inv[std::size_t(i)];
                const float c = static_cast<float>(std::cos(double(angle)));
                const float s = static_cast<float>(std::sin(double(angle)));
                const std::int64_t ia = conv == Conv::Half ? i : 2 * i,
                                   ib = conv == Conv::Half ? i + dim / 2 : 2 * i + 1;
                const double a = x[std::size_t(ia)], b = x[std::size_t(ib)];
                REQUIRE(y[std::size_t(ia)] == Approx(a * c - b * s).margin(1e-6));
                REQUIRE(y[std::size_t(ib)] == Approx(b * c + a * s).margin(1e-6));
            }
        }
    }
}

TEST_CASE("rope: out may alias x", "[rope]") {
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        const std::int64_t dim = 40;
        const std::vector<double> pos = {0, 1, 77, 9000};
        const auto x = randn(pos.size() * dim, 8);
        const auto want = apply(x, dim, pos, conv, 34);
        auto y = x;
        rope_apply(y.data(), y.data(), 4, dim, pos.data(), 10000.0, conv, 34);
        REQUIRE(y == want);
    }
}

TEST_CASE("rope: scalar twin matches the HF float32 formula bit for bit", "[rope]") {
    // a' = f32(f32(a*c) - f32(b*s)), b' = f32(f32(b*c) + f32(a*s)), c = f32(cos(f32(m*inv))) * attn
    const std::int64_t dim = 10, rd = 8;
    const std::vector<double> pos = {0, 2, 4097};
    const auto x = randn(pos.size() * dim, 9);
    const auto inv = inv_freq(rd);
    const float attn = 1.25f;
    for (Conv conv : {Conv::Half, Conv::Interleaved}) {
        std::vector<float> y(x.size());
        scalar::rope_apply(y.data(), x.data(), 3, dim, pos.data(), inv.data(), rd, conv, attn);
        for (std::size_t r = 0; r < pos.size(); ++r)
            for (std::int64_t i = 0; i < rd / 2; ++i) {
                const float angle = static_cast<float>(pos[r]) * inv[std::size_t(i)];
                std::vector<float> sn(1), cs(1);
                scalar::sincos(&angle, sn.data(), cs.data(), 1);
                const float c = cs[0] * attn, s = sn[0] * attn;
                const std::int64_t ia = conv == Conv::Half ? i : 2 * i,
                                   ib = conv == Conv::Half ? i + rd / 2 : 2 * i + 1;
                const float a = x[r * dim + ia], b = x[r * dim + ib];
                const float ac = a * c, bs = b * s, bc = b * c, as = a * s;
                REQUIRE(y[r * dim + ia] == ac - bs);
                REQUIRE(y[r * dim + ib] == bc + as);
            }
    }
}

#if POSENC_SIMD
TEST_CASE("rope: SIMD twin matches the scalar twin on every tail", "[rope][simd]") {
    // Size n is the number of rotating pairs; `extra` columns pass through.
    const std::vector<double> pos = {0, 1, 2, 31, 4096, 65536, 1048576, 16777216};
    const std::int64_t rows = std::int64_t(pos.size());
    double worst = 0;
    for (std::int64_t extra : {0, 2, 6}) {
        for (Conv conv : {Conv::Half, Conv::Interleaved}) {
            for (float attn : {1.0f, 1.1386294f}) {
                INFO("extra " << extra << " attn " << attn << " interleaved " << (conv == Conv::Interleaved));
                auto run = [&](std::int64_t pairs, Kernel k) {
                    const std::int64_t rd = 2 * pairs, dim = rd + extra;
                    const auto x = randn(pos.size() * dim, unsigned(100 + pairs + extra));
                    const auto inv = inv_freq(rd);
                    const auto rope = k == Kernel::simd ? simd::rope_apply : scalar::rope_apply;
                    std::vector<float> y(x.size());
                    rope(y.data(), x.data(), rows, dim, pos.data(), inv.data(), rd, conv, attn, SinCos::Fast);
                    // Pass-through columns are copied exactly.
                    for (std::size_t r = 0; r < pos.size(); ++r)
                        for (std::int64_t c = rd; c < dim; ++c) REQUIRE(y[r * dim + c] == x[r * dim + c]);
                    // In place gives the same.
                    auto z = x;
                    rope(z.data(), z.data(), rows, dim, pos.data(), inv.data(), rd, conv, attn, SinCos::Fast);
                    REQUIRE(z == y);
                    return y;
                };
                // sin/cos may each be 1.5e-7 off; |a|, |b| < ~5.
                worst = std::fmax(worst, check_twins(run, 2e-6));
            }
        }
    }
    std::printf("[rope] SIMD vs scalar twin: max abs difference %.3g\n", worst);
}
#endif

TEST_CASE("rope_apply fixtures from HF Llama / GPT-J with PyTorch: 1e-6 fast, bit for bit exact", "[rope][fixture]") {
    const auto cases = fixture::all("rope_apply");
    double worst = 0;
    std::string worst_file;
    for (const auto& c : cases) {
        INFO(c.file);
        const RopeScaling s = rope_scaling_of(c);
        const std::int64_t rows = c.integer("rows"), dim = c.integer("dim");
        const auto x = c.tensor("x").f32();
        const auto& pos = c.tensor("positions").values;
        REQUIRE(std::int64_t(x.size()) == rows * dim);
        REQUIRE(std::int64_t(pos.size()) == rows);
        std::vector<float> out(x.size());
        rope_apply(out.data(), x.data(), rows, dim, pos.data(), c.num("base"),
                   rope_convention(c.str("convention").c_str()), c.integer("rotary_dim"), s, SinCos::Fast);
        const double err = fixture::max_abs_diff(out, c.tensor("out").values);
        CHECK(err <= 1e-6);
        // The fast path above; the exact one gives torch's bits. Every case
        // has rotary_dim/2 a multiple of 8 or all angles below 125, so the
        // per-row grouping of cos/sin is HF's and GPT-J's (see rope.h).
        std::vector<float> exact(x.size());
        rope_apply(exact.data(), x.data(), rows, dim, pos.data(), c.num("base"),
                   rope_convention(c.str("convention").c_str()), c.integer("rotary_dim"), s, SinCos::Exact);
        const auto want = c.tensor("out").f32();
        CHECK(std::memcmp(exact.data(), want.data(), want.size() * sizeof(float)) == 0);
        if (err > worst) {
            worst = err;
            worst_file = c.file;
        }
    }
    std::printf("[rope] %zu rope_apply fixtures, max abs error %.3g (%s)\n", cases.size(), worst, worst_file.c_str());
}

TEST_CASE("rope_apply: every bad argument is refused with a message", "[rope]") {
    std::vector<float> x(64, 1.0f), out(64);
    std::vector<double> pos(32, 1.0);
    auto call = [&](std::int64_t rows, std::int64_t dim, double base, std::int64_t rd,
                    const RopeScaling& s = RopeScaling{}) {
        rope_apply(out.data(), x.data(), rows, dim, pos.data(), base, Conv::Half, rd, s);
    };
    REQUIRE_NOTHROW(call(4, 8, 1e4, 8));
    REQUIRE_THROWS_WITH(call(0, 8, 1e4, 8), Catch::Contains("rows must be between 1 and 16777216, got 0"));
    REQUIRE_THROWS_AS(call(kMaxPosition + 1, 8, 1e4, 8), RangeError);
    REQUIRE_THROWS_WITH(call(4, 7, 1e4, 6), Catch::Contains("dim must be even, got 7"));
    REQUIRE_THROWS_WITH(call(4, 0, 1e4, 2), Catch::Contains("dim must be between 2 and 65536, got 0"));
    REQUIRE_THROWS_AS(call(1, kMaxDim + 2, 1e4, 2), RangeError);
    REQUIRE_THROWS_WITH(call(4, 8, 1e4, 3), Catch::Contains("rotary_dim must be even, got 3"));
    REQUIRE_THROWS_WITH(call(4, 8, 1e4, 10), Catch::Contains("rotary_dim must be between 2 and 8, got 10"));
    REQUIRE_THROWS_WITH(call(4, 8, 1e4, 0), Catch::Contains("rotary_dim must be between 2 and 8, got 0"));
    REQUIRE_THROWS_WITH(call(4, 8, 0.0, 8), Catch::Contains("base must be a finite number greater than 0, got 0"));
    REQUIRE_THROWS_WITH(call(4, 8, NAN, 8), Catch::Contains("base") && Catch::Contains("NaN"));
    REQUIRE_THROWS_WITH(call(4, 8, INFINITY, 8), Catch::Contains("base") && Catch::Contains("Infinity"));
    // rows * dim over the cap (2^24 values): refused before anything is touched.
    REQUIRE_THROWS_WITH(call(kMaxPosition, 2 * 2, 1e4, 2), Catch::Contains("x would hold 67108864 values"));
    RopeScaling bad;
    bad.type = RopeScaling::Type::Yarn;
    bad.factor = 4;
    REQUIRE_THROWS_WITH(call(4, 8, 1e4, 8, bad), Catch::Contains("scaling.original_max_positions"));
    RopeScaling dyn;
    dyn.type = RopeScaling::Type::Dynamic;
    dyn.factor = 2;
    dyn.max_positions = 16;
    REQUIRE_THROWS_WITH(call(4, 8, 1e4, 2, dyn), Catch::Contains("rotary_dim must be at least 4 for dynamic scaling"));
    REQUIRE_NOTHROW(call(4, 8, 1e4, 4, dyn));

    // Positions: integers in 0..2^24, the message names the index and the value.
    auto with_pos = [&](std::size_t i, double p) {
        pos.assign(32, 1.0);
        pos[i] = p;
        call(4, 8, 1e4, 8);
    };
    REQUIRE_THROWS_WITH(with_pos(2, 2.5),
                        Catch::Contains("positions[2] must be an integer between 0 and 16777216, got 2.5"));
    REQUIRE_THROWS_WITH(with_pos(0, -1), Catch::Contains("positions[0]") && Catch::Contains("got -1"));
    REQUIRE_THROWS_WITH(with_pos(3, 16777217), Catch::Contains("positions[3]") && Catch::Contains("got 16777217"));
    REQUIRE_THROWS_WITH(with_pos(1, NAN), Catch::Contains("positions[1]") && Catch::Contains("got NaN"));
    REQUIRE_THROWS_WITH(with_pos(1, INFINITY), Catch::Contains("positions[1]") && Catch::Contains("got Infinity"));
    REQUIRE_THROWS_AS(with_pos(1, 0.5), RangeError);
    REQUIRE_NOTHROW(with_pos(1, 16777216));
    REQUIRE_NOTHROW(with_pos(1, 0));
}
