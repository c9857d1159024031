// All of the Embind glue, and the only file under cpp/ that includes
// Emscripten. Everything else is plain C++17.
//
// Calling convention between this file and web/posenc.js:
//   - posenc.js checks JS-level types (numbers, integers, arrays, enum
//     strings) with the JS argument names, then calls in here;
//   - arrays come in as typed arrays (Float32Array / Float64Array) and are
//     copied into the wasm heap with one TypedArray.set (a memcpy, not a
//     per-element loop); results go out as fresh typed arrays (one slice);
//   - errors are RETURNED as JS Error objects, never thrown across the
//     boundary: a JS throw from inside a C++ frame would skip destructors
//     and leak, so every C++ exception is caught here, turned into a
//     RangeError / TypeError value after the C++ frames are gone, and
//     posenc.js throws it. No state lives here between calls.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "alibi.h"
#include "attention.h"
#include "check.h"
#include "errors.h"
#include "learned.h"
#include "caps.h"
#include "rope.h"
#include "rope_scaling.h"
#include "simd.h"
#include "sinusoidal.h"
#include "softmax.h"
#include "t5_bias.h"

using emscripten::val;

namespace {

// Copies a JS typed array (already checked by posenc.js) into a vector.
template <class T>
std::vector<T> from_js(const val& array, std::size_t expected, const char* what) {
    const auto n = array["length"].as<std::size_t>();
    if (n != expected)
        throw posenc::TypeError(std::string(what) + " must hold " + std::to_string(expected) +
                                " values, got " + std::to_string(n));
    std::vector<T> out(n);
    if (n) val(emscripten::typed_memory_view(n, out.data())).call<void>("set", array);
    return out;
}

// A fresh JS typed array holding a copy of `data`.
template <class T>
val to_js(const std::vector<T>& data) {
    return val(emscripten::typed_memory_view(data.size(), data.data())).call<val>("slice");
}

// Runs `body`; any C++ exception becomes a JS Error value of the right kind.
template <class F>
val guarded(F&& body) {
    const char* kind = "Error";
    std::string message;
    try {
        return body();
    } catch (const posenc::TypeError& e) {
        kind = "TypeError";
        message = e.what();
    } catch (const posenc::RangeError& e) {
        kind = "RangeError";
        message = e.what();
    } catch (const posenc::IndexError& e) {
        kind = "RangeError";  // JS has no IndexError; the message keeps PyTorch's words
        message = e.what();
    } catch (const std::bad_alloc&) {
        kind = "RangeError";
        message = "not enough memory for this request";
    } catch (const std::exception& e) {
        message = e.what();
    }
    return val::global(kind).new_(message);
}

// posenc.js has already checked that sizes are integers; this only keeps a
// huge double from overflowing the cast (the range checks then reject it).
std::int64_t as_size(double x) {
    constexpr double kBig = 4.0e18;
    if (!(x > -kBig)) return -static_cast<std::int64_t>(kBig);
    if (!(x < kBig)) return static_cast<std::int64_t>(kBig);
    return static_cast<std::int64_t>(x);
}

posenc::RopeScaling scaling_from_js(const val& s) {
    posenc::RopeScaling out;
    if (s.isNull() || s.isUndefined()) return out;
    out.type = posenc::rope_scaling_type(s["type"].as<std::string>().c_str());
    out.factor = s["factor"].as<double>();
    out.max_positions = as_size(s["maxPositions"].as<double>());
    out.seq_len = as_size(s["seqLen"].as<double>());
    out.original_max_positions = as_size(s["originalMaxPositions"].as<double>());
    out.beta_fast = s["betaFast"].as<double>();
    out.beta_slow = s["betaSlow"].as<double>();
    out.low_freq_factor = s["lowFreqFactor"].as<double>();
    out.high_freq_factor = s["highFreqFactor"].as<double>();
    return out;
}

// ---------------------------------------------------------------- bindings

val sinusoidal(double max_len, double d_model, double base) {
    return guarded([&] {
        const auto n = as_size(max_len), d = as_size(d_model);
        // Validate before allocating: a huge request must never reach malloc.
        posenc::check_range("maxLen", n, 1, posenc::kMaxPosition);
        posenc::check_range("dModel", d, 1, posenc::kMaxDim);
        posenc::check_elements("sinusoidal table", n * d);
        std::vector<float> out(static_cast<std::size_t>(n * d));
        posenc::sinusoidal_table(out.data(), n, d, base);
        return to_js(out);
    });
}

val sinusoidal_div(double d_model, double base) {
    return guarded([&] {
        const auto d = as_size(d_model);
        posenc::check_range("dModel", d, 1, posenc::kMaxDim);
        std::vector<float> out(static_cast<std::size_t>(d / 2));
        posenc::sinusoidal_div(out.data(), d, base);
        return to_js(out);
    });
}

val learned_lookup(val table, double rows, double d_model, val positions) {
    return guarded([&] {
        const auto r = as_size(rows), d = as_size(d_model);
        posenc::check_range("rows", r, 1, posenc::kMaxPosition);
        posenc::check_range("d_model", d, 1, posenc::kMaxDim);
        posenc::check_elements("table", r * d);
        const auto t = from_js<float>(table, static_cast<std::size_t>(r * d), "table");
        const auto n = positions["length"].as<std::size_t>();
        posenc::check_elements("lookup output", static_cast<std::int64_t>(n) * d);
        const auto p = from_js<double>(positions, n, "positions");
        std::vector<float> out(n * static_cast<std::size_t>(d));
        posenc::learned_lookup(out.data(), t.data(), r, d, p.data(), static_cast<std::int64_t>(n));
        return to_js(out);
    });
}

val rope_inv_freq(double dim, double base, val scaling) {
    return guarded([&] {
        const auto d = as_size(dim);
        posenc::check_range("dim", d, 2, posenc::kMaxDim);
        std::vector<float> out(static_cast<std::size_t>(d / 2));
        posenc::rope_inv_freq(out.data(), d, base, scaling_from_js(scaling));
        return to_js(out);
    });
}

val rope_attention_factor(val scaling) {
    return guarded([&] {
        const auto s = scaling_from_js(scaling);
        posenc::rope_scaling_check(s);
        return val(posenc::rope_scaling_attention_factor(s));
    });
}

val rope_apply(val x, double rows, double dim, val positions, double base, std::string convention,
               double rotary_dim, val scaling) {
    return guarded([&] {
        const auto r = as_size(rows), d = as_size(dim);
        posenc::check_range("rows", r, 1, posenc::kMaxPosition);
        posenc::check_range("dim", d, 2, posenc::kMaxDim);
        posenc::check_elements("x", r * d);
        const auto conv = posenc::rope_convention(convention.c_str());
        const auto s = scaling_from_js(scaling);
        auto data = from_js<float>(x, static_cast<std::size_t>(r * d), "x");
        const auto p = from_js<double>(positions, static_cast<std::size_t>(r), "positions");
        posenc::rope_apply(data.data(), data.data(), r, d, p.data(), base, conv,
                           as_size(rotary_dim), s);
        return to_js(data);
    });
}

val alibi_slopes(double heads) {
    return guarded([&] {
        const auto h = as_size(heads);
        posenc::check_range("heads", h, 1, posenc::kMaxHeads);
        std::vector<float> out(static_cast<std::size_t>(h));
        posenc::alibi_slopes(out.data(), h);
        return to_js(out);
    });
}

val alibi_bias(double heads, double seq_len, bool causal) {
    return guarded([&] {
        const auto h = as_size(heads), n = as_size(seq_len);
        posenc::check_range("heads", h, 1, posenc::kMaxHeads);
        posenc::check_range("seqLen", n, 1, posenc::kMaxSeqLen);
        posenc::check_elements("ALiBi bias", h * n * n);
        std::vector<float> out(static_cast<std::size_t>(h * n * n));
        posenc::alibi_bias(out.data(), h, n, causal);
        return to_js(out);
    });
}

val t5_buckets(double query_len, double key_len, bool bidirectional, double num_buckets,
               double max_distance) {
    return guarded([&] {
        const auto q = as_size(query_len), k = as_size(key_len);
        posenc::check_range("queryLen", q, 1, posenc::kMaxSeqLen);
        posenc::check_range("keyLen", k, 1, posenc::kMaxSeqLen);
        posenc::check_elements("bucket map", q * k);
        std::vector<std::int32_t> out(static_cast<std::size_t>(q * k));
        posenc::t5_buckets(out.data(), q, k, bidirectional, as_size(num_buckets),
                           as_size(max_distance));
        return to_js(out);
    });
}

val softmax(val x, double rows, double n) {
    return guarded([&] {
        const auto r = as_size(rows), c = as_size(n);
        posenc::check_range("rows", r, 1, posenc::kMaxElements);
        posenc::check_range("n", c, 1, posenc::kMaxElements);
        posenc::check_elements("softmax input", r * c);
        auto data = from_js<float>(x, static_cast<std::size_t>(r * c), "x");
        posenc::softmax_rows(data.data(), data.data(), r, c);
        return to_js(data);
    });
}

val attention(val q, val k, val v, double heads, double seq_len, double head_dim, bool causal,
              val bias, double scale) {
    return guarded([&] {
        const auto h = as_size(heads), n = as_size(seq_len), d = as_size(head_dim);
        posenc::check_range("heads", h, 1, posenc::kMaxHeads);
        posenc::check_range("seqLen", n, 1, posenc::kMaxSeqLen);
        posenc::check_range("headDim", d, 1, posenc::kMaxDim);
        posenc::check_elements("attention weights", h * n * n);
        posenc::check_elements("q", h * n * d);
        const auto hnd = static_cast<std::size_t>(h * n * d);
        const auto qs = from_js<float>(q, hnd, "q");
        const auto ks = from_js<float>(k, hnd, "k");
        const auto vs = from_js<float>(v, hnd, "v");
        std::vector<float> b;
        posenc::AttentionOptions options;
        options.causal = causal;
        options.scale = static_cast<float>(scale);
        if (!(bias.isNull() || bias.isUndefined())) {
            b = from_js<float>(bias, static_cast<std::size_t>(h * n * n), "bias");
            options.bias = b.data();
        }
        std::vector<float> out(hnd), weights(static_cast<std::size_t>(h * n * n));
        posenc::attention(out.data(), weights.data(), qs.data(), ks.data(), vs.data(), h, n, d,
                          options);
        val result = val::object();
        result.set("output", to_js(out));
        result.set("weights", to_js(weights));
        return result;
    });
}

val build_info() {
    val info = val::object();
    info.set("simd", bool(POSENC_SIMD));
    val limits = val::object();
    limits.set("maxElements", double(posenc::kMaxElements));
    limits.set("maxPosition", double(posenc::kMaxPosition));
    limits.set("maxSeqLen", double(posenc::kMaxSeqLen));
    limits.set("maxDim", double(posenc::kMaxDim));
    limits.set("maxHeads", double(posenc::kMaxHeads));
    limits.set("maxBuckets", double(posenc::kMaxBuckets));
    info.set("limits", limits);
    return info;
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
    emscripten::function("sinusoidal", &sinusoidal);
    emscripten::function("sinusoidalDiv", &sinusoidal_div);
    emscripten::function("learnedLookup", &learned_lookup);
    emscripten::function("ropeInvFreq", &rope_inv_freq);
    emscripten::function("ropeAttentionFactor", &rope_attention_factor);
    emscripten::function("ropeApply", &rope_apply);
    emscripten::function("alibiSlopes", &alibi_slopes);
    emscripten::function("alibiBias", &alibi_bias);
    emscripten::function("t5Buckets", &t5_buckets);
    emscripten::function("softmax", &softmax);
    emscripten::function("attention", &attention);
    emscripten::function("buildInfo", &build_info);
}
