// Rotary position embedding (Su et al. 2021, "RoFormer"). Each pair of
// coordinates (a, b) of a query or key at position m turns by angle m*inv_i:
//
//   inv_i = 1 / (f32(base) ** (f32(2i) / f32(dim)))   (HF Llama; ** is PyTorch's
//           float32 pow, reproduced bit for bit in rope_scaling.cpp)
//   theta = f32(f32(m) * inv_i)
//   a' = a*cos(theta) - b*sin(theta)
//   b' = b*cos(theta) + a*sin(theta)
//
// so that <R(m)q, R(n)k> depends only on n - m. Applied to Q and K, never V.
// Two pairings are in use and are NOT interchangeable for a checkpoint:
//   Half        pairs (i, i + dim/2)  HF Llama, GPT-NeoX (rotate_half)
//   Interleaved pairs (2i, 2i+1)      GPT-J, Meta's original Llama, RoFormer
// Partial rotary (GPT-J rotary_dim, HF partial_rotary_factor): only the first
// rotary_dim coordinates rotate, with frequencies computed for rotary_dim;
// the rest pass through unchanged.
#pragma once
#include <cstdint>

#include "rope_scaling.h"
#include "simd.h"
#include "sleef.h"

namespace posenc {

enum class RopeConvention { Half, Interleaved };

// A convention's name ("half", "interleaved"); nullptr past the last (check.h).
const char* rope_convention_name(RopeConvention convention);
// Parses a name of rope_convention_name; throws TypeError naming the bad
// value and the allowed ones.
RopeConvention rope_convention(const char* name);

// inv: (dim/2). dim even in 2..kMaxDim, base > 0 and finite; scaling applied.
void rope_inv_freq(float* inv, std::int64_t dim, double base = 10000.0, const RopeScaling& scaling = RopeScaling{});

// x, out: (rows, dim) row-major (out may alias x); positions: (rows),
// integers in 0..kMaxPosition. rotary_dim even, 2..dim.
// cos/sin are multiplied by rope_scaling_attention_factor(scaling) first.
// path Exact (the default) takes cos and sin from torch_sincos, giving each
// row's rotary_dim/2 angles as one tensor (8-lane groups from the row's first
// angle), as the lesson's and RoFormer's, GPT-J's and Meta's code compute
// `angle = pos * inv_freq; angle.cos()` per position. That is bit for bit
// HF Llama's emb.cos() on the (rows, rotary_dim) cat(freqs, freqs) too when
// rotary_dim/2 is a multiple of 8 (every head size in use), or when every
// angle is below 125 (the groups then never leave SLEEF's short reduction).
// Fast takes vecmath's sincos.
void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions, double base,
                RopeConvention convention, std::int64_t rotary_dim, const RopeScaling& scaling = RopeScaling{},
                SinCos path = SinCos::Exact);

// The twins behind rope_apply (no checks): scalar::rope_apply and, in SIMD
// builds, simd::rope_apply (simd.h). inv: (rotary_dim/2), attn_factor and
// path as above.
namespace scalar {
void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions,
                const float* inv, std::int64_t rotary_dim, RopeConvention convention, float attn_factor,
                SinCos path = SinCos::Fast);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions,
                const float* inv, std::int64_t rotary_dim, RopeConvention convention, float attn_factor,
                SinCos path = SinCos::Fast);
}  // namespace simd
#endif

}  // namespace posenc
