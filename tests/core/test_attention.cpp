#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "alibi.h"
#include "attention.h"
#include "errors.h"
#include "fixture.h"
#include "t5_bias.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
using Vec = std::vector<float>;

struct Result {
    Vec out, weights;
};

Result run(const Vec& q, const Vec& k, const Vec& v, std::int64_t heads, std::int64_t seq, std::int64_t d,
           const AttentionOptions& o = {}) {
    Result r{Vec(sz(heads * seq * d), -7.0f), Vec(o.want_weights ? sz(heads * seq * seq) : 0)};
    attention(r.out.data(), o.want_weights ? r.weights.data() : nullptr, q.data(), k.data(), v.data(), heads, seq, d,
              o);
    return r;
}

// The definition in double: S = scale * Q K^T + bias, -inf for j > i when
// causal, W = softmax(S) with a fully masked row -> 0, O = W V.
Result reference(const Vec& q, const Vec& k, const Vec& v, const float* bias, std::int64_t heads, std::int64_t seq,
                 std::int64_t d, double scale, bool causal) {
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
            for (auto& x : s) {
                x = m == -INFINITY ? 0.0 : std::exp(x - m);
                sum += x;
            }
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

// q, k, v of n values each from the seeds seed, seed + 1, seed + 2: q and k
// in [-qk, qk] (2 sharpens the weights), v in [-1, 1].
struct Qkv {
    Vec q, k, v;
};
Qkv draw_qkv(std::int64_t n, float qk, std::uint32_t seed) {
    return {pseudo_random(n, qk, seed), pseudo_random(n, qk, seed + 1), pseudo_random(n, 1.0f, seed + 2)};
}

double max_diff(const Vec& a, const Vec& b) {
    return fixture::max_abs_diff(a, b);
}

}  // namespace

TEST_CASE("attention matches a double-precision reference", "[attention]") {
    for (bool causal : {false, true}) {
        for (std::int64_t seq : kTailSizes) {
            for (std::int64_t d : kTailSizes) {
                INFO("seq " << seq << " head_dim " << d << " causal " << causal);
                const std::int64_t heads = 2;
                const auto [q, k, v] = draw_qkv(heads * seq * d, 1.0f, 1);
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
    // Size n is head_dim; the output is O, then W (-7 where a twin writes nothing).
    for (bool causal : {false, true}) {
        for (bool with_bias : {false, true}) {
            for (std::int64_t seq : kTailSizes) {
                INFO("seq " << seq << " causal " << causal << " bias " << with_bias);
                check_twins(
                    [&](std::int64_t d, Kernel kernel) {
                        const auto [q, k, v] = draw_qkv(seq * d, 2.0f, 11);
                        auto bias = pseudo_random(sz(seq * seq), 3.0f, 14);
                        bias[0] = -kInf;  // a masked entry inside the visible part
                        const float* b = with_bias ? bias.data() : nullptr;
                        const float scale = 1.0f / std::sqrt(float(d));
                        Vec o(sz(seq * d), -7.0f), w(sz(seq * seq), -7.0f);
                        const AttentionHead head{q.data(), k.data(), v.data(), b, nullptr, seq, d, scale, causal};
                        AttentionWorkspace work;
                        (kernel == Kernel::simd ? simd::attention_head : scalar::attention_head)(o.data(), w.data(),
                                                                                                 head, work);
                        return concat({&o, &w});
                    },
                    2e-6);
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
            k[0] = 1.0f;          // key 0 scores `big`, keys 1 and 2 score 0
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
    const auto [q, k, v] = draw_qkv(heads * seq * d, 1.0f, 21);

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
    const auto [q, k, v] = draw_qkv(seq * d, 1.0f, 31);
    std::vector<std::int64_t> perm(sz(seq));
    for (std::int64_t i = 0; i < seq; ++i) perm[sz(i)] = (i * 5 + 3) % seq;  // 5 is coprime to 17
    auto permute = [&](const Vec& x) {
        Vec y(x.size());
        for (std::int64_t i = 0; i < seq; ++i) std::copy_n(x.begin() + perm[sz(i)] * d, d, y.begin() + i * d);
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
    const auto [q, k, v] = draw_qkv(heads * seq * d, 1.0f, 41);
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

namespace {

// bias[h, i, j] = table[bucket(j - i), h], the (heads, seq, seq) tensor the
// fused T5 path never builds.
Vec t5_bias_tensor(const Vec& table, std::int64_t heads, std::int64_t seq, bool bidirectional, std::int64_t num_buckets,
                   std::int64_t max_distance) {
    std::vector<std::int32_t> b(sz(seq * seq));
    t5_buckets(b.data(), seq, seq, bidirectional, num_buckets, max_distance);
    Vec bias(sz(heads * seq * seq));
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t c = 0; c < seq * seq; ++c) bias[sz(h * seq * seq + c)] = table[sz(b[sz(c)] * heads + h)];
    return bias;
}

}  // namespace

TEST_CASE("attention with fused ALiBi equals attention with the materialised bias", "[attention][alibi]") {
    for (bool causal : {true, false}) {
        for (std::int64_t seq : kTailSizes) {
            for (std::int64_t d : kTailSizes) {
                INFO("seq " << seq << " head_dim " << d << " causal " << causal);
                const std::int64_t heads = 3;
                const auto [q, k, v] = draw_qkv(heads * seq * d, 2.0f, 51);
                Vec bias(sz(heads * seq * seq));
                alibi_bias(bias.data(), heads, seq, causal);  // causal: -inf above the diagonal
                AttentionOptions m;
                m.causal = causal;
                m.bias = bias.data();
                const auto want = run(q, k, v, heads, seq, d, m);
                AttentionOptions f;
                f.causal = causal;
                f.alibi = true;
                const auto got = run(q, k, v, heads, seq, d, f);
                REQUIRE(max_diff(got.out, want.out) <= 1e-6);
                REQUIRE(max_diff(got.weights, want.weights) <= 1e-6);
                if (causal) {
                    // The materialised causal bias masks by itself: same attention.
                    m.causal = false;
                    const auto by_bias = run(q, k, v, heads, seq, d, m);
                    REQUIRE(max_diff(got.out, by_bias.out) <= 1e-6);
                    REQUIRE(max_diff(got.weights, by_bias.weights) <= 1e-6);
                }
            }
        }
    }
}

TEST_CASE("attention with a fused T5 table equals attention with the materialised bias", "[attention][t5]") {
    struct Config {
        bool bidirectional;
        std::int64_t num_buckets, max_distance;
    };
    // HF's defaults both ways, and small ones so the log-spaced and the
    // clamped (past max_distance) buckets show up at short lengths.
    for (Config c : {Config{true, 32, 128}, Config{false, 32, 128}, Config{true, 8, 6}, Config{false, 6, 9}}) {
        for (bool causal : {false, true}) {
            for (std::int64_t seq : {1, 3, 5, 17, 64, 200}) {
                for (std::int64_t d : {1, 4, 17}) {
                    INFO("seq " << seq << " head_dim " << d << " causal " << causal << " buckets " << c.num_buckets
                                << " bidirectional " << c.bidirectional);
                    const std::int64_t heads = 3;
                    const auto [q, k, v] = draw_qkv(heads * seq * d, 2.0f, 61);
                    const auto table = pseudo_random(sz(c.num_buckets * heads), 3.0f, 64);
                    const auto bias = t5_bias_tensor(table, heads, seq, c.bidirectional, c.num_buckets, c.max_distance);
                    AttentionOptions m;
                    m.causal = causal;
                    m.scale = 1.0f;  // T5 does not scale its scores
                    m.bias = bias.data();
                    const auto want = run(q, k, v, heads, seq, d, m);
                    AttentionOptions f;
                    f.causal = causal;
                    f.scale = 1.0f;
                    f.t5_table = table.data();
                    f.t5_bidirectional = c.bidirectional;
                    f.t5_num_buckets = c.num_buckets;
                    f.t5_max_distance = c.max_distance;
                    const auto got = run(q, k, v, heads, seq, d, f);
                    REQUIRE(max_diff(got.out, want.out) <= 1e-6);
                    REQUIRE(max_diff(got.weights, want.weights) <= 1e-6);
                }
            }
        }
    }
}

TEST_CASE("attention with ALiBi, T5 and a bias at once adds all three", "[attention]") {
    const std::int64_t heads = 2, seq = 19, d = 6;
    const auto [q, k, v] = draw_qkv(heads * seq * d, 1.0f, 71);
    const auto extra = pseudo_random(sz(heads * seq * seq), 1.0f, 74);
    const auto table = pseudo_random(sz(32 * heads), 1.0f, 75);
    Vec alibi(sz(heads * seq * seq));
    alibi_bias(alibi.data(), heads, seq, false);
    const auto t5 = t5_bias_tensor(table, heads, seq, true, 32, 128);
    Vec sum(extra.size());
    for (std::size_t c = 0; c < sum.size(); ++c) sum[c] = extra[c] + (alibi[c] + t5[c]);
    for (bool causal : {false, true}) {
        AttentionOptions m;
        m.causal = causal;
        m.bias = sum.data();
        const auto want = run(q, k, v, heads, seq, d, m);
        AttentionOptions f;
        f.causal = causal;
        f.bias = extra.data();
        f.alibi = true;
        f.t5_table = table.data();
        const auto got = run(q, k, v, heads, seq, d, f);
        REQUIRE(max_diff(got.out, want.out) <= 1e-6);
        REQUIRE(max_diff(got.weights, want.weights) <= 1e-6);
    }
}

TEST_CASE("attention without weights computes the same output", "[attention]") {
    for (bool causal : {false, true}) {
        for (bool alibi : {false, true}) {
            for (std::int64_t seq : kTailSizes) {
                for (std::int64_t d : kTailSizes) {
                    INFO("seq " << seq << " head_dim " << d << " causal " << causal << " alibi " << alibi);
                    const std::int64_t heads = 2;
                    const auto [q, k, v] = draw_qkv(heads * seq * d, 2.0f, 81);
                    const auto bias = pseudo_random(sz(heads * seq * seq), 1.0f, 84);
                    AttentionOptions o;
                    o.causal = causal;
                    o.alibi = alibi;
                    o.bias = bias.data();
                    const auto with = run(q, k, v, heads, seq, d, o);
                    o.want_weights = false;
                    Vec out(sz(heads * seq * d), -7.0f);
                    attention(out.data(), nullptr, q.data(), k.data(), v.data(), heads, seq, d, o);
                    REQUIRE(out == with.out);
                }
            }
        }
    }
    // Without weights, only the output counts against the size cap:
    // 256 * 300^2 weights would be past 2^24.
    const std::int64_t heads = 256, seq = 300, d = 1;
    const auto q = pseudo_random(sz(heads * seq * d), 1.0f, 85);
    Vec out(q.size());
    AttentionOptions o;
    o.want_weights = false;
    attention(out.data(), nullptr, q.data(), q.data(), q.data(), heads, seq, d, o);
    for (float x : out) REQUIRE(std::isfinite(x));
}

TEST_CASE("attention reusing one workspace gives the results of fresh calls", "[attention]") {
    AttentionWorkspace ws;
    // Sizes up and down, options changing between calls; 64 first, so the
    // later (smaller or equal) calls must not grow anything.
    struct Call {
        std::int64_t heads, seq, d;
        bool causal, alibi, t5, weights;
    };
    const Call calls[] = {{3, 64, 64, false, true, true, true}, {1, 1, 1, false, false, false, true},
                          {2, 17, 5, true, true, false, false}, {4, 64, 17, false, false, true, true},
                          {3, 5, 3, true, false, false, true},  {1, 64, 64, true, true, true, false},
                          {2, 8, 8, false, true, false, true},  {3, 3, 64, true, false, true, false}};
    const float *kp = nullptr, *vp = nullptr, *rows = nullptr, *rel = nullptr;
    for (int round = 0; round < 2; ++round) {
        for (const Call& c : calls) {
            INFO("round " << round << " heads " << c.heads << " seq " << c.seq << " head_dim " << c.d);
            const auto [q, k, v] = draw_qkv(c.heads * c.seq * c.d, 2.0f, 91);
            const auto table = pseudo_random(sz(32 * c.heads), 1.0f, 94);
            AttentionOptions o;
            o.causal = c.causal;
            o.alibi = c.alibi;
            o.t5_table = c.t5 ? table.data() : nullptr;
            o.want_weights = c.weights;
            const auto fresh = run(q, k, v, c.heads, c.seq, c.d, o);
            o.workspace = &ws;
            const auto reused = run(q, k, v, c.heads, c.seq, c.d, o);
            REQUIRE(reused.out == fresh.out);
            if (c.weights) REQUIRE(reused.weights == fresh.weights);
        }
        if (round == 0) {
            kp = ws.key_panels.data(), vp = ws.value_panels.data(), rows = ws.rows.data(), rel = ws.rel_bias.data();
        } else {
            // The second round allocated nothing.
            REQUIRE(ws.key_panels.data() == kp);
            REQUIRE(ws.value_panels.data() == vp);
            REQUIRE(ws.rows.data() == rows);
            REQUIRE(ws.rel_bias.data() == rel);
        }
    }
}

namespace {

// A head with a float bias and a relative bias whose diagonal is masked.
struct RelBiasCase {
    std::int64_t seq, d;
    bool causal;
    Vec q, k, v, bias, rel;

    RelBiasCase(std::int64_t seq_, std::int64_t d_, bool causal_)
        : seq(seq_),
          d(d_),
          causal(causal_),
          q(pseudo_random(sz(seq * d), 2.0f, 101)),
          k(pseudo_random(sz(seq * d), 2.0f, 102)),
          v(pseudo_random(sz(seq * d), 1.0f, 103)),
          bias(pseudo_random(sz(seq * seq), 1.0f, 104)),
          rel(pseudo_random(sz(2 * seq - 1), 3.0f, 105)) {
        rel[sz(seq - 1)] = -kInf;  // the diagonal masked by the relative bias
    }

    AttentionHead head() const {
        return AttentionHead{q.data(), k.data(), v.data(), bias.data(), rel.data() + (seq - 1), seq, d, 0.3f, causal};
    }

    // O (and W when `keep`, else nothing) of one twin; -7 where it writes nothing.
    Result run(void (*twin)(float*, float*, const AttentionHead&, AttentionWorkspace&), bool keep) const {
        Result r{Vec(sz(seq * d), -7.0f), Vec(keep ? sz(seq * seq) : 0, -7.0f)};
        AttentionWorkspace ws;
        twin(r.out.data(), keep ? r.weights.data() : nullptr, head(), ws);
        return r;
    }
};

}  // namespace

TEST_CASE("attention with relative bias and without weights matches the definition", "[attention]") {
    for (bool causal : {false, true}) {
        for (bool keep : {true, false}) {
            for (std::int64_t seq : kTailSizes) {
                for (std::int64_t d : kTailSizes) {
                    INFO("seq " << seq << " head_dim " << d << " causal " << causal << " weights " << keep);
                    const RelBiasCase c(seq, d, causal);
                    const Result got = c.run(scalar::attention_head, keep);
                    // Against the definition, with rel spelled out as a bias.
                    Vec full(c.bias);
                    for (std::int64_t i = 0; i < seq; ++i)
                        for (std::int64_t j = 0; j < seq; ++j) full[sz(i * seq + j)] += c.rel[sz(j - i + seq - 1)];
                    const auto want = reference(c.q, c.k, c.v, full.data(), 1, seq, d, 0.3, causal);
                    REQUIRE(max_diff(got.out, want.out) <= 1e-5);
                    if (keep) REQUIRE(max_diff(got.weights, want.weights) <= 1e-5);
                }
            }
        }
    }
}

#if POSENC_SIMD
TEST_CASE("attention twins agree with relative bias and without weights", "[attention]") {
    // Size n is head_dim; the output is O, then W when kept.
    for (bool causal : {false, true}) {
        for (bool keep : {true, false}) {
            for (std::int64_t seq : kTailSizes) {
                INFO("seq " << seq << " causal " << causal << " weights " << keep);
                check_twins(
                    [&](std::int64_t d, Kernel kernel) {
                        const Result r =
                            RelBiasCase(seq, d, causal)
                                .run(kernel == Kernel::simd ? simd::attention_head : scalar::attention_head, keep);
                        return concat({&r.out, &r.weights});
                    },
                    2e-6);
            }
        }
    }
}
#endif

TEST_CASE("attention rejects bad arguments with messages naming them", "[attention]") {
    float* none = nullptr;  // the checks run before anything is touched
    auto call = [&](std::int64_t h, std::int64_t n, std::int64_t d, std::optional<float> scale = std::nullopt) {
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
    REQUIRE_THROWS_WITH(call(1, 1, 1, std::numeric_limits<float>::quiet_NaN()),
                        Catch::Contains("scale must be a finite number, got NaN"));
    REQUIRE_THROWS_WITH(call(1, 1, 1, kInf), Catch::Contains("scale must be a finite number, got Infinity"));

    // A T5 table with a configuration t5_bucket refuses; named as T5's.
    const float table[64] = {};
    auto t5 = [&](bool bidirectional, std::int64_t buckets, std::int64_t max_distance) {
        AttentionOptions o;
        o.t5_table = table;
        o.t5_bidirectional = bidirectional;
        o.t5_num_buckets = buckets;
        o.t5_max_distance = max_distance;
        attention(none, none, none, none, none, 1, 4, 1, o);
    };
    REQUIRE_THROWS_AS(t5(true, 3, 128), RangeError);
    REQUIRE_THROWS_WITH(t5(true, 3, 128), Catch::StartsWith("t5 bias: num_buckets must be between 4 and 4096, got 3"));
    REQUIRE_THROWS_WITH(t5(false, 1, 128), Catch::StartsWith("t5 bias: num_buckets must be between 2 and 4096, got 1"));
    REQUIRE_THROWS_WITH(t5(true, 4097, 128), Catch::Contains("num_buckets must be between 4 and 4096, got 4097"));
    REQUIRE_THROWS_WITH(t5(true, 33, 128),
                        Catch::StartsWith("t5 bias: num_buckets must be even when bidirectional, got 33"));
    REQUIRE_THROWS_AS(t5(true, 32, 8), RangeError);
    REQUIRE_THROWS_WITH(
        t5(true, 32, 8),
        Catch::StartsWith("t5 bias: max_distance must be greater than max_exact = 8") && Catch::Contains("got 8"));
    REQUIRE_THROWS_WITH(t5(false, 32, 0), Catch::Contains("max_distance must be greater than max_exact = 16") &&
                                              Catch::Contains("got 0"));
    // Weights asked for but nowhere to put them.
    AttentionOptions o;
    REQUIRE_THROWS_AS(attention(none, none, none, none, none, 1, 1, 1, o), TypeError);
    REQUIRE_THROWS_WITH(attention(none, none, none, none, none, 1, 1, 1, o),
                        Catch::Contains("weights must not be null when want_weights is set"));
}

TEST_CASE("attention matches PyTorch fixtures", "[attention][fixture]") {
    const auto cases = fixture::all("attention");
    double worst = 0;
    for (const auto& c : cases) {
        INFO(c.file);
        const std::int64_t h = c.integer("heads"), n = c.integer("seq"), d = c.integer("head_dim");
        const auto bias = c.integer("has_bias") ? c.tensor("bias").f32() : Vec{};
        AttentionOptions o;
        o.causal = c.integer("causal") != 0;
        if (c.str("scale") != "default") o.scale = static_cast<float>(c.num("scale"));
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

TEST_CASE("attention takes any finite scale, as PyTorch does", "[attention]") {
    // q = k = v = (1, 2) per row, seq 2: scale 0 makes every score 0, so the
    // weights are uniform; a negative scale is legal and flips the preference.
    const float q[] = {1, 0, 0, 1};
    const float v[] = {1, 2, 3, 4};
    float out[4], w[4];
    AttentionOptions o;
    o.scale = 0.0f;
    attention(out, w, q, q, v, 1, 2, 2, o);
    for (float x : w) REQUIRE(x == 0.5f);
    o.scale = -1.0f;
    attention(out, w, q, q, v, 1, 2, 2, o);
    REQUIRE(w[0] < w[1]);  // row 0 now prefers the key it is least similar to
}
