// Elementwise float32 math for the core: sin/cos of positional angles and
// exp for softmax. Every SIMD kernel has its scalar twin beside it; the
// tests hold the SIMD one against the twin and both against PyTorch.
//
// Accuracy contract (what the tests check):
//   sin/cos: absolute error <= 1.5e-7 against the correctly rounded result
//            for every finite float |x| <= 2^24 (positions up to 2^24 times a
//            frequency <= 1); any finite x gives a value in [-1, 1]; NaN/inf
//            give NaN.
//   exp:     relative error <= 2 ULP; x < -104 gives 0, x > 88.7228 (ln of
//            FLT_MAX) gives inf; -inf gives 0 (masked logits).
// Measured (every float, SIMD kernels): sin/cos <= 5.96e-8 for |x| <= 2^24,
// exp <= 0.95 ULP.
// Neither path may use Emscripten's scalarised SSE float->int conversions
// (_mm_cvttps_epi32 is a per-lane loop in Emscripten 3.1.6): conversions
// go through wasm's i32x4.trunc_sat_f32x4 or the round-by-magic-number trick.
#pragma once
#include <cstddef>
#include <cstdint>

#include "simd.h"

namespace posenc {

// s[i] = sin(x[i]), c[i] = cos(x[i]) for i < n. s or c may be null.
void sincos_scalar(const float* x, float* s, float* c, std::size_t n);
// y[i] = exp(x[i]); y may alias x.
void exp_scalar(const float* x, float* y, std::size_t n);

#if POSENC_SIMD
void sincos_simd(const float* x, float* s, float* c, std::size_t n);
void exp_simd(const float* x, float* y, std::size_t n);
#endif

// The build's choice: the SIMD kernel when compiled in, else the twin.
void sincos(const float* x, float* s, float* c, std::size_t n);
void vexp(const float* x, float* y, std::size_t n);

}  // namespace posenc
