// RoPE context extension, step for step as Hugging Face transformers'
// src/transformers/modeling_rope_utils.py computes it with PyTorch.
//
// Three PyTorch rules decide every rounding below:
//   - a Python float meeting a float32 tensor is rounded to float32 first
//     (f32(factor) * t, t / f32(factor), t > f32(limit));
//   - `scalar / tensor` is `tensor.reciprocal() * scalar` (torch/_tensor.py
//     __rdiv__): two roundings, not one;
//   - `scalar ** tensor` is `torch.tensor(scalar, float32) ** tensor`.
// Python-float arithmetic (the YaRN correction range, the dynamic base) stays
// in double. Each float32 step is its own statement so no compiler contracts
// a product and a sum into one fused multiply-add that PyTorch never does.
#include "rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "caps.h"
#include "check.h"
#include "errors.h"
#include "sleef.h"

namespace posenc {

namespace {

constexpr double kPi = 3.14159265358979323846;  // math.pi

// p: (dim/2). p_i = f32(base) ** (f32(2i) / f32(dim)), the `pos_freqs` of
// every HF variant: torch.arange(0, dim, 2).float() / dim, then base ** that
// (`scalar ** tensor` is torch.tensor(scalar, float32) ** tensor).
// PyTorch's float32 pow is not (float)pow((double)b, e): SLEEF's powf for
// blocks of 16 and libm's for the tail (sleef.h), 1 ULP apart from a
// correctly rounded pow for ~1% of exponents, which a position of 5000
// turns into an angle error of 1.5e-6.
void pos_freqs(float* p, std::int64_t dim, double base) {
    const float d = static_cast<float>(dim);
    const std::int64_t n = dim / 2;
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(2 * i) / d;
    torch_pow_scalar_tensor(p, static_cast<float>(base), p, static_cast<std::size_t>(n));
}

// inv: (dim/2). Su et al. 2021: inv_i = 1 / base^(2i/dim)  (HF "default").
void default_inv_freq(float* inv, std::int64_t dim, double base) {
    pos_freqs(inv, dim, base);
    for (std::int64_t i = 0; i < dim / 2; ++i) inv[i] = 1.0f / inv[i];
}

// YaRN's inverse dimension formula (Peng et al. 2023, eq. 17): the pair
// index whose wavelength turns num_rotations times over Lorig positions.
//   corr_dim(r) = dim * ln(Lorig / (r * 2 * pi)) / (2 * ln(base))
double yarn_correction_dim(double num_rotations, std::int64_t dim, double base, std::int64_t original_max_positions) {
    const double turns = num_rotations * 2 * kPi;
    return (static_cast<double>(dim) * std::log(static_cast<double>(original_max_positions) / turns)) /
           (2 * std::log(base));
}

void yarn_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& s) {
    // pass 1: the correction range [low, high], Python floats (ints after floor/ceil).
    double low = yarn_correction_dim(s.beta_fast, dim, base, s.original_max_positions);
    double high = yarn_correction_dim(s.beta_slow, dim, base, s.original_max_positions);
    if (s.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    // HF clips high at dim - 1, not dim/2 - 1: the ramp then never reaches 1
    // inside the table when high > dim/2. Kept, since checkpoints rely on it.
    high = std::min(high, static_cast<double>(dim - 1));
    if (low == high) high += 0.001;  // HF: "Prevent singularity"
    const float low_f = static_cast<float>(low);
    const float span_f = static_cast<float>(high - low);

    // pass 2: per pair, blend interpolated (1 / (factor * p)) and extrapolated
    // (1 / p) frequencies with the clamped linear ramp.
    //   ramp_j = clamp((j - low) / (high - low), 0, 1)
    //   inv_j  = interp_j * (1 - (1 - ramp_j)) + extrap_j * (1 - ramp_j)
    pos_freqs(inv, dim, base);
    const float factor_f = static_cast<float>(s.factor);
    for (std::int64_t j = 0; j < dim / 2; ++j) {
        const float p = inv[j];
        const float extrap = 1.0f / p;
        const float scaled = factor_f * p;
        const float interp = 1.0f / scaled;
        const float shifted = static_cast<float>(j) - low_f;
        float ramp = shifted / span_f;
        ramp = std::min(std::max(ramp, 0.0f), 1.0f);
        const float extrap_weight = 1.0f - ramp;  // inv_freq_extrapolation_factor
        const float interp_weight = 1.0f - extrap_weight;
        const float a = interp * interp_weight;
        const float b = extrap * extrap_weight;
        inv[j] = a + b;
    }
}

void llama3_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& s) {
    default_inv_freq(inv, dim, base);
    // Python floats, compared against float32 tensors after rounding.
    const float low_freq_wavelen =
        static_cast<float>(static_cast<double>(s.original_max_positions) / s.low_freq_factor);
    const float high_freq_wavelen =
        static_cast<float>(static_cast<double>(s.original_max_positions) / s.high_freq_factor);
    const float two_pi = static_cast<float>(2 * kPi);
    const float factor_f = static_cast<float>(s.factor);
    const float lorig_f = static_cast<float>(s.original_max_positions);
    const float low_ff = static_cast<float>(s.low_freq_factor);
    const float ff_span = static_cast<float>(s.high_freq_factor - s.low_freq_factor);
    for (std::int64_t i = 0; i < dim / 2; ++i) {
        // wavelen = 2*pi / inv, as reciprocal(inv) * f32(2*pi)
        const float recip = 1.0f / inv[i];
        const float wavelen = recip * two_pi;
        // long wavelengths (low frequencies) are divided by factor ...
        const float base_inv = wavelen > low_freq_wavelen ? inv[i] / factor_f : inv[i];
        // ... short ones kept, and between them a smooth blend:
        //   smooth = (Lorig / wavelen - low_ff) / (high_ff - low_ff)
        //   inv    = (1 - smooth) * inv / factor + smooth * inv
        const bool medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
        if (!medium) {
            inv[i] = base_inv;
            continue;
        }
        const float recip_wavelen = 1.0f / wavelen;
        const float ratio = recip_wavelen * lorig_f;
        const float smooth = (ratio - low_ff) / ff_span;
        const float keep = 1.0f - smooth;
        const float scaled = keep * base_inv;
        const float a = scaled / factor_f;
        const float b = smooth * base_inv;
        inv[i] = a + b;
    }
}

// LongRoPE (Ding et al. 2024) as HF's _compute_longrope_parameters:
//   ext = short_factor if seq_len <= Lorig else long_factor   (float32 tensors)
//   inv_i = 1 / (ext_i * base^(2i/dim))    one product, then the reciprocal
void longrope_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& s) {
    const std::vector<float>& ext = s.seq_len > s.original_max_positions ? s.long_factor : s.short_factor;
    pos_freqs(inv, dim, base);
    for (std::int64_t i = 0; i < dim / 2; ++i) {
        const float scaled = ext[static_cast<std::size_t>(i)] * inv[i];
        inv[i] = 1.0f / scaled;
    }
}

// YaRN's magnitude correction (HF get_mscale): 0.1 * m * ln(scale) + 1, 1 for scale <= 1.
double yarn_mscale(double scale, double m) {
    if (scale <= 1) return 1.0;
    return 0.1 * m * std::log(scale) + 1.0;
}

// LongRoPE's factor: the config's, or HF's max_position_embeddings / Lorig.
double longrope_factor(const RopeScaling& s) {
    if (!std::isnan(s.factor)) return s.factor;
    return static_cast<double>(s.max_positions) / static_cast<double>(s.original_max_positions);
}

void check_factor_list(const char* what, const std::vector<float>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double x = v[i];
        if (!(std::isfinite(x) && x > 0))
            throw RangeError(std::string(what) + "[" + std::to_string(i) +
                                 "] must be a finite number greater than 0, got " + format_number(x),
                             {what}, {x});
    }
}

void check_length(const char* what, std::int64_t n, std::int64_t lo) {
    check_range(what, n, lo, kMaxPosition);
}

}  // namespace

namespace {

// Each type's fields (rope_scaling_fields), each list ending at a nullptr name.
using K = RopeScalingField::Kind;
constexpr bool kRequired = true;
constexpr bool kOptional = false;
constexpr RopeScalingField kNoFields[] = {{nullptr, K::Number, kOptional}};
constexpr RopeScalingField kLinearFields[] = {{"factor", K::Number, kRequired}, {nullptr, K::Number, kOptional}};
constexpr RopeScalingField kDynamicFields[] = {{"factor", K::Number, kRequired},
                                               {"max_positions", K::Integer, kRequired},
                                               {"seq_len", K::Integer, kOptional},
                                               {nullptr, K::Number, kOptional}};
constexpr RopeScalingField kYarnFields[] = {
    {"factor", K::Number, kRequired},    {"original_max_positions", K::Integer, kRequired},
    {"beta_fast", K::Number, kOptional}, {"beta_slow", K::Number, kOptional},
    {"truncate", K::Boolean, kOptional}, {"attention_factor", K::Number, kOptional},
    {"mscale", K::Number, kOptional},    {"mscale_all_dim", K::Number, kOptional},
    {nullptr, K::Number, kOptional}};
constexpr RopeScalingField kLlama3Fields[] = {{"factor", K::Number, kRequired},
                                              {"original_max_positions", K::Integer, kRequired},
                                              {"low_freq_factor", K::Number, kOptional},
                                              {"high_freq_factor", K::Number, kOptional},
                                              {nullptr, K::Number, kOptional}};
constexpr RopeScalingField kLongropeFields[] = {{"short_factor", K::Floats, kRequired},
                                                {"long_factor", K::Floats, kRequired},
                                                {"original_max_positions", K::Integer, kRequired},
                                                {"factor", K::Number, kOptional},
                                                {"max_positions", K::Integer, kOptional},
                                                {"seq_len", K::Integer, kOptional},
                                                {"attention_factor", K::Number, kOptional},
                                                {nullptr, K::Number, kOptional}};

// The types, in RopeScaling::Type's order: a type's name and its fields in
// one row, so neither list can gain a type the other lacks.
struct TypeRow {
    RopeScaling::Type type;
    const char* name;
    const RopeScalingField* fields;
};
using T = RopeScaling::Type;
constexpr TypeRow kTypes[] = {
    {T::None, "none", kNoFields},   {T::Linear, "linear", kLinearFields}, {T::Dynamic, "dynamic", kDynamicFields},
    {T::Yarn, "yarn", kYarnFields}, {T::Llama3, "llama3", kLlama3Fields}, {T::Longrope, "longrope", kLongropeFields}};
constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < sizeof kTypes / sizeof *kTypes; ++i)
        if (kTypes[i].type != static_cast<T>(i)) return false;
    return true;
}
static_assert(rows_in_enum_order(), "kTypes' rows must follow RopeScaling::Type's order");

const TypeRow* type_row(T type) {
    const auto i = static_cast<std::size_t>(type);
    return i < sizeof kTypes / sizeof *kTypes ? &kTypes[i] : nullptr;
}

}  // namespace

const char* rope_scaling_type_name(RopeScaling::Type type) {
    const TypeRow* row = type_row(type);
    return row ? row->name : nullptr;
}

const RopeScalingField* rope_scaling_fields(RopeScaling::Type type) {
    const TypeRow* row = type_row(type);
    return row ? row->fields : kNoFields;
}

RopeScaling rope_scaling_defaults(RopeScaling::Type type) {
    RopeScaling s;
    s.type = type;
    if (type == RopeScaling::Type::Longrope) s.factor = std::numeric_limits<double>::quiet_NaN();
    return s;
}

RopeScaling::Type rope_scaling_type(const char* name) {
    return check_name("RoPE scaling type", "scaling.type", name, &rope_scaling_type_name);
}

void rope_scaling_check(const RopeScaling& s) {
    using T = RopeScaling::Type;
    check_named("scaling.type", s.type, &rope_scaling_type_name);
    if (s.type == T::None) return;
    if (s.type == T::Dynamic) {
        // base' = base * (factor*L/Lmax - (factor-1))^(...): factor < 1 makes
        // the bracket shrink below 1 and, for long L, go negative.
        check_finite("scaling.factor", s.factor);
        if (!(s.factor >= 1))
            throw RangeError("scaling.factor must be at least 1 for dynamic scaling, got " + format_number(s.factor),
                             {"scaling.factor"}, {s.factor, 1.0});
        check_length("scaling.max_positions", s.max_positions, 1);
        check_length("scaling.seq_len", s.seq_len, 0);
        return;
    }
    if (!std::isnan(s.attention_factor)) check_positive("scaling.attention_factor", s.attention_factor);
    if (s.type == T::Longrope) {
        check_length("scaling.original_max_positions", s.original_max_positions, 1);
        check_length("scaling.seq_len", s.seq_len, 0);
        if (std::isnan(s.factor))
            check_length("scaling.max_positions", s.max_positions, 1);
        else
            check_positive("scaling.factor", s.factor);
        check_factor_list("scaling.short_factor", s.short_factor);
        check_factor_list("scaling.long_factor", s.long_factor);
        return;
    }
    check_positive("scaling.factor", s.factor);
    if (s.type == T::Yarn) {
        check_finite("scaling.mscale", s.mscale);
        check_finite("scaling.mscale_all_dim", s.mscale_all_dim);
        check_length("scaling.original_max_positions", s.original_max_positions, 1);
        check_positive("scaling.beta_fast", s.beta_fast);
        check_positive("scaling.beta_slow", s.beta_slow);
        if (!(s.beta_slow < s.beta_fast))
            throw RangeError("scaling.beta_slow must be less than scaling.beta_fast, got beta_slow " +
                                 format_number(s.beta_slow) + " and beta_fast " + format_number(s.beta_fast),
                             {"scaling.beta_slow", "scaling.beta_fast", "beta_slow", "beta_fast"},
                             {s.beta_slow, s.beta_fast});
    } else if (s.type == T::Llama3) {
        check_length("scaling.original_max_positions", s.original_max_positions, 1);
        check_positive("scaling.low_freq_factor", s.low_freq_factor);
        check_positive("scaling.high_freq_factor", s.high_freq_factor);
        if (!(s.low_freq_factor < s.high_freq_factor))
            throw RangeError(
                "scaling.low_freq_factor must be less than scaling.high_freq_factor, got "
                "low_freq_factor " +
                    format_number(s.low_freq_factor) + " and high_freq_factor " + format_number(s.high_freq_factor),
                {"scaling.low_freq_factor", "scaling.high_freq_factor", "low_freq_factor", "high_freq_factor"},
                {s.low_freq_factor, s.high_freq_factor});
    }
}

void rope_scaling_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& s) {
    check_range("dim", dim, 2, kMaxDim);
    if (dim % 2 != 0) throw RangeError("dim must be even, got " + std::to_string(dim), {"dim"}, {double(dim)});
    check_positive("base", base);
    rope_scaling_check(s);

    using T = RopeScaling::Type;
    switch (s.type) {
        case T::None:
            default_inv_freq(inv, dim, base);
            return;
        case T::Linear: {
            // Position interpolation (Chen et al. 2023): positions / factor,
            // folded into the frequencies: inv_i / factor.
            default_inv_freq(inv, dim, base);
            const float factor_f = static_cast<float>(s.factor);
            for (std::int64_t i = 0; i < dim / 2; ++i) inv[i] = inv[i] / factor_f;
            return;
        }
        case T::Dynamic: {
            // The exponent dim/(dim-2) divides by zero at dim 2 (HF raises
            // ZeroDivisionError there).
            if (dim < 4)
                throw RangeError("dim must be at least 4 for dynamic scaling (the exponent is dim/(dim-2)), got " +
                                     std::to_string(dim),
                                 {"dim"}, {double(dim)});
            // NTK-aware (bloc97, HF): a larger base, in Python floats.
            //   L = max(seq_len, Lmax);  base' = base * (factor*L/Lmax - (factor-1))^(dim/(dim-2))
            const double lmax = static_cast<double>(s.max_positions);
            const double len = s.seq_len > s.max_positions ? static_cast<double>(s.seq_len) : lmax;
            const double stretch = (s.factor * len / lmax) - (s.factor - 1);
            const double d = static_cast<double>(dim);
            const double scaled_base = base * std::pow(stretch, d / (d - 2));
            default_inv_freq(inv, dim, scaled_base);
            return;
        }
        case T::Yarn:
            // ln(base) is the denominator of the correction dims.
            if (base == 1.0)
                throw RangeError("base must not be 1 for yarn scaling (its correction range divides by ln(base))",
                                 {"base"}, {base});
            yarn_inv_freq(inv, dim, base, s);
            return;
        case T::Llama3:
            llama3_inv_freq(inv, dim, base, s);
            return;
        case T::Longrope: {
            const auto pairs = static_cast<std::size_t>(dim / 2);
            if (s.short_factor.size() != pairs || s.long_factor.size() != pairs)
                throw RangeError(
                    "scaling.short_factor and scaling.long_factor must hold dim/2 = " + std::to_string(pairs) +
                        " factors each, got " + std::to_string(s.short_factor.size()) + " and " +
                        std::to_string(s.long_factor.size()),
                    {"scaling.short_factor", "scaling.long_factor"},
                    {double(pairs), double(s.short_factor.size()), double(s.long_factor.size())});
            longrope_inv_freq(inv, dim, base, s);
            return;
        }
    }
}

float rope_scaling_attention_factor(const RopeScaling& s) {
    using T = RopeScaling::Type;
    if (s.type != T::Yarn && s.type != T::Longrope) return 1.0f;
    // A Python float in HF, which multiplies the float32 cos and sin after rounding.
    if (!std::isnan(s.attention_factor)) return static_cast<float>(s.attention_factor);
    if (s.type == T::Longrope) {
        // LongRoPE (HF _compute_longrope_parameters): sqrt(1 + ln(s) / ln(Lorig)).
        const double f = longrope_factor(s);
        if (f <= 1.0) return 1.0f;
        return static_cast<float>(std::sqrt(1 + std::log(f) / std::log(static_cast<double>(s.original_max_positions))));
    }
    // YaRN (Peng et al. 2023, eq. 22): sqrt(1/t) = 0.1 * ln(s) + 1; DeepSeek's
    // configs divide two such terms (HF: `if mscale and mscale_all_dim`).
    if (s.mscale != 0 && s.mscale_all_dim != 0)
        return static_cast<float>(yarn_mscale(s.factor, s.mscale) / yarn_mscale(s.factor, s.mscale_all_dim));
    return static_cast<float>(yarn_mscale(s.factor, 1.0));
}

}  // namespace posenc
