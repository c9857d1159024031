// PyTorch's CPU float32 exp, pow, sin and cos, reproduced bit for bit in portable C++17.
//
// PyTorch 1.13 on x86 CPUs evaluates float32 pow with SLEEF's powf_u10
// (Shibata & Petrogalli 2020, "SLEEF: A Portable Vectorized Library of C
// Standard Mathematical Functions"), whose AVX2 build computes every
// multiply-add fused:
//
//   pow(x, y) = exp(y * log|x|)        with log and exp in double-float
//                                       arithmetic (a float pair hi + lo,
//                                       about 48 significant bits)
//
// The single rounding at the end is what makes the result differ from
// (float)pow((double)x, y) by one ULP for ~1.75% of RoPE exponents; with
// positions in the thousands that ULP becomes visible at 1e-6.
//
// Wasm has no fused multiply-add; each one is emulated exactly (see
// sleef.cpp), so native and wasm builds give the same bits.
#pragma once
#include <cstddef>

#include "simd.h"

namespace posenc {

// SLEEF expf_u10, PyTorch's CPU float32 exp, step by step (each multiply-add
// fused). Used for the sinusoidal divisors exp(2i * -ln(base)/d): about 10%
// of them differ by one ULP from a correctly rounded exp, and the position
// multiplies that ULP (2.4e-4 at position 3000). Matches torch on all
// 2,098,176 divisors of every even d up to 4096.
float sleef_expf(float x);

// SLEEF powf_u10 (FMA build), step by step. Exact for positive finite x and
// finite y; special cases follow SLEEF (and C99 Annex F): pow(x, 0) = 1,
// pow(1, y) = 1 (also for NaN), pow(0, y<0) = inf, pow(0, y>0) = 0,
// pow(inf, y) = inf or 0, pow(x<0, non-integer y) = NaN, NaN otherwise
// propagates, pow(x, +-inf) per |x| vs 1.
float sleef_powf(float x, float y);

// e, out: (n). out[i] = base ** e[i] as PyTorch's CPU kernel computes
// `base ** tensor` (torch.pow(Scalar, Tensor)) for float32 on AVX2 machines:
//
//   out[i] = sleef_powf(base, e[i])     for i <  n - n % 16
//   out[i] = std::pow(base, e[i])       for i >= n - n % 16   (libm powf)
//
// Why the split: ATen's vectorised loop steps through Vectorized<float> of
// 8 lanes (AVX2) unrolled twice, i.e. 16 elements at a time, through
// Sleef_powf8_u10; the last n % 16 elements go through the scalar lambda,
// which calls std::pow(float, float), the C library's powf. The two agree
// to within an ULP but not bit for bit, so the tail has to be reproduced
// separately. glibc's powf and Emscripten's musl powf both come from ARM's
// optimized-routines; on all 12.6M RoPE exponents checked (six bases, every
// even dim to 4096) both builds' tails match torch bit for bit.
// out may alias e.
void torch_pow_scalar_tensor(float* out, float base, const float* e, std::size_t n);

// --- sin and cos ---------------------------------------------------------
//
// SLEEF sinf_u10 / cosf_u10 (xsinf_u1 / xcosf_u1, FMA build), one lane of a
// vector. SLEEF picks the range reduction per VECTOR, not per lane:
//
//   every lane |x| < 125  ->  Cody-Waite (wide = false):
//       k = rint(x/pi),  s = x - k*pi        (pi in three parts)
//   any lane >= 125, inf or NaN  ->  Payne-Hanek for ALL lanes (wide = true):
//       x = j*pi/2 + r,  r from 2/pi in four float parts (SLEEF's rempif)
//   sin x = (-1)^k * s * (1 + s^2 * p(s^2)),  in double-float, rounded once
//
// The two reductions give different last bits for 1-2% of |x| < 125,
// so a lane's result depends on its neighbours (see torch_sincos). Outside
// the vector code, sleef_sinf(x) alone is SLEEF's scalar result for a lane
// with only zeros beside it (what torch computes for a one-element tensor).
// NaN and +-inf give NaN (SLEEF's NaN bit pattern is not reproduced);
// sin(-0) = -0.
float sleef_sinf(float x, bool wide = false);
float sleef_cosf(float x, bool wide = false);
// Both, sharing the wide path's reduction; s or c may be null.
void sleef_sincosf(float x, bool wide, float* s, float* c);

// PyTorch 1.13's vector width for float sin/cos on AVX2 (Vectorized<float>).
constexpr std::size_t kTorchTrigLanes = 8;

// x, s, c: (n). s[i] = torch.sin(t)[i], c[i] = torch.cos(t)[i] for a
// contiguous float32 CPU tensor t holding x, bit for bit, as torch 1.13 on
// AVX2 computes them (one thread, or any tensor below 32768 elements):
//
//   for each group g = x[8j .. 8j+8):          (the last one padded with zeros)
//       wide = any |x| in g not below 125
//       s[i] = sleef_sinf(x[i], wide), c[i] = sleef_cosf(x[i], wide)
//
// Why: torch.sin/cos (UnaryOpsKernel.cpp, IMPLEMENT_*_KERNEL) hand the whole
// tensor to vml::vsin/vcos, which run vec::map: Sleef_sinf8_u10 on each
// 8-lane vector from the start, and the tail loaded into a zero-filled vector
// through the same SLEEF call. Unlike pow (n - n % 16 through SLEEF, the rest
// through libm), no element goes through libm. So the result of an element
// depends on the 7 others of its group: give this the same flat array torch
// sees (a (L, d/2) angle tensor as one run of L*d/2 values).
// s or c may be null; either may alias x.
//
//
// torch_sincos_interleaved: the same results written as pairs, out[2i] =
// sin x[i], out[2i + 1] = cos x[i] (a sinusoidal table's row layout); out:
// (2n), not overlapping x.
//
// Two twins give the same bits: scalar::, one lane at a time (the scalar
// build's path), and simd::, four lanes at a time on both reductions, with
// the polynomial's last rounding certified in double and the rare lanes it
// cannot certify sent to the scalar code (see sleef.cpp). Callers write
// kernels::torch_sincos (simd.h).
namespace scalar {
void torch_sincos(const float* x, float* s, float* c, std::size_t n);
void torch_sincos_interleaved(const float* x, float* out, std::size_t n);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void torch_sincos(const float* x, float* s, float* c, std::size_t n);
void torch_sincos_interleaved(const float* x, float* out, std::size_t n);
}  // namespace simd
#endif
// torch.sin / torch.cos alone (kernels::torch_sincos with one output).
void torch_sin(float* out, const float* x, std::size_t n);
void torch_cos(float* out, const float* x, std::size_t n);

// Which sin/cos a table or a rotation is computed with:
//   Exact  kernels::torch_sincos: PyTorch's bits, for every number the page prints or
//          compares with torch (4 lanes at a time where the build has SIMD,
//          else one)
//   Fast   vecmath's sincos: <= 1.5 ULP, 4 lanes of wasm SIMD, for pictures,
//          the trainer and the benchmarks
enum class SinCos { Exact, Fast };

}  // namespace posenc
