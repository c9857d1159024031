// PyTorch's CPU float32 exp and pow, reproduced bit for bit in portable C++17.
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

}  // namespace posenc
