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

#include <cctype>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
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

// ------------------------------------------------------- option objects
//
// Options cross from posenc.js as one object each, never as a long list of
// positional numbers where a swapped pair would go unnoticed: RopeScaling,
// AttentionOptions and TrainerConfig are the core's own structs, bound as
// emscripten::value_object in EMSCRIPTEN_BINDINGS below, which is the one
// place each field's JS name is written. A field that is missing or of the
// wrong kind is a TypeError Embind throws in JS before the call; posenc.js
// fills every field (its defaults from buildInfo()). Enumerations cross as
// their names in the core's table (check.h), both ways, and nowhere as
// numbers or Embind enums: JS code writes and reads 'rope', never a handle
// to look up, and buildInfo().names lists them from the same table.
// Conversions here never throw: an exception while Embind reads an argument
// would escape guarded().

// int64 and pointer fields as JS numbers
template <class C, class I, I C::*F>
double get_number(const C& c) {
    return static_cast<double>(c.*F);
}
template <class C, class I, I C::*F>
void set_number(C& c, double v) {
    c.*F = static_cast<I>(as_size(v));
}
template <class C, const float* C::*F>
Addr get_address(const C& c) {
    return reinterpret_cast<Addr>(c.*F);
}
template <class C, const float* C::*F>
void set_address(C& c, Addr a) {
    c.*F = a ? at<const float>(a) : nullptr;
}
// LongRoPE's factor lists as Float32Arrays (at most 32768 values, checked in posenc.js)
template <std::vector<float> posenc::RopeScaling::*F>
val get_floats(const posenc::RopeScaling& s) {
    return val::global("Float32Array")
        .call<val>("from", val(emscripten::typed_memory_view((s.*F).size(), (s.*F).data())));
}
template <std::vector<float> posenc::RopeScaling::*F>
void set_floats(posenc::RopeScaling& s, val v) {
    s.*F = emscripten::convertJSArrayToNumberVector<float>(v);
}
// the attention scale: NaN for F.scaled_dot_product_attention's 1/sqrt(head_dim)
double get_scale(const posenc::AttentionOptions& o) {
    return o.scale ? double(*o.scale) : std::numeric_limits<double>::quiet_NaN();
}
void set_scale(posenc::AttentionOptions& o, double v) {
    if (v == v)
        o.scale = static_cast<float>(v);
    else
        o.scale.reset();
}

// An enumeration field as its name in the core's table. The setter cannot
// throw (above), so a name the table lacks is stored as the value past the
// last named one, which the core's own check (check_named) refuses, naming
// the field and the allowed names; posenc.js checks the name first and quotes it.
template <class C, class E, E C::*F, const char* (*NameOf)(E)>
std::string get_name(const C& c) {
    const char* name = NameOf(c.*F);
    return name ? name : "";
}
template <class C, class E, E C::*F, const char* (*NameOf)(E)>
void set_name(C& c, std::string name) {
    int i = 0;
    while (const char* n = NameOf(static_cast<E>(i))) {
        if (name == n) break;
        ++i;
    }
    c.*F = static_cast<E>(i);
}

// A table's names as a JS array, for buildInfo().names (one copy for every table).
[[gnu::noinline]] val names_of(const posenc::NameList& names) {
    val list = val::array();
    for (int i = 0; i < names.count; ++i) list.call<void>("push", std::string(names.names[i]));
    return list;
}

// ---------------------------------------------------------------- bindings

// The table's base, and fast: vecmath's sin/cos instead of torch's bits.
struct TableOptions {
    double base = 10000.0;
    bool fast = false;
    posenc::SinCos path() const { return fast ? posenc::SinCos::Fast : posenc::SinCos::Exact; }
};

// out: (max_len, d_model)
val sinusoidal(Addr out, double max_len, double d_model, const TableOptions& o) {
    return guarded([&] {
        posenc::sinusoidal_table(at<float>(out), as_size(max_len), as_size(d_model), o.base, o.path());
        return val::undefined();
    });
}

// out: (rows, d_model): rows row0.. of the (max_len, d_model) table
val sinusoidal_rows(Addr out, double max_len, double d_model, double row0, double rows, const TableOptions& o) {
    return guarded([&] {
        posenc::sinusoidal_rows(at<float>(out), as_size(max_len), as_size(d_model), o.base, as_size(row0),
                                as_size(rows), o.path());
        return val::undefined();
    });
}

// The base alone: the frequencies and the picture.
struct BaseOptions {
    double base = 10000.0;
};

// out: (d_model/2)
val sinusoidal_div(Addr out, double d_model, const BaseOptions& o) {
    return guarded([&] {
        posenc::sinusoidal_div(at<float>(out), as_size(d_model), o.base);
        return val::undefined();
    });
}

// out: (out_rows, out_cols): the (max_len, d_model) table's box-averaged picture, in closed form
val sinusoidal_picture(Addr out, double max_len, double d_model, double out_rows, double out_cols,
                       const BaseOptions& o) {
    return guarded([&] {
        posenc::sinusoidal_picture(at<float>(out), as_size(max_len), as_size(d_model), o.base, as_size(out_rows),
                                   as_size(out_cols));
        return val::undefined();
    });
}

// table: (rows, d_model); positions: (n) f64; out: (n, d_model)
val learned_lookup(Addr out, Addr table, double rows, double d_model, Addr positions, double n) {
    return guarded([&] {
        posenc::learned_lookup(at<float>(out), at<const float>(table), as_size(rows), as_size(d_model),
                               at<const double>(positions), as_size(n));
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

// RoPE's frequencies: base and the scaling.
struct RopeFrequencyOptions {
    double base = 10000.0;
    posenc::RopeScaling scaling;
};

// out: (dim/2)
val rope_inv_freq(Addr out, double dim, const RopeFrequencyOptions& o) {
    return guarded([&] {
        posenc::rope_inv_freq(at<float>(out), as_size(dim), o.base, o.scaling);
        return val::undefined();
    });
}

val rope_attention_factor(const posenc::RopeScaling& scaling) {
    return guarded([&] {
        posenc::rope_scaling_check(scaling);
        return val(posenc::rope_scaling_attention_factor(scaling));
    });
}

// How ropeApply rotates: base, pairing ("half" or "interleaved"), how many
// leading dimensions turn, the scaling, and fast as for the tables.
struct RopeOptions {
    double base = 10000.0;
    std::string convention;
    double rotary_dim = 0;
    posenc::RopeScaling scaling;
    bool fast = false;
};

// x, out: (rows, dim), out may alias x; positions: (rows) f64
val rope_apply(Addr out, Addr x, double rows, double dim, Addr positions, const RopeOptions& o) {
    return guarded([&] {
        const auto conv = posenc::rope_convention(o.convention.c_str());
        posenc::rope_apply(at<float>(out), at<const float>(x), as_size(rows), as_size(dim), at<const double>(positions),
                           o.base, conv, as_size(o.rotary_dim), o.scaling,
                           o.fast ? posenc::SinCos::Fast : posenc::SinCos::Exact);
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

struct AlibiOptions {
    bool causal = true;
};

// out: (heads, seq_len, seq_len)
val alibi_bias(Addr out, double heads, double seq_len, const AlibiOptions& o) {
    return guarded([&] {
        posenc::alibi_bias(at<float>(out), as_size(heads), as_size(seq_len), o.causal);
        return val::undefined();
    });
}

// T5's bucket options, with T5's own defaults (t5_bias.h): buildInfo() reports
// T5Options{} as defaults.t5, which posenc.js fills in.
struct T5Options {
    bool bidirectional = true;
    double num_buckets = posenc::kT5DefaultBuckets;
    double max_distance = posenc::kT5DefaultMaxDistance;
};

// out: (query_len, key_len) i32
val t5_buckets(Addr out, double query_len, double key_len, const T5Options& o) {
    return guarded([&] {
        posenc::t5_buckets(at<std::int32_t>(out), as_size(query_len), as_size(key_len), o.bidirectional,
                           as_size(o.num_buckets), as_size(o.max_distance));
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

// The arrays of one attention call, as heap addresses: q, k, v, out: (heads,
// seq, head_dim); weights: (heads, seq, seq), or 0 when not wanted.
struct AttentionArrays {
    Addr out = 0, weights = 0, q = 0, k = 0, v = 0;
};

// options (AttentionOptions, attention.h): bias (heads, seq, seq) or 0,
// t5Table (num_buckets, heads) or 0; ALiBi and T5 are added on the fly, no
// (heads, seq, seq) bias is built. `workspace` belongs to the caller (one
// per loaded module in posenc.js), so repeated calls allocate nothing and
// nothing global lives here.
val attention(const AttentionArrays& a, double heads, double seq_len, double head_dim, posenc::AttentionOptions options,
              posenc::AttentionWorkspace& workspace) {
    return guarded([&] {
        options.want_weights = a.weights != 0;
        options.workspace = &workspace;
        posenc::attention(at<float>(a.out), a.weights ? at<float>(a.weights) : nullptr, at<const float>(a.q),
                          at<const float>(a.k), at<const float>(a.v), as_size(heads), as_size(seq_len),
                          as_size(head_dim), options);
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
    val init(const posenc::TrainerConfig& config) {
        return guarded([&] {
            trainer_ = std::make_unique<posenc::Trainer>(config);
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

    // The same evaluation a few chunks at a time (transformer.h): start it,
    // run chunks until evaluateMore says true, then read { accuracy, loss }.
    val evaluateStart(double length, double samples) {
        return guarded([&] {
            trainer().evaluate_start(as_size(length), as_size(samples));
            return val::undefined();
        });
    }
    val evaluateMore(double chunks) {
        return guarded([&] { return val(trainer().evaluate_more(as_size(chunks))); });
    }
    val evaluateResult() {
        return guarded([&] {
            const posenc::Evaluation e = trainer().evaluate_result();
            val out = val::object();
            out.set("accuracy", e.accuracy);
            out.set("loss", e.loss);
            return out;
        });
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

    // The text task's corpus as the trainer reads it (text_corpus): its ids
    // (a copy) and train_end, where the held-out tenth begins; empty ids for
    // the other tasks. What a baseline needs to score the same split.
    val corpus() {
        return guarded([&] {
            const auto& c = trainer().corpus();
            val out = val::object();
            out.set("ids", val::global("Int32Array")
                               .call<val>("from", val(emscripten::typed_memory_view(c.ids.size(), c.ids.data()))));
            out.set("trainEnd", double(c.train_end));
            return out;
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

// The core's snake_case names as the API spells them (max_positions ->
// maxPositions), as check.js's camelCase turns the names in the core's
// errors. Into a fixed buffer: a std::string here costs the lesson's module
// a kilobyte of Embind conversions.
struct CamelCase {
    char text[32] = {};
    explicit CamelCase(const char* name) {
        std::size_t n = 0;
        for (const char* c = name; *c && n + 1 < sizeof text; ++c)
            text[n++] = *c == '_' && c[1] ? static_cast<char>(std::toupper(static_cast<unsigned char>(*++c))) : *c;
    }
};

// A field's kind as posenc.js checks it (web/core/rope-scaling.js's FIELD_KINDS).
const char* field_kind_name(posenc::RopeScalingField::Kind kind) {
    static const char* const kNames[] = {"number", "integer", "boolean", "floats"};
    return posenc::name_in(kNames, kind);
}

// Each scaling type the API takes (null, not 'none', means none) with the
// fields it reads (rope_scaling_fields), as posenc.js checks them:
//   { yarn: { fields: ['factor', 'originalMaxPositions', ...],
//             kinds: { factor: 'number', originalMaxPositions: 'integer', ... },
//             required: ['factor', 'originalMaxPositions'],
//             defaults: { betaFast: 32, ... } }, ... }
val scaling_types() {
    using posenc::RopeScaling;
    val types = val::object();
    for (int i = 1; const char* name = posenc::rope_scaling_type_name(static_cast<RopeScaling::Type>(i)); ++i) {
        const auto type = static_cast<RopeScaling::Type>(i);
        const val all(posenc::rope_scaling_defaults(type));
        val fields = val::array();
        val kinds = val::object();
        val required = val::array();
        val defaults = val::object();
        for (const posenc::RopeScalingField* f = posenc::rope_scaling_fields(type); f->name; ++f) {
            const CamelCase name_js(f->name);
            const char* js = name_js.text;
            fields.set(fields["length"], js);
            kinds.set(js, field_kind_name(f->kind));
            if (f->required)
                required.set(required["length"], js);
            else
                defaults.set(js, all[js]);
        }
        val t = val::object();
        t.set("fields", fields);
        t.set("kinds", kinds);
        t.set("required", required);
        t.set("defaults", defaults);
        types.set(name, t);
    }
    return types;
}

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
    defaults.set("t5", val(T5Options{}));
    // every field of RopeScaling, as posenc.js fills in the ones not given
    defaults.set("scaling", val(posenc::RopeScaling{}));
#if POSENC_WITH_TRAINER
    const posenc::TrainerConfig c;
    defaults.set("trainer", val(c));
    defaults.set("textVocab", double(posenc::kTextVocab));
#endif
    info.set("defaults", defaults);
    info.set("scalingTypes", scaling_types());
    // Every other enumeration that crosses by name, from its table in the
    // core (RoPE scaling's types are scalingTypes' keys, and 'none'):
    // posenc.js checks names against these, and its own lists (TRAIN_TASKS...)
    // against them at load.
    val names = val::object();
    names.set("ropeConventions", names_of(posenc::name_list(&posenc::rope_convention_name)));
#if POSENC_WITH_TRAINER
    names.set("trainTasks", names_of(posenc::name_list(&posenc::train_task_name)));
    names.set("trainEncodings", names_of(posenc::name_list(&posenc::train_encoding_name)));
#endif
    info.set("names", names);
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
    using posenc::AttentionOptions;
    using posenc::RopeScaling;
    emscripten::value_object<RopeScaling>("RopeScaling")
        .field("type", &get_name<RopeScaling, RopeScaling::Type, &RopeScaling::type, &posenc::rope_scaling_type_name>,
               &set_name<RopeScaling, RopeScaling::Type, &RopeScaling::type, &posenc::rope_scaling_type_name>)
        .field("factor", &RopeScaling::factor)
        .field("maxPositions", &get_number<RopeScaling, std::int64_t, &RopeScaling::max_positions>,
               &set_number<RopeScaling, std::int64_t, &RopeScaling::max_positions>)
        .field("seqLen", &get_number<RopeScaling, std::int64_t, &RopeScaling::seq_len>,
               &set_number<RopeScaling, std::int64_t, &RopeScaling::seq_len>)
        .field("originalMaxPositions", &get_number<RopeScaling, std::int64_t, &RopeScaling::original_max_positions>,
               &set_number<RopeScaling, std::int64_t, &RopeScaling::original_max_positions>)
        .field("betaFast", &RopeScaling::beta_fast)
        .field("betaSlow", &RopeScaling::beta_slow)
        .field("truncate", &RopeScaling::truncate)
        .field("attentionFactor", &RopeScaling::attention_factor)
        .field("mscale", &RopeScaling::mscale)
        .field("mscaleAllDim", &RopeScaling::mscale_all_dim)
        .field("shortFactor", &get_floats<&RopeScaling::short_factor>, &set_floats<&RopeScaling::short_factor>)
        .field("longFactor", &get_floats<&RopeScaling::long_factor>, &set_floats<&RopeScaling::long_factor>)
        .field("lowFreqFactor", &RopeScaling::low_freq_factor)
        .field("highFreqFactor", &RopeScaling::high_freq_factor);
    emscripten::value_object<TableOptions>("TableOptions")
        .field("base", &TableOptions::base)
        .field("fast", &TableOptions::fast);
    emscripten::value_object<BaseOptions>("BaseOptions").field("base", &BaseOptions::base);
    emscripten::value_object<RopeFrequencyOptions>("RopeFrequencyOptions")
        .field("base", &RopeFrequencyOptions::base)
        .field("scaling", &RopeFrequencyOptions::scaling);
    emscripten::value_object<AlibiOptions>("AlibiOptions").field("causal", &AlibiOptions::causal);
    emscripten::value_object<T5Options>("T5Options")
        .field("bidirectional", &T5Options::bidirectional)
        .field("numBuckets", &T5Options::num_buckets)
        .field("maxDistance", &T5Options::max_distance);
    emscripten::value_object<RopeOptions>("RopeOptions")
        .field("base", &RopeOptions::base)
        .field("convention", &RopeOptions::convention)
        .field("rotaryDim", &RopeOptions::rotary_dim)
        .field("scaling", &RopeOptions::scaling)
        .field("fast", &RopeOptions::fast);
    emscripten::value_object<AttentionArrays>("AttentionArrays")
        .field("out", &AttentionArrays::out)
        .field("weights", &AttentionArrays::weights)
        .field("q", &AttentionArrays::q)
        .field("k", &AttentionArrays::k)
        .field("v", &AttentionArrays::v);
    emscripten::value_object<AttentionOptions>("AttentionOptions")
        .field("causal", &AttentionOptions::causal)
        .field("bias", &get_address<AttentionOptions, &AttentionOptions::bias>,
               &set_address<AttentionOptions, &AttentionOptions::bias>)
        .field("scale", &get_scale, &set_scale)
        .field("alibi", &AttentionOptions::alibi)
        .field("t5Table", &get_address<AttentionOptions, &AttentionOptions::t5_table>,
               &set_address<AttentionOptions, &AttentionOptions::t5_table>)
        .field("t5Bidirectional", &AttentionOptions::t5_bidirectional)
        .field("t5NumBuckets", &get_number<AttentionOptions, std::int64_t, &AttentionOptions::t5_num_buckets>,
               &set_number<AttentionOptions, std::int64_t, &AttentionOptions::t5_num_buckets>)
        .field("t5MaxDistance", &get_number<AttentionOptions, std::int64_t, &AttentionOptions::t5_max_distance>,
               &set_number<AttentionOptions, std::int64_t, &AttentionOptions::t5_max_distance>);
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
    using posenc::TrainEncoding;
    using posenc::TrainerConfig;
    using posenc::TrainTask;
    emscripten::value_object<TrainerConfig>("TrainerConfig")
        .field("task", &get_name<TrainerConfig, TrainTask, &TrainerConfig::task, &posenc::train_task_name>,
               &set_name<TrainerConfig, TrainTask, &TrainerConfig::task, &posenc::train_task_name>)
        .field("encoding",
               &get_name<TrainerConfig, TrainEncoding, &TrainerConfig::encoding, &posenc::train_encoding_name>,
               &set_name<TrainerConfig, TrainEncoding, &TrainerConfig::encoding, &posenc::train_encoding_name>)
        .field("layers", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::layers>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::layers>)
        .field("dModel", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::d_model>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::d_model>)
        .field("heads", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::heads>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::heads>)
        .field("ffn", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::ffn>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::ffn>)
        .field("vocab", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::vocab>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::vocab>)
        .field("trainLen", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::train_len>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::train_len>)
        .field("batch", &get_number<TrainerConfig, std::int64_t, &TrainerConfig::batch>,
               &set_number<TrainerConfig, std::int64_t, &TrainerConfig::batch>)
        .field("lr", &TrainerConfig::lr)
        .field("seed", &get_number<TrainerConfig, std::uint64_t, &TrainerConfig::seed>,
               &set_number<TrainerConfig, std::uint64_t, &TrainerConfig::seed>)
        .field("text", &TrainerConfig::text);
    emscripten::class_<TrainerHandle>("TrainerHandle")
        .constructor<>()
        .function("init", &TrainerHandle::init)
        .function("step", &TrainerHandle::step)
        .function("steps", &TrainerHandle::steps)
        .function("evaluate", &TrainerHandle::evaluate)
        .function("evaluateLoss", &TrainerHandle::evaluateLoss)
        .function("evaluateStart", &TrainerHandle::evaluateStart)
        .function("evaluateMore", &TrainerHandle::evaluateMore)
        .function("evaluateResult", &TrainerHandle::evaluateResult)
        .function("parameter", &TrainerHandle::parameter)
        .function("corpus", &TrainerHandle::corpus)
        .function("history", &TrainerHandle::history);
#endif
    emscripten::function("buildInfo", &build_info);
    emscripten::function("memoryStats", &memory_stats);
}
