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
// exp <= 0.95 ULP. sincos_interleaved and exp_nonpositive (below) carry
// their own figures.
// Neither path may use Emscripten's scalarised SSE float->int conversions
// (_mm_cvttps_epi32 is a per-lane loop in Emscripten 3.1.6): conversions
// go through wasm's i32x4.trunc_sat_f32x4 or the round-by-magic-number trick.
#pragma once
#include <cstddef>
#include <cstdint>

#include "simd.h"

namespace posenc {

// Each kernel below has a scalar twin (posenc::scalar) and, in SIMD builds,
// a SIMD one (posenc::simd); callers take the build's choice, kernels::
// (simd.h).
//
// sincos: s[i] = sin(x[i]), c[i] = cos(x[i]) for i < n. s or c may be null;
// neither may alias x (the scalar twin writes s before it reads x for c).
// exp_array: y[i] = exp(x[i]); y may alias x.
//
// sincos_interleaved (the sinusoidal table's layout): out[2i] = sin(x[i]),
// out[2i + 1] = cos(x[i]) for i < n: pairs written straight from registers,
// with no sin or cos buffer in between. Same accuracy contract as sincos, but
// sin(-0) may come out +0. The SIMD kernel reduces a batch whose |x| are all
// <= 2^15 with three parts of pi/2 instead of four (see vecmath.cpp), and
// takes sincos's path for any other batch. x: (n); out: (2n)
namespace scalar {
void sincos(const float* x, float* s, float* c, std::size_t n);
void exp_array(const float* x, float* y, std::size_t n);
void sincos_interleaved(const float* x, float* out, std::size_t n);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void sincos(const float* x, float* s, float* c, std::size_t n);
void exp_array(const float* x, float* y, std::size_t n);
void sincos_interleaved(const float* x, float* out, std::size_t n);
}  // namespace simd
#endif

// --- exp of non-positive arguments (softmax's exp(x - max)) -----------------
//
// After a softmax subtracts the row max every argument is <= 0, so this exp
// needs no overflow path, no two-step scaling into subnormals and no compare
// and select at the low end. The scheme and coefficients are those of
// XNNPACK's f32-raddstoreexpminusmax "rr2_p5" kernels (the exp pass of the
// three-pass softmax in M. Dukhan and A. Ablavatski, "The Two-Pass Softmax
// Algorithm", 2020):
//   x <- max(x, -88)                    (also -inf -> -88; NaN stays NaN)
//   n = round(x log2 e)                 (magic-number rounding, see vecmath.cpp)
//   t = x - n ln2_hi - n ln2_lo         (Cody & Waite 1980; ln2_hi ends in 7
//                                        zero bits, so n ln2_hi is exact)
//   exp x = 2^n exp t,  exp t ~ 1 + t (c1 + c2 t + c3 t^2 + c4 t^3 + c5 t^4)
//         = s + (t s) p,  s = 2^n
// s is built by shifting n + 127 into the exponent field; the magic number
// carries the +127, so the float's own bits shifted left by 23 are s. At
// x = -88, n = -127 and that field is 0: s = +0 and the result is exactly 0,
// which is what the clamp buys (masked logits give 0 without a select).
// Results below FLT_MIN (x < kExpNonposCutoff = -87.3365) come out as 0 or
// as an approximate tiny value, absolute error < 1.2e-38 (a softmax is held
// to 1e-5).
// Measured, every float: <= 2.27 ULP against double exp on [cutoff, 0],
// absolute error <= 8.4e-39 on [-200, cutoff); 0 for -inf; NaN for NaN.
// x > 0 is outside the contract. scalar::exp_nonpositive is the same
// arithmetic one value at a time: the SIMD kernel equals it bit for bit.
constexpr float kExpNonposCutoff = -0x1.5D589Ep6f;  // -87.33654: exp x < FLT_MIN below
constexpr float kExpNonposClamp = -88.0f;           // n = -127: 2^n's exponent field is 0
constexpr float kExpNonposMagic = 0x1.8000FEp23f;   // 1.5 * 2^23 + 127
constexpr float kExpNonposLog2e = 0x1.715476p+0f;
constexpr float kExpNonposMinusLn2Hi = -0x1.62E400p-1f;
constexpr float kExpNonposMinusLn2Lo = -0x1.7F7D1Cp-20f;
constexpr float kExpNonposC5 = 0x1.0F9F9Cp-7f, kExpNonposC4 = 0x1.573A1Ap-5f, kExpNonposC3 = 0x1.555A80p-3f,
                kExpNonposC2 = 0x1.FFFDC6p-2f, kExpNonposC1 = 0x1.FFFFF6p-1f;

// y = exp(x) for x <= 0 (above); y may alias x.
namespace scalar {
float exp_nonpositive(float x);
void exp_nonpositive(const float* x, float* y, std::size_t n);
}  // namespace scalar

#if POSENC_SIMD
namespace simd {
// One batch, inline so that softmax can fuse it with its sum (see
// simd::softmax_row_with_max): the formula above, four lanes at a time.
inline batch_f exp_nonpositive(const batch_f& x_in) {
    // pass 1: the clamp; n = round(x log2 e), n + 127 in the low bits of v; s = 2^n
    const batch_f x = pmax(x_in, batch_f(kExpNonposClamp));  // keeps a NaN x
    const batch_f v = x * batch_f(kExpNonposLog2e) + batch_f(kExpNonposMagic);
    const batch_f s = xsimd::bitwise_cast<batch_f>(xsimd::bitwise_cast<batch_i>(v) << 23);
    const batch_f n = v - batch_f(kExpNonposMagic);
    // pass 2: t = x - n ln2 in two parts
    batch_f t = n * batch_f(kExpNonposMinusLn2Hi) + x;
    t = n * batch_f(kExpNonposMinusLn2Lo) + t;
    // pass 3: exp t = 1 + t p(t);  2^n exp t = s + (t s) p
    batch_f p = batch_f(kExpNonposC5) * t + batch_f(kExpNonposC4);
    p = p * t + batch_f(kExpNonposC3);
    p = p * t + batch_f(kExpNonposC2);
    p = p * t + batch_f(kExpNonposC1);
    t = t * s;
    return t * p + s;
}

void exp_nonpositive(const float* x, float* y, std::size_t n);
}  // namespace simd
#endif

}  // namespace posenc
