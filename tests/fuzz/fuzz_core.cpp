// libFuzzer target over the core's public entry points, built with
// AddressSanitizer and UndefinedBehaviorSanitizer (build/fuzz; see
// scripts/test/fuzz.mjs). Each input picks one entry point and its arguments:
// sizes (mostly small, sometimes an edge: 0, -1, a cap, one past it, the
// int64 extremes), numbers (plausible, or NaN, ±inf, huge, tiny, negative),
// positions, RoPE scaling settings, attention options, array contents with
// inf/NaN. The contract:
//   - a call returns, or throws one of the core's errors (errors.h); any
//     other exception, a crash or a sanitizer report is a bug;
//   - a call that throws must throw BEFORE writing its output: when the
//     sizes are invalid the harness hands over a one-element buffer, so a
//     write past it is an ASan report.
// Calls whose sizes are valid but larger than the harness's budget are
// skipped (they are correct and merely slow; the Catch2 suites cover them).
// Anything this finds becomes a regression test in tests/test_<concept>.cpp.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "alibi.h"
#include "attention.h"
#include "caps.h"
#include "check.h"
#include "downsample.h"
#include "errors.h"
#include "learned.h"
#include "rope.h"
#include "rope_scaling.h"
#include "sinusoidal.h"
#include "softmax.h"
#include "t5_bias.h"
#include "transformer.h"

namespace {

using posenc::kMaxBuckets;
using posenc::kMaxDim;
using posenc::kMaxElements;
using posenc::kMaxHeads;
using posenc::kMaxPosition;
using posenc::kMaxSeqLen;
using std::int64_t;

constexpr int64_t kBudget = int64_t{1} << 15;  // elements the harness allocates per array

int64_t size_from(FuzzedDataProvider& in, int64_t typical_max = 24) {
    if (in.ConsumeIntegralInRange<int>(0, 7) != 0) return in.ConsumeIntegralInRange<int64_t>(1, typical_max);
    constexpr int64_t kEdges[] = {0,
                                  -1,
                                  -2,
                                  2,
                                  3,
                                  std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max(),
                                  kMaxElements,
                                  kMaxElements + 1,
                                  kMaxPosition + 1,
                                  kMaxSeqLen,
                                  kMaxSeqLen + 1,
                                  kMaxDim,
                                  kMaxDim + 1,
                                  kMaxHeads,
                                  kMaxHeads + 1,
                                  kMaxBuckets + 1,
                                  int64_t{1} << 31,
                                  int64_t{1} << 32,
                                  int64_t{1} << 62};
    return in.PickValueInArray(kEdges);
}

double number_from(FuzzedDataProvider& in, double lo, double hi) {
    if (in.ConsumeIntegralInRange<int>(0, 5) != 0) return in.ConsumeFloatingPointInRange<double>(lo, hi);
    constexpr double kEdges[] = {std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 0.0,
                                 -0.0,
                                 -1.0,
                                 1.0,
                                 1e-300,
                                 5e-324,
                                 1e300,
                                 -1e300,
                                 3.4e38,
                                 1e39,
                                 0.5};
    return in.PickValueInArray(kEdges);
}

// Saturating product of sizes, as a count of elements; negative when any
// size is below 1.
int64_t elements(std::initializer_list<int64_t> sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 1) return -1;
        if (n > kMaxElements * 4 / s) return kMaxElements * 4;
        n *= s;
    }
    return n;
}

// A buffer for an array of `n` elements. Sizes the call accepts get exactly
// n; sizes it must reject get one element (no write may reach it).
struct Buffer {
    std::vector<float> data;
    float* ptr() { return data.data(); }
};

enum class Fit { Exact, Reject, Skip };

// `valid`: the sizes are within their ranges (the harness's own reading of
// the rules; the core's checks decide). Within range but over budget: skip.
Fit fit(bool valid, int64_t n) {
    if (!valid || n < 0 || n > kMaxElements) return Fit::Reject;
    return n <= kBudget ? Fit::Exact : Fit::Skip;
}

std::vector<float> floats(FuzzedDataProvider& in, int64_t n) {
    std::vector<float> v(static_cast<std::size_t>(std::max<int64_t>(n, 1)));
    for (auto& x : v) {
        switch (in.ConsumeIntegralInRange<int>(0, 15)) {
            case 0:
                x = std::numeric_limits<float>::infinity();
                break;
            case 1:
                x = -std::numeric_limits<float>::infinity();
                break;
            case 2:
                x = std::numeric_limits<float>::quiet_NaN();
                break;
            case 3:
                x = 3e38f;
                break;
            default:
                x = in.ConsumeFloatingPointInRange<float>(-8.0f, 8.0f);
        }
    }
    return v;
}

std::vector<double> positions_from(FuzzedDataProvider& in, int64_t n, int64_t rows) {
    std::vector<double> p(static_cast<std::size_t>(std::max<int64_t>(n, 1)));
    for (auto& x : p) {
        switch (in.ConsumeIntegralInRange<int>(0, 11)) {
            case 0:
                x = std::numeric_limits<double>::quiet_NaN();
                break;
            case 1:
                x = -1.0;
                break;
            case 2:
                x = static_cast<double>(rows);
                break;
            case 3:
                x = 0.5;
                break;
            case 4:
                x = 1e300;
                break;
            case 5:
                x = static_cast<double>(kMaxPosition);
                break;
            default:
                x = static_cast<double>(in.ConsumeIntegralInRange<int64_t>(0, std::max<int64_t>(rows, 1) - 1));
        }
    }
    return p;
}

posenc::RopeScaling scaling_from(FuzzedDataProvider& in) {
    posenc::RopeScaling s;
    s.type = static_cast<posenc::RopeScaling::Type>(in.ConsumeIntegralInRange<int>(0, 4));
    s.factor = number_from(in, 0.1, 64.0);
    s.max_positions = size_from(in, 8192);
    s.seq_len = size_from(in, 16384);
    s.original_max_positions = size_from(in, 8192);
    s.beta_fast = number_from(in, 0.5, 64.0);
    s.beta_slow = number_from(in, 0.5, 4.0);
    s.truncate = in.ConsumeBool();
    s.low_freq_factor = number_from(in, 0.5, 4.0);
    s.high_freq_factor = number_from(in, 1.0, 16.0);
    return s;
}

void fuzz_sinusoidal(FuzzedDataProvider& in) {
    const int64_t len = size_from(in, 200);
    const int64_t d = size_from(in, 64);
    const double base = number_from(in, 1.0001, 1e6);
    const bool dims = d >= 2 && d <= kMaxDim;
    const int which = in.ConsumeIntegralInRange<int>(0, 2);
    if (which == 0) {
        const int64_t n = elements({len, d});
        const Fit f = fit(len >= 1 && len <= kMaxPosition && dims, n);
        if (f == Fit::Skip) return;
        std::vector<float> out(f == Fit::Exact ? static_cast<std::size_t>(n) : 1);
        posenc::sinusoidal_table(out.data(), len, d, base);
    } else if (which == 1) {
        // the picture: any length up to the cap (no table is made), a small grid
        const int64_t far = in.ConsumeBool() ? size_from(in, kMaxPosition) : len;
        const int64_t out_rows = size_from(in, 50);
        const int64_t out_cols = size_from(in, 50);
        const bool ok = far >= 1 && far <= kMaxPosition && dims && out_rows >= 1 && out_cols >= 1 &&
                        out_rows <= kMaxElements && out_cols <= kMaxElements;
        const int64_t pic_n = elements({out_rows, out_cols});
        const int64_t means_n = elements({out_rows, d});  // its work, capped too
        const Fit g = fit(ok, std::max(pic_n, means_n));
        if (g == Fit::Skip) return;
        std::vector<float> pic(g == Fit::Exact ? static_cast<std::size_t>(pic_n) : 1);
        posenc::sinusoidal_picture(pic.data(), far, d, base, out_rows, out_cols);
        // every value in [-1, 1], unless an angle overflows float32 (a base near 0): NaN, as in the table
        std::vector<float> div(static_cast<std::size_t>(d / 2));
        try {
            posenc::sinusoidal_div(div.data(), d, base);
        } catch (const posenc::RangeError&) {
            throw std::logic_error("sinusoidal_picture accepted a d_model or base that sinusoidal_div refuses");
        }
        for (float t : div)
            if (!std::isfinite(static_cast<float>(static_cast<double>(far - 1) * t))) return;
        for (float v : pic)
            if (!(std::fabs(v) <= 1.0f)) throw std::logic_error("sinusoidal_picture gave a value outside [-1, 1]");
    } else {
        const Fit g = fit(dims, d / 2);
        if (g == Fit::Skip) return;
        std::vector<float> div(g == Fit::Exact ? static_cast<std::size_t>(d / 2) : 1);
        posenc::sinusoidal_div(div.data(), d, base);
    }
}

void fuzz_learned(FuzzedDataProvider& in) {
    const int64_t rows = size_from(in, 40);
    const int64_t d = size_from(in, 16);
    const int64_t count = in.ConsumeIntegralInRange<int64_t>(0, 40);
    const bool valid = rows >= 1 && rows <= kMaxPosition && d >= 1 && d <= kMaxDim;
    const int64_t table_n = elements({rows, d});
    const int64_t out_n = count == 0 ? 0 : elements({count, d});
    const Fit f = fit(valid, std::max(table_n, out_n));
    if (f == Fit::Skip) return;
    auto table = floats(in, f == Fit::Exact ? table_n : 1);
    const auto positions = positions_from(in, count, rows);
    std::vector<float> out(f == Fit::Exact ? static_cast<std::size_t>(std::max<int64_t>(out_n, 1)) : 1);
    posenc::learned_lookup(out.data(), table.data(), rows, d, positions.data(), count);
}

void fuzz_downsample(FuzzedDataProvider& in) {
    const int64_t rows = size_from(in, 40);
    const int64_t cols = size_from(in, 40);
    const int64_t out_rows = size_from(in, 50);
    const int64_t out_cols = size_from(in, 50);
    const bool valid = rows >= 1 && cols >= 1 && out_rows >= 1 && out_cols >= 1 && rows <= kMaxElements &&
                       cols <= kMaxElements && out_rows <= kMaxElements && out_cols <= kMaxElements;
    const int64_t in_n = elements({rows, cols});
    const int64_t out_n = elements({out_rows, out_cols});
    const Fit f = fit(valid, std::max(in_n, out_n));
    if (f == Fit::Skip) return;
    const auto table = floats(in, f == Fit::Exact ? in_n : 1);
    std::vector<float> out(f == Fit::Exact ? static_cast<std::size_t>(out_n) : 1);
    posenc::box_downsample(out.data(), table.data(), rows, cols, out_rows, out_cols);
}

void fuzz_rope(FuzzedDataProvider& in) {
    const int64_t rows = size_from(in, 16);
    const int64_t dim = size_from(in, 64);
    const int64_t rotary = in.ConsumeBool() ? dim : size_from(in, 64);
    const double base = number_from(in, 1.5, 1e6);
    const auto scaling = scaling_from(in);
    const auto convention = in.ConsumeBool() ? posenc::RopeConvention::Half : posenc::RopeConvention::Interleaved;
    const int which = in.ConsumeIntegralInRange<int>(0, 2);
    if (which == 0) {
        const Fit f = fit(dim >= 2 && dim <= kMaxDim, dim / 2);
        if (f == Fit::Skip) return;
        std::vector<float> inv(f == Fit::Exact ? static_cast<std::size_t>(dim / 2) : 1);
        posenc::rope_inv_freq(inv.data(), dim, base, scaling);
        return;
    }
    if (which == 1) {
        posenc::rope_scaling_check(scaling);
        const float a = posenc::rope_scaling_attention_factor(scaling);
        if (!std::isfinite(a)) throw std::logic_error("attention factor is not finite");
        return;
    }
    const bool valid = rows >= 1 && rows <= kMaxPosition && dim >= 2 && dim <= kMaxDim;
    const int64_t n = elements({rows, dim});
    const Fit f = fit(valid, n);
    if (f == Fit::Skip) return;
    auto x = floats(in, f == Fit::Exact ? n : 1);
    const auto positions = positions_from(in, f == Fit::Exact ? rows : 1, kMaxPosition);
    if (in.ConsumeBool()) {  // in place: out aliases x
        posenc::rope_apply(x.data(), x.data(), rows, dim, positions.data(), base, convention, rotary, scaling);
    } else {
        std::vector<float> out(x.size());
        posenc::rope_apply(out.data(), x.data(), rows, dim, positions.data(), base, convention, rotary, scaling);
    }
}

void fuzz_alibi(FuzzedDataProvider& in) {
    const int64_t heads = size_from(in, 80);
    if (in.ConsumeBool()) {
        const Fit f = fit(heads >= 1 && heads <= kMaxHeads, heads);
        if (f == Fit::Skip) return;
        std::vector<float> out(f == Fit::Exact ? static_cast<std::size_t>(heads) : 1);
        posenc::alibi_slopes(out.data(), heads);
        return;
    }
    const int64_t seq = size_from(in, 32);
    const bool valid = heads >= 1 && heads <= kMaxHeads && seq >= 1 && seq <= kMaxSeqLen;
    const int64_t n = elements({heads, seq, seq});
    const Fit f = fit(valid, n);
    if (f == Fit::Skip) return;
    std::vector<float> out(f == Fit::Exact ? static_cast<std::size_t>(n) : 1);
    posenc::alibi_bias(out.data(), heads, seq, in.ConsumeBool());
}

void fuzz_t5(FuzzedDataProvider& in) {
    const bool bidirectional = in.ConsumeBool();
    const int64_t buckets = size_from(in, 64);
    const int64_t distance = size_from(in, 300);
    if (in.ConsumeBool()) {
        const int64_t rel = in.ConsumeIntegral<int64_t>();
        const std::int32_t b = posenc::t5_bucket(rel, bidirectional, buckets, distance);
        if (b < 0 || b >= buckets) throw std::logic_error("t5_bucket out of range: " + std::to_string(b));
        return;
    }
    const int64_t q = size_from(in, 40);
    const int64_t k = size_from(in, 40);
    const bool valid = q >= 1 && q <= kMaxSeqLen && k >= 1 && k <= kMaxSeqLen;
    const int64_t n = elements({q, k});
    const Fit f = fit(valid, n);
    if (f == Fit::Skip) return;
    std::vector<std::int32_t> out(f == Fit::Exact ? static_cast<std::size_t>(n) : 1);
    posenc::t5_buckets(out.data(), q, k, bidirectional, buckets, distance);
    if (f == Fit::Exact) {
        for (auto b : out) {
            if (b < 0 || b >= buckets) throw std::logic_error("t5_buckets out of range: " + std::to_string(b));
        }
    }
}

void fuzz_softmax(FuzzedDataProvider& in) {
    const int64_t rows = size_from(in, 8);
    const int64_t cols = size_from(in, 70);
    const int64_t n = elements({rows, cols});
    const Fit f = fit(rows >= 1 && cols >= 1, n);
    if (f == Fit::Skip) return;
    auto x = floats(in, f == Fit::Exact ? n : 1);
    if (in.ConsumeBool()) {
        posenc::softmax_rows(x.data(), x.data(), rows, cols);
    } else {
        std::vector<float> out(x.size());
        posenc::softmax_rows(out.data(), x.data(), rows, cols);
    }
}

void fuzz_attention(FuzzedDataProvider& in) {
    // One workspace for the whole run, as posenc.js keeps one per module:
    // it must survive calls of every size in every order.
    static posenc::AttentionWorkspace workspace;
    const int64_t heads = size_from(in, 4);
    const int64_t seq = size_from(in, 24);
    const int64_t hd = size_from(in, 20);
    posenc::AttentionOptions o;
    o.causal = in.ConsumeBool();
    o.alibi = in.ConsumeBool();
    o.want_weights = in.ConsumeBool();
    if (in.ConsumeBool()) o.scale = static_cast<float>(number_from(in, -2.0, 2.0));
    o.t5_bidirectional = in.ConsumeBool();
    o.t5_num_buckets = size_from(in, 32);
    o.t5_max_distance = size_from(in, 200);
    if (in.ConsumeBool()) o.workspace = &workspace;
    const bool valid = heads >= 1 && heads <= kMaxHeads && seq >= 1 && seq <= kMaxSeqLen && hd >= 1 && hd <= kMaxDim;
    const int64_t n = elements({heads, seq, hd});
    const int64_t nn = elements({heads, seq, seq});
    const bool with_t5 = in.ConsumeBool();
    const bool with_bias = in.ConsumeBool();
    const int64_t t5_n = elements({std::max<int64_t>(o.t5_num_buckets, 1), heads});
    // The core caps what it writes (out, and the weights when wanted); the
    // inputs (bias, T5 table) are the caller's and only the budget limits them.
    const int64_t written = std::max(n, o.want_weights ? nn : 0);
    Fit f = fit(valid, written);
    if (f == Fit::Exact && std::max({with_bias ? nn : 0, with_t5 ? t5_n : 0}) > kBudget) f = Fit::Skip;
    if (f == Fit::Skip) return;
    if (f == Fit::Exact && elements({heads, seq, seq, hd}) > kBudget * 64) return;  // valid, only slow
    const bool exact = f == Fit::Exact;
    auto q = floats(in, exact ? n : 1);
    auto k = floats(in, exact ? n : 1);
    auto v = floats(in, exact ? n : 1);
    std::vector<float> bias;
    if (with_bias) {
        bias = floats(in, exact ? nn : 1);
        o.bias = bias.data();
    }
    std::vector<float> t5;
    if (with_t5) {
        t5 = floats(in, exact ? t5_n : 1);
        o.t5_table = t5.data();
    }
    std::vector<float> out(exact ? static_cast<std::size_t>(n) : 1);
    std::vector<float> weights(exact && o.want_weights ? static_cast<std::size_t>(nn) : 1);  // unwanted: never written
#ifdef POSENC_FUZZ_TRACE
    std::fprintf(stderr, "attention heads=%lld seq=%lld hd=%lld exact=%d t5=%d nb=%lld md=%lld ww=%d\n",
                 (long long)heads, (long long)seq, (long long)hd, exact, with_t5, (long long)o.t5_num_buckets,
                 (long long)o.t5_max_distance, o.want_weights);
#endif
    posenc::attention(out.data(), o.want_weights || in.ConsumeBool() ? weights.data() : nullptr, q.data(), k.data(),
                      v.data(), heads, seq, hd, o);
}

// The trainer: a configuration (tiny, or one the constructor must refuse),
// a step or two, an evaluation, and a forward pass over fuzzed tokens (out
// of the vocabulary too, which must be refused).
void fuzz_trainer(FuzzedDataProvider& in) {
    posenc::TrainerConfig c;
    c.task = static_cast<posenc::TrainTask>(in.ConsumeIntegralInRange<int>(0, 3));
    // every encoding the core's table names, and the value past it, which must be refused
    static const int kEncodings = static_cast<int>(posenc::named_values(&posenc::train_encoding_name).size());
    c.encoding = static_cast<posenc::TrainEncoding>(in.ConsumeIntegralInRange<int>(0, kEncodings));
    c.layers = size_from(in, 2);
    c.d_model = size_from(in, 16);
    c.heads = size_from(in, 4);
    c.ffn = in.ConsumeBool() ? 0 : size_from(in, 32);
    c.vocab = size_from(in, 12);
    c.train_len = size_from(in, 8);
    c.batch = size_from(in, 4);
    c.lr = number_from(in, 1e-4, 0.5);
    c.seed = in.ConsumeIntegral<std::uint64_t>();
    const auto within = [](int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; };
    const bool small = within(c.layers, 1, 2) && within(c.d_model, 4, 32) && within(c.heads, 1, 4) &&
                       within(c.ffn, 0, 64) && within(c.vocab, 2, 16) && within(c.train_len, 2, 16) &&
                       within(c.batch, 1, 8);
    const bool refused = !within(c.layers, 1, 4) || !within(c.d_model, 4, 256) || !within(c.heads, 1, 16) ||
                         !within(c.ffn, 0, 1024) || !within(c.vocab, 2, 64) || !within(c.train_len, 2, 256) ||
                         !within(c.batch, 1, 256) || !(c.lr > 0 && c.lr <= 1);
    if (!small && !refused) return;  // valid and large: slow, not wrong
    posenc::Trainer t(c);
    t.step(in.ConsumeIntegralInRange<int64_t>(1, 2));
    const int64_t length = size_from(in, 40);
    const int64_t samples = size_from(in, 8);
    const bool slow = (length > 64 && length <= 1024) || (samples > 8 && samples <= 4096);
    if (!slow) {
        const double acc = t.evaluate(length, samples);
        if (!(acc >= 0.0 && acc <= 1.0)) throw std::logic_error("accuracy outside [0, 1]");
    }
    const int64_t b = in.ConsumeIntegralInRange<int64_t>(1, 3);
    const int64_t len = in.ConsumeIntegralInRange<int64_t>(1, 12);
    std::vector<std::int32_t> tokens(static_cast<std::size_t>(b * len)), targets(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        tokens[i] = in.ConsumeIntegralInRange<std::int32_t>(-1, static_cast<std::int32_t>(c.vocab));
        targets[i] = in.ConsumeIntegralInRange<std::int32_t>(-1, static_cast<std::int32_t>(c.vocab));
    }
    const float loss = t.forward(tokens.data(), targets.data(), b, len);
    if (!std::isfinite(loss)) throw std::logic_error("forward gave a non-finite loss");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    try {
        switch (in.ConsumeIntegralInRange<int>(0, 9)) {
            case 0:
                fuzz_sinusoidal(in);
                break;
            case 1:
                fuzz_learned(in);
                break;
            case 2:
                fuzz_rope(in);
                break;
            case 3:
                fuzz_alibi(in);
                break;
            case 4:
                fuzz_t5(in);
                break;
            case 5:
                fuzz_softmax(in);
                break;
            case 6:
                fuzz_attention(in);
                break;
            case 7:
                fuzz_trainer(in);
                break;
            case 8:
                fuzz_downsample(in);
                break;
            default:
                fuzz_rope(in);
                break;
        }
    } catch (const posenc::RangeError&) {
    } catch (const posenc::TypeError&) {
    } catch (const posenc::IndexError&) {
    }
    return 0;  // any other exception escapes: libFuzzer reports it as a crash
}
