#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "alibi.h"
#include "attention.h"
#include "errors.h"
#include "fixture.h"

using namespace posenc;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
using Vec = std::vector<float>;

// Deterministic values in [-a, a], the same in every build.
Vec pseudo_random(std::size_t n, float a, std::uint32_t seed) {
    Vec x(n);
    for (auto& v : x) {
        seed = seed * 1664525u + 1013904223u;
        v = a * (static_cast<float>(seed >> 8) / 8388608.0f - 1.0f);
    }
    return x;
}

std::size_t sz(std::int64_t n) { return static_cast<std::size_t>(n); }

struct Result {
    Vec out, weights;
};

Result run(const Vec& q, const Vec& k, const Vec& v, std::int64_t heads, std::int64_t seq,
           std::int64_t d, const AttentionOptions& o = {}) {
    Result r{Vec(sz(heads * seq * d), -7.0f), Vec(sz(heads * seq * seq), -7.0f)};
    attention(r.out.data(), r.weights.data(), q.data(), k.data(), v.data(), heads, seq, d, o);
    return r;
}

// The definition in double: S = scale * Q K^T + bias, -inf for j > i when
// causal, W = softmax(S) with a fully masked row -> 0, O = W V.
Result reference(const Vec& q, const Vec& k, const Vec& v, const float* bias, std::int64_t heads,
                 std::int64_t seq, std::int64_t d, double scale, bool causal) {
    Result r{Vec(sz(heads * seq * d)), Vec(sz(heads * seq * seq))};
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < seq; ++i) {
            std::vector<double> s(sz(seq));
            double m = -INFINITY;
            for (std::int64_t j = 0; j < seq; ++j) {
                double dot = 0;
                for (std::int64_t p = 0; p < d; ++p)
                    dot += double(q[sz((h * seq + i) * d + p)]) * k[sz((h * seq + j) * d + p)];
                s[sz(j)] = scale * dot + (bias ? bias[(h * seq + i) * seq + j] : 0.0);
                if (causal && j > i) s[sz(j)] = -INFINITY;
                m = std::fmax(m, s[sz(j)]);
            }
            double sum = 0;
            for (auto& x : s) { x = m == -INFINITY ? 0.0 : std::exp(x - m); sum += x; }
            for (std::int64_t j = 0; j < seq; ++j) {
                const double w = sum > 0 ? s[sz(j)] / sum : 0.0;
                r.weights[sz((h * seq + i) * seq + j)] = static_cast<float>(w);
                for (std::int64_t p = 0; p < d; ++p) {
                    float& o = r.out[sz((h * seq + i) * d + p)];
                    o = static_cast<float>(o + w * v[sz((h * seq + j) * d + p)]);
                }
            }
        }
    return r;
}

double max_diff(const Vec& a, const Vec& b) { return fixture::max_abs_diff(a, b); }

}  // namespace

TEST_CASE("attention matches a double-precision reference", "[attention]") {
    for (bool causal : {false, true}) {
        for (std::int64_t seq : {1, 3, 4, 5, 8, 17, 64}) {
            for (std::int64_t d : {1, 3, 4, 5, 8, 17, 64}) {
                INFO("seq " << seq << " head_dim " << d << " causal " << causal);
                const std::int64_t heads = 2;
                const auto q = pseudo_random(sz(heads * seq * d), 1.0f, 1);
                const auto k = pseudo_random(sz(heads * seq * d), 1.0f, 2);
                const auto v = pseudo_random(sz(heads * seq * d), 1.0f, 3);
                const auto bias = pseudo_random(sz(heads * seq * seq), 1.0f, 4);
                AttentionOptions o;
                o.causal = causal;
                const auto plain = run(q, k, v, heads, seq, d, o);
                const auto want = reference(q, k, v, nullptr, heads, seq, d, 1.0 / std::sqrt(double(d)), causal);
                REQUIRE(max_diff(plain.out, want.out) <= 1e-5);
                REQUIRE(max_diff(plain.weights, want.weights) <= 1e-5);
                o.bias = bias.data();
                o.scale = 0.5f;
                const auto biased = run(q, k, v, heads, seq, d, o);
                const auto want_b = reference(q, k, v, bias.data(), heads, seq, d, 0.5, causal);
                REQUIRE(max_diff(biased.out, want_b.out) <= 1e-5);
                REQUIRE(max_diff(biased.weights, want_b.weights) <= 1e-5);
            }
        }
    }
}

#if POSENC_SIMD
TEST_CASE("attention SIMD twin matches the scalar twin", "[attention]") {
    for (bool causal : {false, true}) {
        for (bool with_bias : {false, true}) {
            for (std::int64_t seq : {1, 3, 4, 5, 8, 17, 64}) {
                for (std::int64_t d : {1, 3, 4, 5, 8, 17, 64}) {
                    INFO("seq " << seq << " head_dim " << d << " causal " << causal << " bias " << with_bias);
                    const auto q = pseudo_random(sz(seq * d), 2.0f, 11);
                    const auto k = pseudo_random(sz(seq * d), 2.0f, 12);
                    const auto v = pseudo_random(sz(seq * d), 1.0f, 13);
                    auto bias = pseudo_random(sz(seq * seq), 3.0f, 14);
                    bias[0] = -kInf;  // a masked entry inside the visible part
                    const float* b = with_bias ? bias.data() : nullptr;
                    const float scale = 1.0f / std::sqrt(float(d));
                    Vec os(sz(seq * d), -7.0f), ws(sz(seq * seq), -7.0f);
                    Vec ov(os), wv(ws);
                    attention_head_scalar(os.data(), ws.data(), q.data(), k.data(), v.data(), b, seq, d, scale, causal);
                    attention_head_simd(ov.data(), wv.data(), q.data(), k.data(), v.data(), b, seq, d, scale, causal);
                    REQUIRE(max_diff(ov, os) <= 2e-6);
                    REQUIRE(max_diff(wv, ws) <= 2e-6);
                }
            }
        }
    }
}
#endif

TEST_CASE("attention survives logits that overflow exp without max subtraction", "[attention]") {
    // q . k are exact here (one nonzero product per pair), so the scores are
    // exactly the logits named: 88.8 (exp overflows float32), 1e4 and 1e30.
    for (float big : {88.8f, 1e4f, 1e30f}) {
        for (std::int64_t d : {1, 5, 17}) {
            INFO("logit " << big << " head_dim " << d);
            const std::int64_t seq = 3;
            Vec q(sz(seq * d), 0.0f), k(q), v(q);
            for (std::int64_t i = 0; i < seq; ++i) {
                q[sz(i * d)] = big;
                v[sz(i * d)] = float(i + 1);
            }
            k[0] = 1.0f;  // key 0 scores `big`, keys 1 and 2 score 0
            k[sz(2 * d)] = 1.0f;  // key 2 ties with key 0
            AttentionOptions o;
            o.scale = 1.0f;
            const auto r = run(q, k, v, 1, seq, d, o);
            for (float w : r.weights) REQUIRE(std::isfinite(w));
            for (std::int64_t i = 0; i < seq; ++i) {
                const float* w = r.weights.data() + i * seq;
                REQUIRE(w[0] == Approx(0.5).margin(1e-6));
                REQUIRE(w[1] == Approx(0.0).margin(1e-6));
                REQUIRE(w[2] == Approx(0.5).margin(1e-6));
                REQUIRE(r.out[sz(i * d)] == Approx(2.0).margin(1e-5));
            }
            o.causal = true;
            const auto c = run(q, k, v, 1, seq, d, o);
            REQUIRE(c.weights[0] == 1.0f);
            REQUIRE(c.weights[sz(seq)] == 1.0f);  // row 1: key 0 (big) beats key 1 (0)
            REQUIRE(c.weights[sz(2 * seq)] == Approx(0.5).margin(1e-6));
        }
    }
}

TEST_CASE("attention masks: causal rows and fully masked bias rows", "[attention]") {
    const std::int64_t heads = 2, seq = 17, d = 5;
    const auto q = pseudo_random(sz(heads * seq * d), 1.0f, 21);
    const auto k = pseudo_random(sz(heads * seq * d), 1.0f, 22);
    const auto v = pseudo_random(sz(heads * seq * d), 1.0f, 23);

    SECTION("causal: no weight on the future; the first row copies v_0") {
        AttentionOptions o;
        o.causal = true;
        const auto r = run(q, k, v, heads, seq, d, o);
        for (std::int64_t h = 0; h < heads; ++h) {
            for (std::int64_t i = 0; i < seq; ++i) {
                const float* w = r.weights.data() + (h * seq + i) * seq;
                for (std::int64_t j = i + 1; j < seq; ++j) REQUIRE(w[j] == 0.0f);
                REQUIRE(std::accumulate(w, w + seq, 0.0) == Approx(1.0).epsilon(1e-5));
            }
            REQUIRE(r.weights[sz(h * seq * seq)] == 1.0f);
            for (std::int64_t p = 0; p < d; ++p)
                REQUIRE(r.out[sz(h * seq * d + p)] == Approx(v[sz(h * seq * d + p)]).margin(1e-6));
        }
    }
    SECTION("a bias row of all -inf gives zero weights and zero output, no NaN") {
        for (bool causal : {false, true}) {
            Vec bias(sz(heads * seq * seq), 0.0f);
            for (std::int64_t masked : {0, 4, 16}) {
                float* row = bias.data() + (seq + masked) * seq;  // head 1
                std::fill(row, row + seq, -kInf);
            }
            AttentionOptions o;
            o.causal = causal;
            o.bias = bias.data();
            const auto r = run(q, k, v, heads, seq, d, o);
            for (float x : r.weights) REQUIRE(!std::isnan(x));
            for (float x : r.out) REQUIRE(!std::isnan(x));
            for (std::int64_t masked : {0, 4, 16}) {
                for (std::int64_t j = 0; j < seq; ++j) REQUIRE(r.weights[sz((seq + masked) * seq + j)] == 0.0f);
                for (std::int64_t p = 0; p < d; ++p) REQUIRE(r.out[sz((seq + masked) * d + p)] == 0.0f);
            }
            // Head 0 is untouched by head 1's mask.
            REQUIRE(r.weights[0] > 0.0f);
        }
    }
}

TEST_CASE("attention without mask or bias is permutation-equivariant", "[attention]") {
    const std::int64_t seq = 17, d = 8;
    const auto q = pseudo_random(sz(seq * d), 1.0f, 31);
    const auto k = pseudo_random(sz(seq * d), 1.0f, 32);
    const auto v = pseudo_random(sz(seq * d), 1.0f, 33);
    std::vector<std::int64_t> perm(sz(seq));
    for (std::int64_t i = 0; i < seq; ++i) perm[sz(i)] = (i * 5 + 3) % seq;  // 5 is coprime to 17
    auto permute = [&](const Vec& x) {
        Vec y(x.size());
        for (std::int64_t i = 0; i < seq; ++i)
            std::copy_n(x.begin() + perm[sz(i)] * d, d, y.begin() + i * d);
        return y;
    };
    const auto base = run(q, k, v, 1, seq, d);
    const auto moved = run(permute(q), permute(k), permute(v), 1, seq, d);
    REQUIRE(max_diff(moved.out, permute(base.out)) <= 1e-6);
    // Each weight moves with both its query and its key.
    for (std::int64_t i = 0; i < seq; ++i)
        for (std::int64_t j = 0; j < seq; ++j)
            REQUIRE(moved.weights[sz(i * seq + j)] ==
                    Approx(base.weights[sz(perm[sz(i)] * seq + perm[sz(j)])]).margin(1e-7));
}

TEST_CASE("attention with causal ALiBi matches the reference and the +m*j form", "[attention]") {
    const std::int64_t heads = 4, seq = 33, d = 16;
    const auto q = pseudo_random(sz(heads * seq * d), 1.0f, 41);
    const auto k = pseudo_random(sz(heads * seq * d), 1.0f, 42);
    const auto v = pseudo_random(sz(heads * seq * d), 1.0f, 43);
    Vec bias(sz(heads * seq * seq));
    alibi_bias(bias.data(), heads, seq, true);
    AttentionOptions o;
    o.causal = true;
    o.bias = bias.data();
    const auto r = run(q, k, v, heads, seq, d, o);
    const auto want = reference(q, k, v, bias.data(), heads, seq, d, 0.25, true);
    REQUIRE(max_diff(r.out, want.out) <= 1e-5);
    REQUIRE(max_diff(r.weights, want.weights) <= 1e-5);
    // The reference repo's bias +m*j differs per row by a constant: same attention.
    Vec slopes(sz(heads));
    alibi_slopes(slopes.data(), heads);
    Vec repo(bias.size());
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < seq; ++i)
            for (std::int64_t j = 0; j < seq; ++j) repo[sz((h * seq + i) * seq + j)] = slopes[sz(h)] * float(j);
    o.bias = repo.data();
    const auto r2 = run(q, k, v, heads, seq, d, o);
    REQUIRE(max_diff(r2.out, r.out) <= 1e-5);
    REQUIRE(max_diff(r2.weights, r.weights) <= 1e-5);
    // ALiBi pulls weight toward recent keys: the last row favours its own key over key 0
    // more than plain causal attention does, on average over heads.
    o.bias = nullptr;
    const auto plain = run(q, k, v, heads, seq, d, o);
    double recent = 0, recent_plain = 0;
    for (std::int64_t h = 0; h < heads; ++h) {
        recent += r.weights[sz((h * seq + seq - 1) * seq + seq - 1)];
        recent_plain += plain.weights[sz((h * seq + seq - 1) * seq + seq - 1)];
    }
    REQUIRE(recent > recent_plain);
}

TEST_CASE("attention rejects bad arguments with messages naming them", "[attention]") {
    float* none = nullptr;  // the checks run before anything is touched
    auto call = [&](std::int64_t h, std::int64_t n, std::int64_t d, float scale = 0.0f) {
        AttentionOptions o;
        o.scale = scale;
        attention(none, none, none, none, none, h, n, d, o);
    };
    REQUIRE_THROWS_AS(call(0, 1, 1), RangeError);
    REQUIRE_THROWS_WITH(call(0, 1, 1), Catch::Contains("heads must be between 1 and 1024, got 0"));
    REQUIRE_THROWS_WITH(call(1025, 1, 1), Catch::Contains("heads must be between 1 and 1024, got 1025"));
    REQUIRE_THROWS_WITH(call(1, 0, 1), Catch::Contains("seq must be between 1 and 8192, got 0"));
    REQUIRE_THROWS_WITH(call(1, 8193, 1), Catch::Contains("seq must be between 1 and 8192, got 8193"));
    REQUIRE_THROWS_WITH(call(1, 1, 0), Catch::Contains("head_dim must be between 1 and 65536, got 0"));
    REQUIRE_THROWS_WITH(call(1, 1, 65537), Catch::Contains("head_dim must be between 1 and 65536, got 65537"));
    // 1024 * 256^2 = 2^26 weights; 1 * 512 * 65536 = 2^25 outputs: both past 2^24.
    REQUIRE_THROWS_AS(call(1024, 256, 1), RangeError);
    REQUIRE_THROWS_WITH(call(1024, 256, 1), Catch::Contains("attention weights") && Catch::Contains("67108864") &&
                                                Catch::Contains("16777216"));
    REQUIRE_THROWS_AS(call(1, 512, 65536), RangeError);
    REQUIRE_THROWS_WITH(call(1, 512, 65536), Catch::Contains("attention output") && Catch::Contains("33554432"));
    REQUIRE_THROWS_AS(call(1, 1, 1, -1.0f), RangeError);
    REQUIRE_THROWS_WITH(call(1, 1, 1, -1.0f), Catch::Contains("scale must be >= 0") && Catch::Contains("got -1"));
    REQUIRE_THROWS_WITH(call(1, 1, 1, std::numeric_limits<float>::quiet_NaN()),
                        Catch::Contains("scale must be a finite number, got NaN"));
    REQUIRE_THROWS_WITH(call(1, 1, 1, kInf), Catch::Contains("scale must be a finite number, got Infinity"));
}

TEST_CASE("attention matches PyTorch fixtures", "[attention][fixture]") {
    const auto cases = fixture::all("attention");
    REQUIRE(!cases.empty());
    double worst = 0;
    for (const auto& c : cases) {
        INFO(c.file);
        const std::int64_t h = c.integer("heads"), n = c.integer("seq"), d = c.integer("head_dim");
        const auto bias = c.integer("has_bias") ? c.tensor("bias").f32() : Vec{};
        AttentionOptions o;
        o.causal = c.integer("causal") != 0;
        o.scale = c.str("scale") == "default" ? 0.0f : static_cast<float>(c.num("scale"));
        o.bias = bias.empty() ? nullptr : bias.data();
        const auto r = run(c.tensor("q").f32(), c.tensor("k").f32(), c.tensor("v").f32(), h, n, d, o);
        const double e_out = max_diff(r.out, c.tensor("out").f32());
        const double e_w = max_diff(r.weights, c.tensor("weights").f32());
        REQUIRE(e_out <= 1e-5);
        REQUIRE(e_w <= 1e-5);
        worst = std::fmax(worst, std::fmax(e_out, e_w));
    }
    WARN("attention max abs error vs fixtures: " << worst);
}
