// RoPE context-extension variants, as Hugging Face transformers computes
// them (src/transformers/modeling_rope_utils.py), every step in float32 where
// HF uses float32 tensors and in double where HF uses Python floats.
//
//   linear  (position interpolation, Chen et al. 2023):  inv_i / factor
//   dynamic (NTK-aware, bloc97 / HF):  base' = base * (factor*L/Lmax - (factor-1))^(dim/(dim-2)),
//            L = max(seq_len, Lmax); inv recomputed from base'
//   yarn    (Peng et al. 2023): per-pair blend of interpolated and extrapolated
//            frequencies with a linear ramp between the correction dims of
//            beta_fast and beta_slow; cos and sin multiplied by
//            attention_factor = 0.1*ln(factor) + 1
//   llama3  (Meta, Llama 3.1): wavelengths longer than Lorig/low_freq_factor
//            divided by factor, shorter than Lorig/high_freq_factor kept,
//            smooth blend between
//   longrope (Ding et al. 2024, Phi-3): one searched factor per pair,
//            inv_i = 1 / (ext_i * base^(2i/dim)), ext = short_factor while
//            seq_len <= Lorig and long_factor beyond; cos and sin multiplied by
//            sqrt(1 + ln(factor) / ln(Lorig))
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace posenc {

struct RopeScaling {
    enum class Type { None, Linear, Dynamic, Yarn, Llama3, Longrope };
    Type type = Type::None;
    double factor = 1.0;                      // all but None; >= 1 for dynamic, > 0 otherwise;
                                              // longrope: NaN means max_positions / Lorig (HF)
    std::int64_t max_positions = 0;           // dynamic: the model's trained length (Lmax);
                                              // longrope: the extended length
    std::int64_t seq_len = 0;                 // dynamic, longrope: current length (L)
    std::int64_t original_max_positions = 0;  // yarn, llama3, longrope: Lorig
    double beta_fast = 32.0;                  // yarn
    double beta_slow = 1.0;                   // yarn
    bool truncate = true;                     // yarn: floor/ceil the correction range (HF default)
    // yarn, longrope: the config's attention_factor; NaN = computed (HF's default)
    double attention_factor = std::numeric_limits<double>::quiet_NaN();
    double mscale = 0.0;  // yarn: DeepSeek's mscale / mscale_all_dim (0 = unset)
    double mscale_all_dim = 0.0;
    std::vector<float> short_factor;  // longrope: (dim/2) each, float32 as torch.tensor(list)
    std::vector<float> long_factor;
    double low_freq_factor = 1.0;   // llama3
    double high_freq_factor = 4.0;  // llama3
};

// One field a scaling type reads: its name as the core's errors spell it
// (posenc.js camelCases it, as bindings.cpp's RopeScaling does), the kind of
// value it holds, and whether a caller must give it; the others take
// rope_scaling_defaults(type)'s value when not given.
struct RopeScalingField {
    enum class Kind { Number, Integer, Boolean, Floats };  // double, int64, bool, float list
    const char* name;
    Kind kind;
    bool required;
};

// The fields `type` reads, in the order posenc.js checks them, up to an
// entry whose name is nullptr (at once for None).
// The one list of them: buildInfo() reports it and posenc.js takes the
// scaling options it names. Two rules it cannot say stay with the caller:
// longrope needs max_positions when factor is not given, and seq_len, when
// not given, is the length of the call at hand.
const RopeScalingField* rope_scaling_fields(RopeScaling::Type type);

// What each field of `type` holds when not given: RopeScaling{}'s value,
// except longrope's factor, NaN (HF: max_positions / Lorig).
RopeScaling rope_scaling_defaults(RopeScaling::Type type);

// Parses "none" / "linear" / "dynamic" / "yarn" / "llama3" / "longrope";
// throws TypeError "unknown RoPE scaling type 'x' (expected one of ...)".
RopeScaling::Type rope_scaling_type(const char* name);
// The name of a type as rope_scaling_type reads it; nullptr past the last
// type (so a caller can list them all: bindings.cpp's RopeScalingType enum).
const char* rope_scaling_type_name(RopeScaling::Type type);

// Throws RangeError naming the field for a factor <= 0 (or < 1 for dynamic),
// missing/negative lengths, non-finite numbers, low_freq_factor >=
// high_freq_factor, beta_slow >= beta_fast... Called by rope_inv_freq.
void rope_scaling_check(const RopeScaling& s);

// inv: (dim/2), the frequencies after scaling. `dim` is the rotary dim.
void rope_scaling_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& s);

// The factor that multiplies cos and sin, a Python float in HF rounded to
// float32: the config's attention_factor when set; for yarn 0.1*ln(factor)+1
// (1 when factor <= 1), or with mscale and mscale_all_dim both set
// (0.1*mscale*ln(f)+1) / (0.1*mscale_all_dim*ln(f)+1); for longrope
// sqrt(1 + ln(factor)/ln(Lorig)) (1 when factor <= 1); 1 for every other type.
float rope_scaling_attention_factor(const RopeScaling& s);

}  // namespace posenc
