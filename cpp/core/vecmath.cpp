// Elementwise float32 sin/cos and exp. The scalar twins of sincos, exp_array
// and sincos_interleaved are the C library's float functions (glibc and musl
// are both accurate to about 1 ULP); exp_nonpositive's twin repeats its SIMD
// kernel's arithmetic. The SIMD kernels are written here with xsimd so that
// nothing goes through Emscripten's scalarised float->int conversions.
#include "vecmath.h"

#include <cmath>
#include <cstring>

namespace posenc {
namespace scalar {

// x: (n); s, c: (n) or null.
void sincos(const float* x, float* s, float* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        if (s) s[i] = std::sin(x[i]);
        if (c) c[i] = std::cos(x[i]);
    }
}

// x: (n); out: (2n)
void sincos_interleaved(const float* x, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = std::sin(x[i]);
        out[2 * i + 1] = std::cos(x[i]);
    }
}

// x, y: (n); y may alias x.
void exp_array(const float* x, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}

// The formula and constants are in vecmath.h, beside the SIMD batch kernel
// this twin mirrors operation for operation.
float exp_nonpositive(float x) {
    // pass 1: the clamp; n = round(x log2 e), n + 127 in the low bits of v; s = 2^n
    if (x < kExpNonposClamp) x = kExpNonposClamp;  // NaN compares false and stays
    const float v = x * kExpNonposLog2e + kExpNonposMagic;
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits <<= 23;
    float s;
    std::memcpy(&s, &bits, sizeof s);
    const float n = v - kExpNonposMagic;
    // pass 2: t = x - n ln2 in two parts
    float t = n * kExpNonposMinusLn2Hi + x;
    t = n * kExpNonposMinusLn2Lo + t;
    // pass 3: exp t = 1 + t p(t);  2^n exp t = s + (t s) p
    float p = kExpNonposC5 * t + kExpNonposC4;
    p = p * t + kExpNonposC3;
    p = p * t + kExpNonposC2;
    p = p * t + kExpNonposC1;
    t = t * s;
    return t * p + s;
}

// x, y: (n); y may alias x.
void exp_nonpositive(const float* x, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = exp_nonpositive(x[i]);
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {
namespace {

// Round-to-nearest by the magic number 1.5 * 2^23: for |v| < 2^22, v + magic
// lands in [2^23, 2^24), where the float spacing is exactly 1, so the
// addition rounds v to the nearest integer (ties to even) and that integer
// sits in the low mantissa bits, readable as an int32 without any
// float->int conversion instruction.
constexpr float kMagic = 12582912.0f;            // 1.5 * 2^23
constexpr std::int32_t kMagicBits = 0x4B400000;  // its bit pattern

// --- sin / cos ------------------------------------------------------------
//
// x = q * pi/2 + r with q = round(x * 2/pi), |r| <= pi/4 (Cody & Waite 1980).
// pi/2 is split into parts P1 + P2 + P3 + P4 whose leading three have few
// significant bits (8, 1 and 6; lowest bits at 2^-7, 2^-11, 2^-23), so that
// q * P1, q * P2 and q * P3 are exact floats for |q| < 83468 and each
// subtraction is exact too (Sterbenz for the first, then both operands lie
// on a grid fine enough for the result). Only q * P4 (about 2^-8 here) and
// the last subtraction round: r comes out as the exact remainder rounded
// once, error < 2^-31 on top of that rounding. What P1..P4 miss of pi/2 is
// 1.7e-15, times q it is < 2e-10.
constexpr float kTwoOverPi = 0.636619772367581343f;
constexpr float kPio2P1 = 1.5703125f;                 // 0x1.92p+0
constexpr float kPio2P2 = 4.8828125e-04f;             // 0x1p-11
constexpr float kPio2P3 = -4.41074371337890625e-06f;  // -0x1.28p-18
constexpr float kPio2P4 = -4.37113882867379e-08f;     // -0x1.777a5cp-25
// The exact-product argument holds for |q| < 83468, i.e. |x| < 1.31e5.
// Positional angles (pos * freq, freq <= 1) stay below this for positions up
// to 131072; beyond it a lane goes through the C library, which reduces
// in double (musl's __rem_pio2f, glibc's sinf).
constexpr float kFastMax = 131072.0f;

// Minimax polynomials on [-pi/4, pi/4] (Cephes sinf/cosf, S. Moshier); in
// double their errors are 2.7e-9 (sin) and 1.1e-10 (cos).
//   sin r ~ r + r^3 (S1 + S2 r^2 + S3 r^4)
//   cos r ~ 1 - r^2/2 + r^4 (C1 + C2 r^2 + C3 r^4)
constexpr float kS1 = -1.6666654611e-1f, kS2 = 8.3321608736e-3f, kS3 = -1.9515295891e-4f;
constexpr float kC1 = 4.166664568298827e-2f, kC2 = -1.388731625493765e-3f, kC3 = 2.443315711809948e-5f;

// sin r and cos r for |r| <= pi/4, the polynomials above in z = r^2; cos
// with 1 - z/2 compensated, which halves its worst error (5.96e-8, not 1.19e-7).
inline void sincos_poly(const batch_f& r, batch_f& ps, batch_f& pc) {
    const batch_f z = r * r;
    ps = batch_f(kS3) * z + batch_f(kS2);
    ps = ps * z + batch_f(kS1);
    ps = r + r * z * ps;
    pc = batch_f(kC3) * z + batch_f(kC2);
    pc = pc * z + batch_f(kC1);
    const batch_f hz = batch_f(0.5f) * z;
    const batch_f w = batch_f(1.0f) - hz;
    pc = w + (((batch_f(1.0f) - w) - hz) + z * z * pc);
}

// One batch: s = sin(x), c = cos(x) for lanes with |x| <= kFastMax; other
// lanes hold garbage and the caller redoes them.
inline void sincos_batch(const batch_f& x, batch_f& s, batch_f& c) {
    // pass 1: quadrant q (as float and as its low int bits) and remainder r
    const batch_f t = x * batch_f(kTwoOverPi) + batch_f(kMagic);
    const batch_f q = t - batch_f(kMagic);
    const batch_i qi = xsimd::bitwise_cast<batch_i>(t) - batch_i(kMagicBits);
    batch_f r = x - q * batch_f(kPio2P1);
    r = r - q * batch_f(kPio2P2);
    r = r - q * batch_f(kPio2P3);
    r = r - q * batch_f(kPio2P4);

    // pass 2: both polynomials on r
    batch_f ps, pc;
    sincos_poly(r, ps, pc);

    // pass 3: quadrant selection. sin(q pi/2 + r) cycles through
    // sin r, cos r, -sin r, -cos r; cos through cos r, -sin r, -cos r, sin r.
    // Bit 0 of q swaps the polynomials; bit 1 of q (of q + 1 for cos) moved to
    // the sign bit flips the sign.
    const batch_i one(1);
    const batch_f odd = xsimd::bitwise_cast<batch_f>(batch_i(0) - (qi & one));  // all ones if q odd
    const batch_f even = xsimd::bitwise_cast<batch_f>((qi & one) - one);        // all ones if q even
    const batch_f sin_abs = (pc & odd) | (ps & even);
    const batch_f cos_abs = (ps & odd) | (pc & even);
    const batch_f sin_sign = xsimd::bitwise_cast<batch_f>((qi & batch_i(2)) << 30);
    const batch_f cos_sign = xsimd::bitwise_cast<batch_f>(((qi + one) & batch_i(2)) << 30);
    s = xsimd::select(x == batch_f(0.0f), x, sin_abs ^ sin_sign);  // sin(-0) = -0
    c = cos_abs ^ cos_sign;
}

// Four values from x to s and c (either may be null), redoing any lane the
// fast reduction does not cover (large, inf, NaN) with the C library.
inline void sincos_four(const float* x, float* s, float* c) {
    const batch_f v = xsimd::load_unaligned(x);
    batch_f vs, vc;
    sincos_batch(v, vs, vc);
    if (s) vs.store_unaligned(s);
    if (c) vc.store_unaligned(c);
    if (!xsimd::all(xsimd::abs(v) <= batch_f(kFastMax))) {
        for (std::size_t l = 0; l < kLanes; ++l) {
            if (std::fabs(x[l]) <= kFastMax) continue;  // NaN also falls through
            if (s) s[l] = std::sin(x[l]);
            if (c) c[l] = std::cos(x[l]);
        }
    }
}

// --- sin and cos, interleaved ----------------------------------------------
//
// The reduction and polynomials of sincos_batch, trimmed for |x| <= 2^15
// (kSmallMax), where positional angles of tables up to 32768 rows fall:
// - pi/2 in three parts: P1 and P2 as above (q P1, q P2 and both
//   subtractions exact), P3 the rest of pi/2 rounded to float, so that
//   q P3 rounds once (< 2^-28 for |q| <= 2^15 * 2/pi) and P1 + P2 + P3 misses
//   pi/2 by < 2^-42 (q times that < 5e-9). Past 2^15 that rounding grows
//   (8.5e-8 measured at 1.3e5 against 6.5e-8 with four parts), so larger
//   angles take sincos_four's four parts;
// - q read from the magic-number sum's bits without subtracting the magic:
//   its low bits are q's low bits (0x4B400000 ends in 22 zero bits);
// - quadrant selection by xor: with d = (ps ^ pc) & odd, ps ^ d and pc ^ d
//   swap the polynomials in odd quadrants; the signs are bit 1 of q (sin)
//   and bit 1 xor bit 0 (cos), shifted to the sign bit (q < 0 works too:
//   the bits are two's complement).
// Measured on every float in [-2^15, 2^15]: <= 5.96e-8 against the correctly
// rounded result, as sincos (6.8e-8 against the exact value); the same
// 5.96e-8 on the 32768 x 512 and 65537 x 64 sinusoidal tables (both paths).
constexpr float kSmallMax = 32768.0f;
constexpr float kPio2P3Rest = -0x1.2aeef4p-18f;  // f32(pi/2 - P1 - P2) = -4.4544549e-6

// lo = (s0 c0 s1 c1), hi = (s2 c2 s3 c3): sin and cos of x for |x| <= kSmallMax.
// sin(-0) comes out +0 (r + r z P adds +0 to r = -0); keeping the sign, by
// working on |x| and xoring x's sign back in, measured 6% slower.
inline void sincos_small_batch(const batch_f& x, batch_f& lo, batch_f& hi) {
    // pass 1: quadrant q and remainder r = x - q pi/2
    const batch_f t = x * batch_f(kTwoOverPi) + batch_f(kMagic);
    const batch_f q = t - batch_f(kMagic);
    const batch_i qi = xsimd::bitwise_cast<batch_i>(t);
    batch_f r = x - q * batch_f(kPio2P1);
    r = r - q * batch_f(kPio2P2);
    r = r - q * batch_f(kPio2P3Rest);

    // pass 2: both polynomials on r
    batch_f ps, pc;
    sincos_poly(r, ps, pc);

    // pass 3: quadrant selection (above)
    const batch_i half_q = qi >> 1;
    const batch_f odd = xsimd::bitwise_cast<batch_f>((qi << 31) >> 31);  // all ones if q odd
    const batch_f sin_sign = xsimd::bitwise_cast<batch_f>(half_q << 31);
    const batch_f cos_sign = xsimd::bitwise_cast<batch_f>((half_q ^ qi) << 31);
    const batch_f d = (ps ^ pc) & odd;
    const batch_f s = ps ^ d ^ sin_sign;
    const batch_f c = pc ^ d ^ cos_sign;

    // pass 4: interleave
    lo = xsimd::zip_lo(s, c);
    hi = xsimd::zip_hi(s, c);
}

// out[0..8) as below, through sincos_four (four parts of pi/2, the C library
// past kFastMax). Out of line: it is the rare path, and inlined it would add
// 1.5 KB of wasm per call site.
__attribute__((noinline)) void sincos_interleaved_four_general(const batch_f& x, float* out) {
    alignas(16) float xt[kLanes], st[kLanes], ct[kLanes];
    x.store_aligned(xt);
    sincos_four(xt, st, ct);
    for (std::size_t l = 0; l < kLanes; ++l) {
        out[2 * l] = st[l];
        out[2 * l + 1] = ct[l];
    }
}

// out[0..8) = (sin x0, cos x0, ..., sin x3, cos x3). A batch with a lane past
// kSmallMax (or inf, NaN: the comparison fails) is then redone through
// sincos_four. The fast path runs first and unconditionally: V8 then loads
// its constants once, before the loop, where behind a branch it rebuilt all
// 17 of them in every iteration (3 instructions each; 18% slower).
inline void sincos_interleaved_four(const batch_f& x, float* out) {
    batch_f lo, hi;
    sincos_small_batch(x, lo, hi);
    lo.store_unaligned(out);
    hi.store_unaligned(out + kLanes);
    if (!xsimd::all(xsimd::abs(x) <= batch_f(kSmallMax))) sincos_interleaved_four_general(x, out);
}

// --- exp ------------------------------------------------------------------
//
// exp x = 2^q * exp r, q = round(x / ln 2), r = x - q ln 2 (Cody-Waite:
// q * L2U is exact for |q| <= 255, so only q * L2L rounds), then SLEEF's
// expf polynomial exp r ~ 1 + r + r^2 (E0 + E1 r + ... + E5 r^5) for
// |r| <= ln2/2, and 2^q built by shifting q + 127 into the exponent field.
constexpr float kLog2e = 1.442695040888963407f;
constexpr float kL2U = 0.693145751953125f;
constexpr float kL2L = 1.428606765330187045e-06f;
constexpr float kE5 = 0.000198527617612853646278381f, kE4 = 0.00139304355252534151077271f,
                kE3 = 0.00833336077630519866943359f, kE2 = 0.0416664853692054748535156f,
                kE1 = 0.166666671633720397949219f, kE0 = 0.5f;
// Below -104 exp rounds to 0 (smallest subnormal 1.4e-45 = exp(-103.28));
// above 89 it is past FLT_MAX (exp(88.72)). Clamping keeps q in [-150, 129]
// so the two scale factors below stay normal floats.
constexpr float kExpLo = -104.0f, kExpHi = 89.0f;

inline batch_f exp_batch(const batch_f& x) {
    // pass 1: q and r (the clamp also sends -inf to 0 and +inf to inf)
    const batch_f xc = xsimd::min(xsimd::max(x, batch_f(kExpLo)), batch_f(kExpHi));
    const batch_f t = xc * batch_f(kLog2e) + batch_f(kMagic);
    const batch_f q = t - batch_f(kMagic);
    const batch_i qi = xsimd::bitwise_cast<batch_i>(t) - batch_i(kMagicBits);
    batch_f r = xc - q * batch_f(kL2U);
    r = r - q * batch_f(kL2L);

    // pass 2: exp r
    batch_f u = batch_f(kE5) * r + batch_f(kE4);
    u = u * r + batch_f(kE3);
    u = u * r + batch_f(kE2);
    u = u * r + batch_f(kE1);
    u = u * r + batch_f(kE0);
    u = batch_f(1.0f) + (r + (r * r) * u);

    // pass 3: times 2^q in two halves, so that 2^-150 (subnormal results)
    // and 2^128 (results near FLT_MAX) need no unrepresentable factor; the
    // second multiply is the only rounding into the subnormal range.
    const batch_i q1 = qi >> 1;
    const batch_i q2 = qi - q1;
    const batch_f f1 = xsimd::bitwise_cast<batch_f>((q1 + batch_i(127)) << 23);
    const batch_f f2 = xsimd::bitwise_cast<batch_f>((q2 + batch_i(127)) << 23);
    const batch_f y = (u * f1) * f2;
    return xsimd::select(x != x, x, y);  // NaN stays NaN
}

}  // namespace

// x: (n); s, c: (n) or null. Full batches, then the tail through the same
// kernel in a padded batch, so a value never depends on where it falls.
void sincos(const float* x, float* s, float* c, std::size_t n) {
    const std::size_t full = n - n % kLanes;
    for (std::size_t i = 0; i < full; i += kLanes) sincos_four(x + i, s ? s + i : nullptr, c ? c + i : nullptr);
    if (full == n) return;
    float xt[kLanes] = {}, st[kLanes], ct[kLanes];
    const std::size_t rest = n - full;
    std::memcpy(xt, x + full, rest * sizeof(float));
    sincos_four(xt, st, ct);
    if (s) std::memcpy(s + full, st, rest * sizeof(float));
    if (c) std::memcpy(c + full, ct, rest * sizeof(float));
}

namespace {

// x, y: (n); y may alias x (each batch is loaded before it is stored).
// y = f(x) batch by batch: full batches, then the tail as a zero-padded
// batch, so a value never depends on where it falls.
template <class F>
void map_batches(F f, const float* x, float* y, std::size_t n) {
    const std::size_t full = n - n % kLanes;
    for (std::size_t i = 0; i < full; i += kLanes) f(xsimd::load_unaligned(x + i)).store_unaligned(y + i);
    if (full == n) return;
    float t[kLanes] = {};
    const std::size_t rest = n - full;
    std::memcpy(t, x + full, rest * sizeof(float));
    f(xsimd::load_unaligned(t)).store_unaligned(t);
    std::memcpy(y + full, t, rest * sizeof(float));
}

}  // namespace

// x, y: (n); y may alias x.
void exp_array(const float* x, float* y, std::size_t n) {
    map_batches([](const batch_f& v) { return exp_batch(v); }, x, y, n);
}

// x: (n); out: (2n). Full batches, then the tail in a padded batch, so a
// value never depends on where it falls.
void sincos_interleaved(const float* x, float* out, std::size_t n) {
    const std::size_t full = n - n % kLanes;
    for (std::size_t i = 0; i < full; i += kLanes) sincos_interleaved_four(xsimd::load_unaligned(x + i), out + 2 * i);
    if (full == n) return;
    alignas(16) float xt[kLanes] = {}, ot[2 * kLanes];
    std::memcpy(xt, x + full, (n - full) * sizeof(float));
    sincos_interleaved_four(xsimd::load_aligned(xt), ot);
    std::memcpy(out + 2 * full, ot, 2 * (n - full) * sizeof(float));
}

// x, y: (n); y may alias x.
void exp_nonpositive(const float* x, float* y, std::size_t n) {
    map_batches([](const batch_f& v) { return exp_nonpositive(v); }, x, y, n);
}

}  // namespace simd
#endif

}  // namespace posenc
