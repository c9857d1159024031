// All of the Embind glue, and the only file under cpp/ that includes
// Emscripten. Everything else is plain C++17.
//
// Calling convention between this file and web/posenc.js:
//   - posenc.js checks JS-level types (numbers, integers, arrays, enum
//     strings, array lengths) with the JS argument names, places the arrays
//     in the wasm heap (one bulk TypedArray.set into a reused scratch area,
//     or nothing at all when the caller already holds a HeapArray) and
//     passes their addresses here;
//   - every function here checks sizes against the caps again (caps.h) and
//     runs the core on those addresses; results are written in place;
//   - errors are RETURNED as JS Error objects, never thrown across the
//     boundary: a JS throw from inside a C++ frame would skip destructors
//     and leak, so every C++ exception is caught here, turned into a
//     RangeError / TypeError value after the C++ frames are gone, and
//     posenc.js throws it. Success returns undefined (or a number).
//   - no state lives here between calls; the attention workspace is an
//     object the caller owns.
#ifndef POSENC_WITH_TRAINER
#define POSENC_WITH_TRAINER 0  // posenc-train-* modules define it as 1
#endif

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include "alibi.h"
#include "attention.h"
#include "caps.h"
#include "check.h"
#include "downsample.h"
#include "errors.h"
#include "learned.h"
#include "rope.h"
#include "rope_scaling.h"
#include "simd.h"
#include "sinusoidal.h"
#include "softmax.h"
#include "t5_bias.h"
#if POSENC_WITH_TRAINER
#include "transformer.h"
#endif

using emscripten::val;
using Addr = std::uintptr_t;  // a byte address in the wasm heap, from posenc.js

namespace {

template <class T>
T* at(Addr a) {
    return reinterpret_cast<T*>(a);
}

// The JS Error of the right kind for a core error, with its data
// (errors.h): error.kind, the core's class (RangeError, TypeError or
// IndexError, which JS has not: it arrives as a RangeError), error.names,
// the argument names the message mentions in the core's spelling, and
// error.values.
[[gnu::noinline]] val js_error(const char* kind, const std::string& message, const posenc::Error* data,
                               const char* core_kind = nullptr) {
    val error = val::global(kind).new_(message);
    error.set("kind", std::string(core_kind ? core_kind : kind));
    val names = val::array(), values = val::array();
    if (data) {
        for (int i = 0; i < data->name_count; ++i)
            if (data->names[i]) names.call<void>("push", std::string(data->names[i]));
        for (int i = 0; i < data->value_count; ++i) values.call<void>("push", data->values[i]);
    }
    error.set("names", names);
    error.set("values", values);
    return error;
}

// The JS Error for the exception being handled; called from a catch block,
// so every binding shares this one copy of the dispatch.
[[gnu::noinline]] val current_error() {
    try {
        throw;
    } catch (const posenc::TypeError& e) {
        return js_error("TypeError", e.what(), &e);
    } catch (const posenc::RangeError& e) {
        return js_error("RangeError", e.what(), &e);
    } catch (const posenc::IndexError& e) {
        return js_error("RangeError", e.what(), &e, "IndexError");  // the message keeps PyTorch's words
    } catch (const std::bad_alloc&) {
        return js_error("RangeError", "not enough memory for this request", nullptr);
    } catch (const std::exception& e) {
        return js_error("Error", e.what(), nullptr);
    } catch (...) {
        return js_error("Error", "unknown error in the core", nullptr);
    }
}

// Runs `body`; any C++ exception becomes a JS Error value of the right kind.
template <class F>
val guarded(F&& body) {
    try {
        return body();
    } catch (...) {
        return current_error();
    }
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
    out.truncate = s["truncate"].as<bool>();
    out.attention_factor = s["attentionFactor"].as<double>();
    out.mscale = s["mscale"].as<double>();
    out.mscale_all_dim = s["mscaleAllDim"].as<double>();
    // posenc.js passes Float32Arrays of at most 32768 values (checked there)
    out.short_factor = emscripten::convertJSArrayToNumberVector<float>(s["shortFactor"]);
    out.long_factor = emscripten::convertJSArrayToNumberVector<float>(s["longFactor"]);
    return out;
}

// ---------------------------------------------------------------- bindings

// out: (max_len, d_model); fast: vecmath's sin/cos instead of torch's bits
val sinusoidal(Addr out, double max_len, double d_model, double base, bool fast) {
    return guarded([&] {
        posenc::sinusoidal_table(at<float>(out), as_size(max_len), as_size(d_model), base,
                                 fast ? posenc::SinCos::Fast : posenc::SinCos::Exact);
        return val::undefined();
    });
}

// out: (rows, d_model): rows row0.. of the (max_len, d_model) table
val sinusoidal_rows(Addr out, double max_len, double d_model, double base, double row0, double rows, bool fast) {
    return guarded([&] {
        posenc::sinusoidal_rows(at<float>(out), as_size(max_len), as_size(d_model), base, as_size(row0), as_size(rows),
                                fast ? posenc::SinCos::Fast : posenc::SinCos::Exact);
        return val::undefined();
    });
}

// out: (d_model/2)
val sinusoidal_div(Addr out, double d_model, double base) {
    return guarded([&] {
        posenc::sinusoidal_div(at<float>(out), as_size(d_model), base);
        return val::undefined();
    });
}

// out: (out_rows, out_cols): the (max_len, d_model) table's box-averaged picture, in closed form
val sinusoidal_picture(Addr out, double max_len, double d_model, double base, double out_rows, double out_cols) {
    return guarded([&] {
        posenc::sinusoidal_picture(at<float>(out), as_size(max_len), as_size(d_model), base, as_size(out_rows),
                                   as_size(out_cols));
        return val::undefined();
    });
}

// table: (rows, d_model); positions: (n) f64; out: (n, d_model)
val learned_lookup(Addr out, Addr table, double rows, double d_model, Addr positions, double n) {
    return guarded([&] {
        posenc::learned_lookup(at<float>(out), at<const float>(table), as_size(rows),
                               as_size(d_model), at<const double>(positions), as_size(n));
        return val::undefined();
    });
}

// in: (rows, cols); out: (out_rows, out_cols)
val box_downsample(Addr out, Addr in, double rows, double cols, double out_rows, double out_cols) {
    return guarded([&] {
        posenc::box_downsample(at<float>(out), at<const float>(in), as_size(rows), as_size(cols), as_size(out_rows),
                               as_size(out_cols));
        return val::undefined();
    });
}

// out: (dim/2)
val rope_inv_freq(Addr out, double dim, double base, val scaling) {
    return guarded([&] {
        posenc::rope_inv_freq(at<float>(out), as_size(dim), base, scaling_from_js(scaling));
        return val::undefined();
    });
}

val rope_attention_factor(val scaling) {
    return guarded([&] {
        const auto s = scaling_from_js(scaling);
        posenc::rope_scaling_check(s);
        return val(posenc::rope_scaling_attention_factor(s));
    });
}

// x, out: (rows, dim), out may alias x; positions: (rows) f64; fast as above
val rope_apply(Addr out, Addr x, double rows, double dim, Addr positions, double base,
               std::string convention, double rotary_dim, val scaling, bool fast) {
    return guarded([&] {
        const auto conv = posenc::rope_convention(convention.c_str());
        posenc::rope_apply(at<float>(out), at<const float>(x), as_size(rows), as_size(dim),
                           at<const double>(positions), base, conv, as_size(rotary_dim),
                           scaling_from_js(scaling), fast ? posenc::SinCos::Fast : posenc::SinCos::Exact);
        return val::undefined();
    });
}

// out: (heads)
val alibi_slopes(Addr out, double heads) {
    return guarded([&] {
        posenc::alibi_slopes(at<float>(out), as_size(heads));
        return val::undefined();
    });
}

// out: (heads, seq_len, seq_len)
val alibi_bias(Addr out, double heads, double seq_len, bool causal) {
    return guarded([&] {
        posenc::alibi_bias(at<float>(out), as_size(heads), as_size(seq_len), causal);
        return val::undefined();
    });
}

// out: (query_len, key_len) i32
val t5_buckets(Addr out, double query_len, double key_len, bool bidirectional,
               double num_buckets, double max_distance) {
    return guarded([&] {
        posenc::t5_buckets(at<std::int32_t>(out), as_size(query_len), as_size(key_len),
                           bidirectional, as_size(num_buckets), as_size(max_distance));
        return val::undefined();
    });
}

// x, out: (rows, n), out may alias x
val softmax(Addr out, Addr x, double rows, double n) {
    return guarded([&] {
        posenc::softmax_rows(at<float>(out), at<const float>(x), as_size(rows), as_size(n));
        return val::undefined();
    });
}

// q, k, v, out: (heads, seq, head_dim); weights: (heads, seq, seq), or 0 when
// not wanted; bias: (heads, seq, seq) or 0; t5_table: (num_buckets, heads) or 0.
// ALiBi and T5 are added on the fly; no (heads, seq, seq) bias is built.
// `workspace` belongs to the caller (one per loaded module in posenc.js), so
// repeated calls allocate nothing and nothing global lives here.
val attention(Addr out, Addr weights, Addr q, Addr k, Addr v, double heads, double seq_len,
              double head_dim, bool causal, Addr bias, double scale, bool alibi, Addr t5_table,
              bool t5_bidirectional, double t5_num_buckets, double t5_max_distance,
              posenc::AttentionWorkspace& workspace) {
    return guarded([&] {
        posenc::AttentionOptions options;
        options.causal = causal;
        options.bias = bias ? at<const float>(bias) : nullptr;
        options.scale = static_cast<float>(scale);
        options.alibi = alibi;
        options.t5_table = t5_table ? at<const float>(t5_table) : nullptr;
        options.t5_bidirectional = t5_bidirectional;
        options.t5_num_buckets = as_size(t5_num_buckets);
        options.t5_max_distance = as_size(t5_max_distance);
        options.want_weights = weights != 0;
        options.workspace = &workspace;
        posenc::attention(at<float>(out), weights ? at<float>(weights) : nullptr, at<const float>(q),
                          at<const float>(k), at<const float>(v), as_size(heads),
                          as_size(seq_len), as_size(head_dim), options);
        return val::undefined();
    });
}

#if POSENC_WITH_TRAINER
// One tiny Transformer being trained (transformer.h), owned by a JS object
// (posenc.js's Trainer). Constructing it cannot fail; init() validates the
// configuration and returns an Error value instead of throwing, like every
// function here. Its methods return an Error value when called before a
// successful init().
class TrainerHandle {
public:
    val init(std::string task, std::string encoding, double layers, double d_model, double heads,
             double ffn, double vocab, double train_len, double batch, double lr, double seed,
             std::string text) {
        return guarded([&] {
            posenc::TrainerConfig c;
            c.task = posenc::train_task(task.c_str());
            c.encoding = posenc::train_encoding(encoding.c_str());
            c.layers = as_size(layers);
            c.d_model = as_size(d_model);
            c.heads = as_size(heads);
            c.ffn = as_size(ffn);
            c.vocab = as_size(vocab);
            c.train_len = as_size(train_len);
            c.batch = as_size(batch);
            c.lr = lr;
            c.seed = static_cast<std::uint64_t>(seed);  // posenc.js: an integer in 0..2^53
            c.text = std::move(text);
            trainer_ = std::make_unique<posenc::Trainer>(c);
            return val::undefined();
        });
    }

    // Runs n steps; returns the last loss.
    val step(double n) {
        return guarded([&] { return val(static_cast<double>(trainer().step(as_size(n)))); });
    }

    // Steps taken so far (the trainer's own count).
    val steps() {
        return guarded([&] { return val(static_cast<double>(trainer().steps_taken())); });
    }

    // Token accuracy at `length` over `samples` sequences.
    val evaluate(double length, double samples) {
        return guarded([&] { return val(trainer().evaluate(as_size(length), as_size(samples))); });
    }

    // The mean cross-entropy per token (nats) over the same sequences.
    val evaluateLoss(double length, double samples) {
        return guarded([&] { return val(trainer().evaluate_full(as_size(length), as_size(samples)).loss); });
    }

    // A copy of one parameter tensor by its documented name (transformer.h).
    val parameter(std::string name) {
        return guarded([&] {
            for (const auto& p : trainer().parameters())
                if (p.name == name)
                    return val::global("Float32Array")
                        .call<val>("from", val(emscripten::typed_memory_view(p.size, p.value)));
            throw posenc::TypeError("the trainer has no parameter '" + name + "'", {"name"});
        });
    }

    // A view of the loss history in the wasm heap: valid until the next call
    // into the module (posenc.js copies it at once).
    val history() {
        return guarded([&] {
            const auto& h = trainer().loss_history();
            return val(emscripten::typed_memory_view(h.size(), h.data()));
        });
    }

private:
    posenc::Trainer& trainer() {
        if (!trainer_) throw posenc::TypeError("the trainer was not initialised");
        return *trainer_;
    }
    std::unique_ptr<posenc::Trainer> trainer_;
};
#endif  // POSENC_WITH_TRAINER

val build_info() {
    val info = val::object();
    info.set("simd", bool(POSENC_SIMD));
    info.set("trainer", bool(POSENC_WITH_TRAINER));
    val limits = val::object();
    limits.set("maxElements", double(posenc::kMaxElements));
    limits.set("maxPosition", double(posenc::kMaxPosition));
    limits.set("maxSeqLen", double(posenc::kMaxSeqLen));
    limits.set("maxDim", double(posenc::kMaxDim));
    limits.set("maxHeads", double(posenc::kMaxHeads));
    limits.set("maxBuckets", double(posenc::kMaxBuckets));
    info.set("limits", limits);
    // The defaults posenc.js fills in, from the one place each is written.
    val defaults = val::object();
    val t5 = val::object();
    t5.set("numBuckets", double(posenc::kT5DefaultBuckets));
    t5.set("maxDistance", double(posenc::kT5DefaultMaxDistance));
    t5.set("bidirectional", true);
    defaults.set("t5", t5);
#if POSENC_WITH_TRAINER
    const posenc::TrainerConfig c;
    val trainer = val::object();
    trainer.set("task", std::string(posenc::train_task_name(c.task)));
    trainer.set("encoding", std::string(posenc::train_encoding_name(c.encoding)));
    trainer.set("layers", double(c.layers));
    trainer.set("dModel", double(c.d_model));
    trainer.set("heads", double(c.heads));
    trainer.set("ffn", double(c.ffn));
    trainer.set("vocab", double(c.vocab));
    trainer.set("trainLen", double(c.train_len));
    trainer.set("batch", double(c.batch));
    trainer.set("lr", c.lr);
    trainer.set("seed", double(c.seed));
    defaults.set("trainer", trainer);
    defaults.set("textVocab", double(posenc::kTextVocab));
#endif
    info.set("defaults", defaults);
    return info;
}

// Bytes the allocator has handed out and not taken back (mallinfo's
// uordblks): what a leak would grow. The heap's total size is
// memory.buffer.byteLength on the JS side.
val memory_stats() {
    const struct mallinfo info = mallinfo();
    val stats = val::object();
    stats.set("allocatedBytes", double(info.uordblks));
    return stats;
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
    emscripten::function("sinusoidal", &sinusoidal);
    emscripten::function("sinusoidalRows", &sinusoidal_rows);
    emscripten::function("sinusoidalPicture", &sinusoidal_picture);
    emscripten::function("sinusoidalDiv", &sinusoidal_div);
    emscripten::function("learnedLookup", &learned_lookup);
    emscripten::function("boxDownsample", &box_downsample);
    emscripten::function("ropeInvFreq", &rope_inv_freq);
    emscripten::function("ropeAttentionFactor", &rope_attention_factor);
    emscripten::function("ropeApply", &rope_apply);
    emscripten::function("alibiSlopes", &alibi_slopes);
    emscripten::function("alibiBias", &alibi_bias);
    emscripten::function("t5Buckets", &t5_buckets);
    emscripten::function("softmax", &softmax);
    emscripten::class_<posenc::AttentionWorkspace>("AttentionWorkspace").constructor<>();
    emscripten::function("attention", &attention);
#if POSENC_WITH_TRAINER
    emscripten::class_<TrainerHandle>("TrainerHandle")
        .constructor<>()
        .function("init", &TrainerHandle::init)
        .function("step", &TrainerHandle::step)
        .function("steps", &TrainerHandle::steps)
        .function("evaluate", &TrainerHandle::evaluate)
        .function("evaluateLoss", &TrainerHandle::evaluateLoss)
        .function("parameter", &TrainerHandle::parameter)
        .function("history", &TrainerHandle::history);
#endif
    emscripten::function("buildInfo", &build_info);
    emscripten::function("memoryStats", &memory_stats);
}
