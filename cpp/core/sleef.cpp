// SLEEF's expf_u10, powf_u10, sinf_u10 and cosf_u10 as PyTorch's AVX2
// kernels run them, one lane at a time. Every operation below is one
// instruction of SLEEF 3.5.1's vector code (src/libm/sleefsimdsp.c: xpowf,
// logkf, expkf, xsinf_u1, xcosf_u1, rempif; src/libm/df.h: the double-float
// helpers in their FMA form), in the same order: floating-point addition is
// not associative, so reordering anything here changes bits.
#include "sleef.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

// SLEEF is compiled with -ffp-contract=off: a product followed by a sum must
// stay two roundings, or the double-float error terms come out different.
// Only a build targeting FMA hardware (-mfma, -march=haswell) could contract.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// In the SIMD build the scalar code below is the fallback of rare lanes and
// the wide groups; where clang compiles it (wasm), parts that are not hot are
// optimised for size so the module stays within its budget.
#if defined(__clang__)
#define POSENC_MINSIZE __attribute__((minsize))
#else
#define POSENC_MINSIZE
#endif

namespace posenc {
namespace {

std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float float_of(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// fmaf(a, b, c) with a single rounding, without an FMA instruction (wasm has
// none). a*b is exact in double (24 + 24 < 53 bits); the double sum p + c is
// then rounded to odd (Boldo & Melquiond 2008, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd"): rounded
// to nearest, its error recovered exactly by TwoSum (Knuth), and if inexact
// and even, stepped one ULP towards the exact value. With 53 >= 2*24 + 2
// bits, rounding that to float gives the correctly rounded fma. The plain
// (float)(p + c) would round twice and miss on rare halfway cases.
//
// Most of the time the plain double sum already rounds right: RN53 is
// monotone and every float midpoint is a double, so unless s landed exactly
// on a midpoint (its 29 bits below float precision 1000...0), the exact value
// lies between the same two midpoints as s. That holds where floats are
// normal (below, their grid is coarser); anything else takes the slow path.
float fma_exact(float a, float b, float c) {
    const double p = static_cast<double>(a) * b;
    double s = p + c;
    std::uint64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    if ((bits & 0x1FFFFFFFu) != 0x10000000u && !(std::fabs(s) < 0x1p-126)) return static_cast<float>(s);
    const double v = s - p;
    const double err = (p - (s - v)) + (c - v);
    if (err != 0 && std::isfinite(s)) {
        std::uint64_t u;
        std::memcpy(&u, &s, sizeof u);
        if ((u & 1) == 0) {
            // Away from zero when the exact value is beyond s, else towards it.
            u = ((err > 0) == (s > 0)) ? u + 1 : u - 1;
            std::memcpy(&s, &u, sizeof s);
        }
    }
    return static_cast<float>(s);
}

// x86's cvtps2dq (_mm256_cvtps_epi32): round to nearest even; NaN and
// out-of-range values give INT32_MIN ("integer indefinite").
std::int32_t rint_to_int(float u) {
    if (!(u >= -2147483648.0f && u < 2147483648.0f)) return std::numeric_limits<std::int32_t>::min();
    return static_cast<std::int32_t>(std::nearbyint(u));
}

// Integer helpers on 32-bit lanes, wrapping like the vector instructions.
std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
std::int32_t wrap_sub(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
std::int32_t wrap_shl(std::int32_t a, int c) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) << c);
}

// A double-float: the unevaluated sum hi + lo, |lo| <= ulp(hi) / 2.
struct F2 {
    float hi, lo;
};

// --- double-float arithmetic (Dekker 1971), FMA forms ---------------------

// s = x + y, error recovered by Knuth's TwoSum (no ordering needed).
F2 add2(float x, float y) {
    const float h = x + y;
    const float v = h - x;
    return {h, (x - (h - v)) + (y - v)};
}

F2 add2(F2 x, float y) {
    const float h = x.hi + y;
    const float v = h - x.hi;
    float l = (x.hi - (h - v)) + (y - v);
    l = l + x.lo;
    return {h, l};
}

F2 add2(F2 x, F2 y) {
    const float h = x.hi + y.hi;
    const float v = h - x.hi;
    float l = (x.hi - (h - v)) + (y.hi - v);
    l = l + (x.lo + y.lo);
    return {h, l};
}

// Fast2Sum forms: valid when |x| >= |y|.
F2 add_fast(float x, F2 y) {
    const float h = x + y.hi;
    return {h, ((x - h) + y.hi) + y.lo};
}

F2 add_fast(F2 x, F2 y) {
    const float h = x.hi + y.hi;
    return {h, (((x.hi - h) + y.hi) + x.lo) + y.lo};
}

F2 normalize(F2 t) {
    const float h = t.hi + t.lo;
    return {h, (t.hi - h) + t.lo};
}

F2 scale(F2 d, float s) {
    return {d.hi * s, d.lo * s};
}

// Products: the rounding error of hi is fma(x, y, -hi), exactly.
F2 mul(F2 x, float y) {
    const float h = x.hi * y;
    return {h, fma_exact(x.lo, y, fma_exact(x.hi, y, -h))};
}

F2 mul(F2 x, F2 y) {
    const float h = x.hi * y.hi;
    return {h, fma_exact(x.hi, y.lo, fma_exact(x.lo, y.hi, fma_exact(x.hi, y.hi, -h)))};
}

F2 square(F2 x) {
    const float h = x.hi * x.hi;
    return {h, fma_exact(x.hi + x.hi, x.lo, fma_exact(x.hi, x.hi, -h))};
}

F2 div(F2 n, F2 d) {
    const float t = 1.0f / d.hi;
    const float h = n.hi * t;
    const float u = fma_exact(t, n.hi, -h);
    float l = fma_exact(-d.lo, t, fma_exact(-d.hi, t, 1.0f));
    l = fma_exact(h, l, fma_exact(n.lo, t, u));
    return {h, l};
}

// --- exponent manipulation ------------------------------------------------

// floor(log2 |d|) from the exponent field (d normal).
std::int32_t ilogb_bits(float d) {
    return static_cast<std::int32_t>((bits_of(d) >> 23) & 0xff) - 0x7f;
}

// d * 2^q by adding q to the exponent field (no range checks).
float ldexp_bits(float d, std::int32_t q) {
    return float_of(static_cast<std::uint32_t>(wrap_add(static_cast<std::int32_t>(bits_of(d)), wrap_shl(q, 23))));
}

// x * 2^q for any q: four factors 2^m (m clamped to the float range) and a
// last 2^(q - 4m), so that over- and underflow round like SLEEF's.
float ldexp_wide(float x, std::int32_t q) {
    std::int32_t m = q >> 31;
    m = wrap_shl(wrap_sub(wrap_add(m, q) >> 6, m), 4);
    q = wrap_sub(q, wrap_shl(m, 2));
    m = wrap_add(m, 0x7f);
    if (m < 0) m = 0;
    if (m > 0xff) m = 0xff;
    float u = float_of(static_cast<std::uint32_t>(m) << 23);
    x = x * u * u * u * u;
    u = float_of(static_cast<std::uint32_t>(wrap_shl(wrap_add(q, 0x7f), 23)));
    return x * u;
}

// --- log and exp in double-float ------------------------------------------

// log(d) for d > 0, as hi + lo.
//   d = m * 2^e with m in [0.75, 1.5);  x = (m - 1) / (m + 1)
//   log d = e*ln2 + 2x + x^3 * (c + x^2 * t(x^2))      (atanh series)
POSENC_MINSIZE F2 log_f2(float d) {
    // pass 1: split off the exponent (subnormals scaled up by 2^64 first)
    const bool tiny = d < std::numeric_limits<float>::min();
    if (tiny) d = d * 18446744073709551616.0f;
    std::int32_t e = ilogb_bits(d * (1.0f / 0.75f));
    const float m = ldexp_bits(d, -e);
    if (tiny) e -= 64;

    // pass 2: x = (m - 1) / (m + 1) and the series
    const F2 x = div(add2(-1.0f, m), add2(1.0f, m));
    const F2 x2 = square(x);
    float t = 0.240320354700088500976562f;
    t = fma_exact(t, x2.hi, 0.285112679004669189453125f);
    t = fma_exact(t, x2.hi, 0.400007992982864379882812f);
    const F2 c = {0.66666662693023681640625f, 3.69183861259614332084311e-09f};

    // pass 3: e*ln2 + 2x + x^3 * (x^2 * t + c)
    const F2 ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    F2 s = mul(ln2, static_cast<float>(e));
    s = add_fast(s, scale(x, 2.0f));
    s = add_fast(s, mul(mul(x2, x), add2(mul(x2, t), c)));
    return s;
}

// exp(d) rounded to float.
//   q = round(d / ln2),  s = d - q*ln2  (ln2 in two parts),
//   exp d = 2^q * (1 + s + s^2 * u(s))
POSENC_MINSIZE float exp_f2(F2 d) {
    constexpr float kRLn2 = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    constexpr float kL2U = 0.693145751953125f;
    constexpr float kL2L = 1.428606765330187045e-06f;

    // pass 1: reduce
    const std::int32_t q = rint_to_int((d.hi + d.lo) * kRLn2);
    const float qf = static_cast<float>(q);
    F2 s = add2(d, qf * -kL2U);
    s = add2(s, qf * -kL2L);
    s = normalize(s);

    // pass 2: polynomial, then 1 + s + s^2 * u in double-float
    float u = 0.00136324646882712841033936f;
    u = fma_exact(u, s.hi, 0.00836596917361021041870117f);
    u = fma_exact(u, s.hi, 0.0416710823774337768554688f);
    u = fma_exact(u, s.hi, 0.166665524244308471679688f);
    u = fma_exact(u, s.hi, 0.499999850988388061523438f);
    F2 t = add_fast(s, mul(square(s), u));
    t = add_fast(1.0f, t);

    // pass 3: scale by 2^q; far below the float range gives +0
    const float r = ldexp_wide(t.hi + t.lo, q);
    return d.hi < -104.0f ? 0.0f : r;
}

// --- sin and cos (xsinf_u1, xcosf_u1) --------------------------------------

// float products and sums as double-floats, the forms sin and cos use.
F2 mul(float x, float y) {
    const float h = x * y;
    return {h, fma_exact(x, y, -h)};
}

// Fast2Sum with a float second term: ((x.hi - h) + y) + x.lo (|x| >= |y|).
F2 add_fast(F2 x, float y) {
    const float h = x.hi + y;
    return {h, ((x.hi - h) + y) + x.lo};
}

F2 add_fast(float x, float y) {
    const float h = x + y;
    return {h, (x - h) + y};
}

// x * y rounded once to a float: hi*hi + (lo*hi + hi*lo), fused.
float mul_to_float(F2 x, F2 y) {
    return fma_exact(x.hi, y.hi, fma_exact(x.lo, y.hi, x.hi * y.lo));
}

// The sign of y on x (x86's xor with y's sign bit).
float mulsign(float x, float y) {
    return float_of(bits_of(x) ^ (bits_of(y) & 0x80000000u));
}

// SLEEF 3.5.1's Sleef_rempitabsp (src/libm/rempitab.c; Boost Software
// License 1.0): 2/pi in four float parts, from 2^-(e - 25) on, for each
// binade e of the argument (row = max(e - 25, 0)).
constexpr float kRempiTab[] = {
    0.159154892f,      5.112411827e-08f,  3.626141271e-15f,  -2.036222915e-22f, 0.03415493667f,    6.420638243e-09f,
    7.342738037e-17f,  8.135951656e-24f,  0.03415493667f,    6.420638243e-09f,  7.342738037e-17f,  8.135951656e-24f,
    0.002904943191f,   -9.861969574e-11f, -9.839336547e-18f, -1.790215892e-24f, 0.002904943191f,   -9.861969574e-11f,
    -9.839336547e-18f, -1.790215892e-24f, 0.002904943191f,   -9.861969574e-11f, -9.839336547e-18f, -1.790215892e-24f,
    0.002904943191f,   -9.861969574e-11f, -9.839336547e-18f, -1.790215892e-24f, 0.0009518179577f,  1.342109202e-10f,
    1.791623576e-17f,  1.518506657e-24f,  0.0009518179577f,  1.342109202e-10f,  1.791623576e-17f,  1.518506657e-24f,
    0.0004635368241f,  1.779561221e-11f,  4.038449606e-18f,  -1.358546052e-25f, 0.0002193961991f,  1.779561221e-11f,
    4.038449606e-18f,  -1.358546052e-25f, 9.73258866e-05f,   1.779561221e-11f,  4.038449606e-18f,  -1.358546052e-25f,
    3.62907449e-05f,   3.243700447e-12f,  5.690024473e-19f,  7.09405479e-26f,   5.773168596e-06f,  1.424711477e-12f,
    1.3532163e-19f,    1.92417627e-26f,   5.773168596e-06f,  1.424711477e-12f,  1.3532163e-19f,    1.92417627e-26f,
    5.773168596e-06f,  1.424711477e-12f,  1.3532163e-19f,    1.92417627e-26f,   1.958472239e-06f,  5.152167755e-13f,
    1.3532163e-19f,    1.92417627e-26f,   5.112411827e-08f,  3.626141271e-15f,  -2.036222915e-22f, 6.177847236e-30f,
    5.112411827e-08f,  3.626141271e-15f,  -2.036222915e-22f, 6.177847236e-30f,  5.112411827e-08f,  3.626141271e-15f,
    -2.036222915e-22f, 6.177847236e-30f,  5.112411827e-08f,  3.626141271e-15f,  -2.036222915e-22f, 6.177847236e-30f,
    5.112411827e-08f,  3.626141271e-15f,  -2.036222915e-22f, 6.177847236e-30f,  5.112411827e-08f,  3.626141271e-15f,
    -2.036222915e-22f, 6.177847236e-30f,  2.132179588e-08f,  3.626141271e-15f,  -2.036222915e-22f, 6.177847236e-30f,
    6.420638243e-09f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 6.420638243e-09f,  7.342738037e-17f,
    8.135951656e-24f,  -1.330400526e-31f, 2.695347945e-09f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f,
    8.327027956e-10f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 8.327027956e-10f,  7.342738037e-17f,
    8.135951656e-24f,  -1.330400526e-31f, 3.670415083e-10f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f,
    1.342109202e-10f,  1.791623576e-17f,  1.518506361e-24f,  2.613904e-31f,     1.779561221e-11f,  4.038449606e-18f,
    -1.358545683e-25f, -3.443243946e-32f, 1.779561221e-11f,  4.038449606e-18f,  -1.358545683e-25f, -3.443243946e-32f,
    1.779561221e-11f,  4.038449606e-18f,  -1.358545683e-25f, -3.443243946e-32f, 3.243700447e-12f,  5.690024473e-19f,
    7.094053557e-26f,  1.487136711e-32f,  3.243700447e-12f,  5.690024473e-19f,  7.094053557e-26f,  1.487136711e-32f,
    3.243700447e-12f,  5.690024473e-19f,  7.094053557e-26f,  1.487136711e-32f,  1.424711477e-12f,  1.3532163e-19f,
    1.924175961e-26f,  2.545416018e-33f,  5.152167755e-13f,  1.3532163e-19f,    1.924175961e-26f,  2.545416018e-33f,
    6.046956013e-14f,  -2.036222915e-22f, 6.177846108e-30f,  1.082084378e-36f,  6.046956013e-14f,  -2.036222915e-22f,
    6.177846108e-30f,  1.082084378e-36f,  6.046956013e-14f,  -2.036222915e-22f, 6.177846108e-30f,  1.082084378e-36f,
    3.626141271e-15f,  -2.036222915e-22f, 6.177846108e-30f,  1.082084378e-36f,  3.626141271e-15f,  -2.036222915e-22f,
    6.177846108e-30f,  1.082084378e-36f,  3.626141271e-15f,  -2.036222915e-22f, 6.177846108e-30f,  1.082084378e-36f,
    3.626141271e-15f,  -2.036222915e-22f, 6.177846108e-30f,  1.082084378e-36f,  7.342738037e-17f,  8.135951656e-24f,
    -1.330400526e-31f, 6.296048013e-40f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 6.296048013e-40f,
    7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 6.296048013e-40f,  7.342738037e-17f,  8.135951656e-24f,
    -1.330400526e-31f, 6.296048013e-40f,  7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 6.296048013e-40f,
    7.342738037e-17f,  8.135951656e-24f,  -1.330400526e-31f, 6.296048013e-40f,  1.791623576e-17f,  1.518506361e-24f,
    2.61390353e-31f,   4.764937743e-38f,  1.791623576e-17f,  1.518506361e-24f,  2.61390353e-31f,   4.764937743e-38f,
    4.038449606e-18f,  -1.358545683e-25f, -3.443243946e-32f, 6.296048013e-40f,  4.038449606e-18f,  -1.358545683e-25f,
    -3.443243946e-32f, 6.296048013e-40f,  5.690024473e-19f,  7.094053557e-26f,  1.487136711e-32f,  6.296048013e-40f,
    5.690024473e-19f,  7.094053557e-26f,  1.487136711e-32f,  6.296048013e-40f,  5.690024473e-19f,  7.094053557e-26f,
    1.487136711e-32f,  6.296048013e-40f,  1.3532163e-19f,    1.924175961e-26f,  2.545415467e-33f,  6.296048013e-40f,
    1.3532163e-19f,    1.924175961e-26f,  2.545415467e-33f,  6.296048013e-40f,  2.690143217e-20f,  -1.452834402e-28f,
    -6.441077673e-36f, -1.764234767e-42f, 2.690143217e-20f,  -1.452834402e-28f, -6.441077673e-36f, -1.764234767e-42f,
    2.690143217e-20f,  -1.452834402e-28f, -6.441077673e-36f, -1.764234767e-42f, 1.334890502e-20f,  -1.452834402e-28f,
    -6.441077673e-36f, -1.764234767e-42f, 6.572641438e-21f,  -1.452834402e-28f, -6.441077673e-36f, -1.764234767e-42f,
    0.05874381959f,    1.222115387e-08f,  7.693612965e-16f,  1.792054435e-22f,  0.02749382704f,    4.77057327e-09f,
    7.693612965e-16f,  1.792054435e-22f,  0.01186883077f,    1.045283415e-09f,  3.252721926e-16f,  7.332633139e-23f,
    0.00405633077f,    1.045283415e-09f,  3.252721926e-16f,  7.332633139e-23f,  0.000150081818f,   -2.454155802e-12f,
    1.161414894e-20f,  1.291319272e-27f,  0.000150081818f,   -2.454155802e-12f, 1.161414894e-20f,  1.291319272e-27f,
    0.000150081818f,   -2.454155802e-12f, 1.161414894e-20f,  1.291319272e-27f,  0.000150081818f,   -2.454155802e-12f,
    1.161414894e-20f,  1.291319272e-27f,  0.000150081818f,   -2.454155802e-12f, 1.161414894e-20f,  1.291319272e-27f,
    2.801149822e-05f,  4.821800945e-12f,  8.789757674e-19f,  1.208447639e-25f,  2.801149822e-05f,  4.821800945e-12f,
    8.789757674e-19f,  1.208447639e-25f,  2.801149822e-05f,  4.821800945e-12f,  8.789757674e-19f,  1.208447639e-25f,
    1.275271279e-05f,  1.183823005e-12f,  1.161414894e-20f,  1.291319272e-27f,  5.12331826e-06f,   1.183823005e-12f,
    1.161414894e-20f,  1.291319272e-27f,  1.308621904e-06f,  2.743283031e-13f,  1.161414894e-20f,  1.291319272e-27f,
    1.308621904e-06f,  2.743283031e-13f,  1.161414894e-20f,  1.291319272e-27f,  3.549478151e-07f,  4.695462769e-14f,
    1.161414894e-20f,  1.291319272e-27f,  3.549478151e-07f,  4.695462769e-14f,  1.161414894e-20f,  1.291319272e-27f,
    1.165292645e-07f,  1.853292503e-14f,  4.837885366e-21f,  1.291319272e-27f,  1.165292645e-07f,  1.853292503e-14f,
    4.837885366e-21f,  1.291319272e-27f,  5.69246339e-08f,   4.322073705e-15f,  1.449754789e-21f,  7.962890365e-29f,
    2.712231151e-08f,  4.322073705e-15f,  1.449754789e-21f,  7.962890365e-29f,  1.222115387e-08f,  7.693612965e-16f,
    1.792054182e-22f,  2.91418027e-29f,   4.77057327e-09f,   7.693612965e-16f,  1.792054182e-22f,  2.91418027e-29f,
    1.045283415e-09f,  3.252721926e-16f,  7.332632508e-23f,  3.898253736e-30f,  1.045283415e-09f,  3.252721926e-16f,
    7.332632508e-23f,  3.898253736e-30f,  1.139611461e-10f,  1.996093359e-17f,  5.344349223e-25f,  1.511644828e-31f,
    1.139611461e-10f,  1.996093359e-17f,  5.344349223e-25f,  1.511644828e-31f,  1.139611461e-10f,  1.996093359e-17f,
    5.344349223e-25f,  1.511644828e-31f,  1.139611461e-10f,  1.996093359e-17f,  5.344349223e-25f,  1.511644828e-31f,
    5.575349904e-11f,  6.083145782e-18f,  5.344349223e-25f,  1.511644828e-31f,  2.664967552e-11f,  -8.557475018e-19f,
    -8.595036458e-26f, -2.139883875e-32f, 1.209775682e-11f,  2.61369883e-18f,   5.344349223e-25f,  1.511644828e-31f,
    4.821800945e-12f,  8.789757674e-19f,  1.208447639e-25f,  3.253064536e-33f,  1.183823005e-12f,  1.161414894e-20f,
    1.29131908e-27f,   1.715766248e-34f,  1.183823005e-12f,  1.161414894e-20f,  1.29131908e-27f,   1.715766248e-34f,
    2.743283031e-13f,  1.161414894e-20f,  1.29131908e-27f,   1.715766248e-34f};

// SLEEF's rempisubf (FULL_FP_ROUNDING form, as in its AVX2 build): splits x
// into x - y/4 with y = rint(4x), and the quadrant (y - 4 rint(x)).
struct FI {
    float d;
    std::int32_t i;
};
FI rempisub(float x) {
    const float y = std::nearbyint(x * 4.0f);
    const float qf = y - std::nearbyint(x) * 4.0f;  // an integer in [-2, 2]
    return {x - y * 0.25f, static_cast<std::int32_t>(qf)};
}

// Payne-Hanek reduction (SLEEF's rempif): a = k * pi/2 + r, |r| <= pi/4,
// r as a double-float and k's low bits in i. a finite.
//   pass 1: scale huge arguments by 2^-64 and pick the table row
//   pass 2: a * (2/pi) in three steps, taking out whole quarters each time
//   pass 3: the fraction times 2*pi (in two parts), or a itself if |a| < 0.7
struct DFI {
    F2 df;
    std::int32_t i;
};
DFI rempi(float a) {
    // pass 1
    std::int32_t ex = ilogb_bits(a) - 25;
    const std::int32_t q0 = ex > 90 - 25 ? -64 : 0;
    a = ldexp_bits(a, q0);
    if (ex < 0) ex = 0;
    const float* t = kRempiTab + 4 * ex;

    // pass 2
    F2 x = mul(a, t[0]);
    FI di = rempisub(x.hi);
    std::int32_t q = di.i;
    x.hi = di.d;
    x = normalize(x);
    x = add2(x, mul(a, t[1]));
    di = rempisub(x.hi);
    q = wrap_add(q, di.i);
    x.hi = di.d;
    x = normalize(x);
    x = add2(x, mul(F2{t[2], t[3]}, a));
    x = normalize(x);

    // pass 3
    x = mul(x, F2{3.1415927410125732422f * 2, -8.7422776573475857731e-08f * 2});
    if (std::fabs(a) < 0.7f) x = {a, 0.0f};
    return {x, q};
}

// The polynomial shared by sin and cos, on the reduced argument s:
//   sin s = s * (1 + s^2 * (-1/6 + s^2 * u(s^2))),  u of degree 2
// evaluated in double-float and rounded once.
float sin_poly(F2 s) {
    const F2 t = s;
    s = square(s);
    float u = 2.6083159809786593541503e-06f;
    u = fma_exact(u, s.hi, -0.0001981069071916863322258f);
    u = fma_exact(u, s.hi, 0.00833307858556509017944336f);
    const F2 x = add_fast(1.0f, mul(add_fast(-0.166666597127914428710938f, u * s.hi), s));
    return mul_to_float(t, x);
}

constexpr float kTrigRangeMax2 = 125.0f;                               // TRIGRANGEMAX2f
constexpr float kPiA2 = 3.1414794921875f;                              // pi in three parts,
constexpr float kPiB2 = 0.00011315941810607910156f;                    // the first two with
constexpr float kPiC2 = 1.9841872589410058936e-09f;                    // trailing zero bits
constexpr float kOneOverPi = 0.318309886183790671537767526745028724f;  // M_1_PI rounded to float
constexpr float kHalfPiHi = 3.1415927410125732422f * -0.5f;
constexpr float kHalfPiLo = -8.7422776573475857731e-08f * -0.5f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// The Cody-Waite reduction of xsinf_u1: k = rint(d/pi), s = d - k*pi
// (pi in three parts, the first product fused, the rest summed as
// double-floats).
F2 reduce_sin_cw(float d, std::int32_t& q) {
    const float u = std::nearbyint(d * kOneOverPi);
    q = rint_to_int(u);
    const float v = fma_exact(u, -kPiA2, d);
    const F2 s = add2(v, u * -kPiB2);
    return add_fast(s, u * -kPiC2);
}

// The Cody-Waite reduction of xcosf_u1: k = 2*rint(d/pi - 1/2) + 1 (odd),
// s = d - k*pi/2.
F2 reduce_cos_cw(float d, std::int32_t& q) {
    const float dq = fma_exact(std::nearbyint(fma_exact(d, kOneOverPi, -0.5f)), 2.0f, 1.0f);
    q = rint_to_int(dq);
    F2 s = add2(d, dq * (-kPiA2 * 0.5f));
    s = add2(s, dq * (-kPiB2 * 0.5f));
    return add2(s, dq * (-kPiC2 * 0.5f));
}

// From rempi's d = j*pi/2 + r to sin's k (nearest multiple of pi) and s:
// s = r, or r -+ pi/2 when j is odd.
F2 reduce_sin_wide(DFI dfi, std::int32_t& q) {
    q = dfi.i & 3;
    q = (q + q + (dfi.df.hi > 0 ? 2 : 1)) >> 2;
    if ((dfi.i & 1) == 1) {
        const F2 h = {mulsign(kHalfPiHi, dfi.df.hi), mulsign(kHalfPiLo, dfi.df.hi)};
        dfi.df = add2(dfi.df, h);
    }
    return normalize(dfi.df);
}

// The same for cos: k odd, s = r -+ pi/2 when j is even.
F2 reduce_cos_wide(DFI dfi, std::int32_t& q) {
    q = dfi.i & 3;
    q = (q + q + (dfi.df.hi > 0 ? 8 : 7)) >> 1;
    if ((dfi.i & 1) == 0) {
        const float y = dfi.df.hi > 0 ? 0.0f : -1.0f;
        const F2 h = {mulsign(kHalfPiHi, y), mulsign(kHalfPiLo, y)};
        dfi.df = add2(dfi.df, h);
    }
    return normalize(dfi.df);
}

// sin from its reduction: (-1)^k * sin_poly(s), and sin(-0) = -0.
float finish_sin(float d, F2 s, std::int32_t q) {
    float r = sin_poly(s);
    if ((q & 1) == 1) r = -r;
    if (bits_of(d) == 0x80000000u) r = d;
    return r;
}

// cos from its reduction: the sign from bit 1 of the odd k.
float finish_cos(F2 s, std::int32_t q) {
    const float r = sin_poly(s);
    return (q & 2) == 0 ? -r : r;
}

}  // namespace

// sin(d) as SLEEF's xsinf_u1 (FMA build) computes it in a vector that took
// the Cody-Waite path (wide = false; every lane |d| < 125) or the
// Payne-Hanek path (wide = true).
//   Cody-Waite:  k = rint(d/pi),  s = d - k*pi   (pi in three parts, the
//                first product fused, the rest summed as double-floats)
//   Payne-Hanek: d = j*pi/2 + r (rempi); k = the nearest multiple of pi to
//                d, s = r or r -+ pi/2 as a double-float
//   sin d = (-1)^k * sin_poly(s); sin(-0) = -0
POSENC_MINSIZE float sleef_sinf(float d, bool wide) {
    std::int32_t q;
    if (!wide) {
        const F2 s = reduce_sin_cw(d, q);
        return finish_sin(d, s, q);
    }
    if (!std::isfinite(d)) return kNaN;
    const F2 s = reduce_sin_wide(rempi(d), q);
    return finish_sin(d, s, q);
}

// cos(d) as SLEEF's xcosf_u1 (FMA build), same two paths:
//   Cody-Waite:  k = 2*rint(d/pi - 1/2) + 1 (odd), s = d - k*pi/2
//   cos d = +-sin_poly(s), the sign from bit 1 of k
POSENC_MINSIZE float sleef_cosf(float d, bool wide) {
    std::int32_t q;
    if (!wide) {
        const F2 s = reduce_cos_cw(d, q);
        return finish_cos(s, q);
    }
    if (!std::isfinite(d)) return kNaN;
    const F2 s = reduce_cos_wide(rempi(d), q);
    return finish_cos(s, q);
}

// Both at once: the wide path's Payne-Hanek reduction is shared.
void sleef_sincosf(float d, bool wide, float* s, float* c) {
    // (q is set by each reduction before its finish reads it: separate statements)
    std::int32_t q;
    if (!wide) {
        if (s) {
            const F2 r = reduce_sin_cw(d, q);
            *s = finish_sin(d, r, q);
        }
        if (c) {
            const F2 r = reduce_cos_cw(d, q);
            *c = finish_cos(r, q);
        }
        return;
    }
    if (!std::isfinite(d)) {
        if (s) *s = kNaN;
        if (c) *c = kNaN;
        return;
    }
    const DFI dfi = rempi(d);
    if (s) {
        const F2 r = reduce_sin_wide(dfi, q);
        *s = finish_sin(d, r, q);
    }
    if (c) {
        const F2 r = reduce_cos_wide(dfi, q);
        *c = finish_cos(r, q);
    }
}

// SLEEF expf_u10:
//   q = rint(x / ln 2);  s = x - q*ln2 (ln 2 in two parts, each step fused)
//   u = polynomial(s) (degree 6, Horner, fused);  result = u * 2^q
POSENC_MINSIZE float sleef_expf(float x) {
    if (x < -104.0f) return 0.0f;
    if (x > 100.0f) return INFINITY;
    const float R_LN2f = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    const float L2Uf = 0.693145751953125f;
    const float L2Lf = 1.428606765330187045e-06f;
    const float q = std::rint(x * R_LN2f);
    float s = fma_exact(q, -L2Uf, x);
    s = fma_exact(q, -L2Lf, s);
    float u = 0.000198527617612853646278381f;
    u = fma_exact(u, s, 0.00139304355252534151077271f);
    u = fma_exact(u, s, 0.00833336077630519866943359f);
    u = fma_exact(u, s, 0.0416664853692054748535156f);
    u = fma_exact(u, s, 0.166666671633720397949219f);
    u = fma_exact(u, s, 0.5f);
    u = 1.0f + fma_exact(s * s, u, s);
    return std::ldexp(u, static_cast<int>(q));
}

// pow(x, y) = exp(y * log|x|), then SLEEF's special cases in its order.
POSENC_MINSIZE float sleef_powf(float x, float y) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float ay = std::fabs(y);
    const bool y_is_int = std::trunc(y) == y || ay > 16777216.0f;
    const bool y_is_odd = ay < 16777216.0f && y_is_int && (static_cast<std::int32_t>(y) & 1) == 1;

    // pass 1: the finite, positive case
    float r = exp_f2(mul(log_f2(std::fabs(x)), y));
    if (std::isnan(r)) r = inf;

    // pass 2: negative x: sign from an odd integer y, NaN for non-integers
    r = r * (x > 0 ? 1.0f : (y_is_int ? (y_is_odd ? -1.0f : 1.0f) : nan));

    // pass 3: infinite y: 0, 1 or inf depending on |x| against 1
    if (std::isinf(y)) {
        const float efx = std::copysign(1.0f, y) * (std::fabs(x) - 1.0f);  // sign flip only
        r = efx < 0 ? 0.0f : (efx == 0 ? 1.0f : inf);
    }

    // pass 4: x = 0 or +-inf
    if (std::isinf(x) || x == 0) {
        const float sign = y_is_odd ? std::copysign(1.0f, x) : 1.0f;
        r = sign * (((x == 0) ? -y : y) < 0 ? 0.0f : inf);
    }

    // pass 5: NaN in, NaN out (SLEEF sets all bits), except the two
    // identities pow(x, 0) = pow(1, y) = 1
    if (std::isnan(x) || std::isnan(y)) r = float_of(0xffffffffu);
    if (y == 0 || x == 1) r = 1.0f;
    return r;
}

// e, out: (n); out may alias e.
POSENC_MINSIZE void torch_pow_scalar_tensor(float* out, float base, const float* e, std::size_t n) {
    // pass 1: the 16-wide vector body (two AVX2 Vectorized<float> per step)
    const std::size_t body = n - n % 16;
    for (std::size_t i = 0; i < body; ++i) out[i] = sleef_powf(base, e[i]);
    // pass 2: the scalar tail, through the C library's powf
    for (std::size_t i = body; i < n; ++i) out[i] = std::pow(base, e[i]);
}

}  // namespace posenc

namespace posenc {

namespace {

// Lanes [i, i + 8) as one AVX2 vector: SLEEF reduces every lane the wide way
// as soon as one lane is not below 125 in magnitude (NaN and inf included).
// Past the end ATen's partial load fills the vector with zeros, which never
// trigger it.
bool group_is_wide(const float* x, std::size_t i, std::size_t n) {
    const std::size_t end = std::min(i + kTorchTrigLanes, n);
    for (std::size_t j = i; j < end; ++j)
        if (!(std::fabs(x[j]) < kTrigRangeMax2)) return true;
    return false;
}

}  // namespace

// x, s, c: (n); s or c may be null; either may alias x.
// The scalar twin: one lane at a time.
POSENC_MINSIZE void torch_sincos_scalar(const float* x, float* s, float* c, std::size_t n) {
    for (std::size_t i = 0; i < n; i += kTorchTrigLanes) {
        // pass 1: the vector's path, decided before any lane is written
        const bool wide = group_is_wide(x, i, n);
        // pass 2: each lane
        const std::size_t end = std::min(i + kTorchTrigLanes, n);
        for (std::size_t j = i; j < end; ++j) {
            sleef_sincosf(x[j], wide, s ? s + j : nullptr, c ? c + j : nullptr);
        }
    }
}

#if POSENC_SIMD
// --- torch_sincos, four lanes at a time -------------------------------------
//
// Why: one lane at a time the exact path took 505 ms for the 8192 x 512
// table in wasm (21 emulated FMAs per angle, each a double product, a
// double sum and a check), 6x plain JS Math.sin. Positional angles are
// mostly small: every 8-lane group whose angles are all below 125 takes
// SLEEF's Cody-Waite reduction, a straight line of float operations that
// vectorises as it stands. So:
//
//   vectorised  the Cody-Waite groups: reduction, the double-float
//               polynomial, the signs, in float lanes (xsimd, 4 lanes of
//               wasm SIMD or SSE), the scalar twin's operations in its order;
//   each FMA    emulated in f64x2: a*b is exact in double, the double sum
//               rounds once, and its rounding to float is the fused result
//               unless the sum was inexact and landed exactly on a float
//               midpoint (low 29 bits 1000...0). Such lanes are FLAGGED.
//               Exact midpoints are common (a double-float's lo part has few
//               bits): when some lane is a midpoint, TwoSum in double tells
//               exact from inexact. The two FMAs fma(a, b, -RN(a*b)) (a
//               product's exact error) are exact in double: no check;
//   scalar      every lane of a wide group (any |x| >= 125, inf, NaN: the
//               Payne-Hanek path), lanes with 0 < |x| < 2^-20 (kTinyAngle:
//               sums below 2^-126 round on float's coarser subnormal grid),
//               and flagged lanes, each recomputed whole by sleef_sincosf.
//               Flagged lanes: 0 on the 8192 x 512 sinusoidal and the
//               (4096, 128) RoPE benchmark tables.
//
// What bounds the speed: the wide groups stay scalar. In the 8192 x 512
// table 36% of the angles are in wide groups (32% for RoPE (4096, 128)),
// ~80 ns each against ~30 ns for a vector lane, so they take most of the time.
//
// The group decision is the scalar twin's: per 8 lanes from the start of the
// array, the last group padded with zeros. Nothing here is approximated:
// the tests hold this against torch_sincos_scalar bit for bit.
namespace {

using batch_d = xsimd::batch<double>;

// A double-float, four lanes.
struct F2v {
    batch_f hi, lo;
};

// f64x2 halves of four float lanes, and back (each lane rounded once).
inline batch_d lo_half(const batch_f& a) {
    return batch_d(_mm_cvtps_pd(a));
}
inline batch_d hi_half(const batch_f& a) {
    const __m128 v = a;
    return batch_d(_mm_cvtps_pd(_mm_movehl_ps(v, v)));
}
inline batch_f join_halves(const batch_d& lo, const batch_d& hi) {
    return batch_f(_mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)));
}

// Lanes whose emulated FMA may differ from the fused one, as 64-bit masks
// (one per double of the lo and hi halves).
struct Flags {
    __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128();
};

// Of the midpoint lanes mid, those whose sum s = p + c was inexact (its
// error, recovered by TwoSum in double, nonzero). Out of line: taken only
// when some lane is a midpoint.
__attribute__((noinline)) __m128i inexact_midpoints(__m128i mid, __m128d p, __m128d c, __m128d s) {
    const __m128d v = _mm_sub_pd(s, p);
    const __m128d err = _mm_add_pd(_mm_sub_pd(p, _mm_sub_pd(s, v)), _mm_sub_pd(c, v));
    return _mm_and_si128(mid, _mm_castpd_si128(_mm_cmpneq_pd(err, _mm_setzero_pd())));
}

// All ones where the double sum s = RN(p + c) may round to float otherwise
// than the exact p + c: s is a float midpoint (low 29 bits 1000...0, read
// from the low 32-bit word; the high word's compare can never hold) and the
// sum was inexact. A midpoint reached exactly is common (a double-float's lo
// part has few bits, and sums of short operands are short) and harmless.
// (Sums below 2^-126, where the float grid is coarser, do not arise for
// |d| >= 2^-20: see kTinyAngle.)
inline __m128i unsafe_sum(const batch_d& p, const batch_d& c, const batch_d& s) {
    const __m128i mid = _mm_cmpeq_epi32(_mm_and_si128(_mm_castpd_si128(s), _mm_set_epi32(0, 0x1FFFFFFF, 0, 0x1FFFFFFF)),
                                        _mm_set_epi32(1, 0x10000000, 1, 0x10000000));
    if (_mm_movemask_epi8(mid) == 0) return mid;
    return inexact_midpoints(mid, p, c, s);
}

// fmaf(a, b, c) lane by lane, rounding once except on flagged lanes.
inline batch_f fma_v(const batch_f& a, const batch_f& b, const batch_f& c, Flags& f) {
    const batch_d plo = lo_half(a) * lo_half(b), phi = hi_half(a) * hi_half(b);
    const batch_d clo = lo_half(c), chi = hi_half(c);
    const batch_d slo = plo + clo, shi = phi + chi;
    f.lo = _mm_or_si128(f.lo, unsafe_sum(plo, clo, slo));
    f.hi = _mm_or_si128(f.hi, unsafe_sum(phi, chi, shi));
    return join_halves(slo, shi);
}

// fmaf(a, b, -h) for h = RN(a*b): the product's exact error, always exact here.
inline batch_f fma_err_v(const batch_f& a, const batch_f& b, const batch_f& h) {
    const batch_d slo = lo_half(a) * lo_half(b) - lo_half(h);
    const batch_d shi = hi_half(a) * hi_half(b) - hi_half(h);
    return join_halves(slo, shi);
}

// Bit k set: lane k flagged.
inline int flagged_lanes(const Flags& f) {
    const int lo = _mm_movemask_ps(_mm_castsi128_ps(f.lo));  // 2 bits per lane
    const int hi = _mm_movemask_ps(_mm_castsi128_ps(f.hi));
    return ((lo & 3) != 0) | (((lo & 12) != 0) << 1) | (((hi & 3) != 0) << 2) | (((hi & 12) != 0) << 3);
}

// Low bits of the integral u (|u| < 2^22) as int lanes: u + 1.5 * 2^23 holds
// them in its mantissa (see vecmath.cpp), no float->int instruction needed.
inline batch_i low_bits(const batch_f& u) {
    return xsimd::bitwise_cast<batch_i>(u + batch_f(12582912.0f));
}

// sin_poly (above), four lanes.
inline batch_f sin_poly_v(const F2v& t, Flags& f) {
    // s = square(t)
    const batch_f sh = t.hi * t.hi;
    const F2v s = {sh, fma_v(t.hi + t.hi, t.lo, fma_err_v(t.hi, t.hi, sh), f)};
    batch_f u(2.6083159809786593541503e-06f);
    u = fma_v(u, s.hi, batch_f(-0.0001981069071916863322258f), f);
    u = fma_v(u, s.hi, batch_f(0.00833307858556509017944336f), f);
    // a = add_fast(-1/6', u * s.hi)
    const batch_f k(-0.166666597127914428710938f);
    const batch_f us = u * s.hi;
    const batch_f ah = k + us;
    const F2v a = {ah, (k - ah) + us};
    // m = mul(a, s)
    const batch_f mh = a.hi * s.hi;
    const F2v m = {mh, fma_v(a.hi, s.lo, fma_v(a.lo, s.hi, fma_err_v(a.hi, s.hi, mh), f), f)};
    // x = add_fast(1, m)
    const batch_f one(1.0f);
    const batch_f xh = one + m.hi;
    const F2v x = {xh, ((one - xh) + m.hi) + m.lo};
    // mul_to_float(t, x)
    return fma_v(t.hi, x.hi, fma_v(t.lo, x.hi, t.hi * x.lo, f), f);
}

// float + float and F2 + float, Knuth's TwoSum, as add2 (above).
inline F2v add2_v(const batch_f& x, const batch_f& y) {
    const batch_f h = x + y;
    const batch_f v = h - x;
    return {h, (x - (h - v)) + (y - v)};
}

// F2 + float, Knuth's TwoSum on hi, as add2 (above).
inline F2v add2_v(const F2v& x, const batch_f& y) {
    const batch_f h = x.hi + y;
    const batch_f v = h - x.hi;
    batch_f l = (x.hi - (h - v)) + (y - v);
    l = l + x.lo;
    return {h, l};
}

// The Cody-Waite sin and cos of four lanes, all |d| < 125 (or zero padding),
// as sleef_sincosf(d, false): reduce_sin_cw / reduce_cos_cw, sin_poly,
// finish_sin / finish_cos, operation for operation.
inline void sincos_cw_v(const batch_f& d, batch_f& sn, batch_f& cs, Flags& f) {
    // pass 1: sin's reduction, k = rint(d/pi), s = d - k*pi
    const batch_f u = xsimd::nearbyint(d * batch_f(kOneOverPi));
    const batch_i qs = low_bits(u);
    const batch_f v = fma_v(u, batch_f(-kPiA2), d, f);
    const batch_f yb = u * batch_f(-kPiB2);
    const batch_f h = v + yb;
    const batch_f w = h - v;
    const F2v s0 = {h, (v - (h - w)) + (yb - w)};
    const batch_f yc = u * batch_f(-kPiC2);
    const batch_f h2 = s0.hi + yc;
    const F2v rs = {h2, ((s0.hi - h2) + yc) + s0.lo};

    // pass 2: cos's reduction, k = 2*rint(d/pi - 1/2) + 1, s = d - k*pi/2
    // (the outer fma(n, 2, 1) is exact for these n: plain float operations)
    const batch_f dq =
        xsimd::nearbyint(fma_v(d, batch_f(kOneOverPi), batch_f(-0.5f), f)) * batch_f(2.0f) + batch_f(1.0f);
    const batch_i qc = low_bits(dq);
    F2v rc = add2_v(d, dq * batch_f(-kPiA2 * 0.5f));
    rc = add2_v(rc, dq * batch_f(-kPiB2 * 0.5f));
    rc = add2_v(rc, dq * batch_f(-kPiC2 * 0.5f));

    // pass 3: the polynomials, then the signs: sin negated for odd k (and
    // sin(-0) = -0), cos negated when bit 1 of its odd k is clear
    const batch_f ps = sin_poly_v(rs, f);
    const batch_f pc = sin_poly_v(rc, f);
    const batch_f sin_sign = xsimd::bitwise_cast<batch_f>((qs & batch_i(1)) << 31);
    const batch_f cos_sign = xsimd::bitwise_cast<batch_f>(((qc & batch_i(2)) ^ batch_i(2)) << 30);
    const __m128i neg_zero =
        _mm_cmpeq_epi32(_mm_castps_si128(d), _mm_set1_epi32(static_cast<std::int32_t>(0x80000000u)));
    sn = xsimd::select(xsimd::batch_bool<float>(_mm_castsi128_ps(neg_zero)), d, ps ^ sin_sign);
    cs = pc ^ cos_sign;
}

// One 8-lane torch group of a narrow vector (every |x| < 125): two batches,
// then the scalar twin for any flagged lane. xl: the group's 8 values (a
// copy, so s or c may alias x); s, c: where lanes [0, count) go, or null.
// Below this (and not zero) a lane goes to the scalar twin: there some
// double sums fall below 2^-126, where float's grid is coarser and a sum's
// rounding is not checked. Checked over every float below 125, both signs:
// no sum of this kernel is nonzero and below 2^-126 for |d| >= 9.4e-10.
constexpr float kTinyAngle = 0x1p-20f;

// Lanes l < count with bit l of mask set, one at a time through
// sleef_sincosf; s, c: where lane l goes, or null. Out of line, so the scalar
// code exists once beside the vector loop, not inlined at every call.
__attribute__((noinline)) POSENC_MINSIZE void sincos_lanes(const float* xl, bool wide, int mask, float* s, float* c,
                                                           std::size_t count) {
    for (std::size_t l = 0; l < count; ++l)
        if (mask & (1 << l)) sleef_sincosf(xl[l], wide, s ? s + l : nullptr, c ? c + l : nullptr);
}

static_assert(kTorchTrigLanes == 2 * kLanes, "a torch group is two batches");

void sincos_group_cw(const float* xl, float* s, float* c, std::size_t count) {
    alignas(16) float st[kTorchTrigLanes], ct[kTorchTrigLanes];
    int flagged = 0;
    for (std::size_t h = 0; h < kTorchTrigLanes; h += kLanes) {
        Flags f;
        batch_f sn, cs;
        const batch_f d = xsimd::load_aligned(xl + h);
        sincos_cw_v(d, sn, cs, f);
        sn.store_aligned(st + h);
        cs.store_aligned(ct + h);
        const batch_f ad = xsimd::abs(d);
        const int tiny = _mm_movemask_ps((ad < batch_f(kTinyAngle)) & (ad > batch_f(0.0f)));
        flagged |= (flagged_lanes(f) | tiny) << h;
    }
    // pass 2: flagged lanes through the scalar twin (rare: see the design note)
    if (flagged) sincos_lanes(xl, false, flagged, st, ct, count);
    if (s) std::memcpy(s, st, count * sizeof(float));
    if (c) std::memcpy(c, ct, count * sizeof(float));
}

}  // namespace

// x, s, c: (n); s or c may be null; either may alias x.
void torch_sincos_simd(const float* x, float* s, float* c, std::size_t n) {
    for (std::size_t i = 0; i < n; i += kTorchTrigLanes) {
        // pass 1: the group, zero-padded past the end (as ATen's partial load)
        const std::size_t count = std::min(kTorchTrigLanes, n - i);
        alignas(16) float xl[kTorchTrigLanes] = {};
        std::memcpy(xl, x + i, count * sizeof(float));
        // pass 2: its path, as group_is_wide decides it (NaN compares false: wide)
        const batch_f lim(kTrigRangeMax2);
        const bool narrow = xsimd::all((xsimd::abs(xsimd::load_aligned(xl)) < lim) &
                                       (xsimd::abs(xsimd::load_aligned(xl + kLanes)) < lim));
        float* sg = s ? s + i : nullptr;
        float* cg = c ? c + i : nullptr;
        if (narrow) {
            sincos_group_cw(xl, sg, cg, count);
        } else {
            sincos_lanes(xl, true, 0xFF, sg, cg, count);
        }
    }
}
#endif

// x, s, c: (n); the build's choice.
void torch_sincos(const float* x, float* s, float* c, std::size_t n) {
#if POSENC_SIMD
    torch_sincos_simd(x, s, c, n);
#else
    torch_sincos_scalar(x, s, c, n);
#endif
}

void torch_sin(float* out, const float* x, std::size_t n) {
    torch_sincos(x, out, nullptr, n);
}
void torch_cos(float* out, const float* x, std::size_t n) {
    torch_sincos(x, nullptr, out, n);
}

}  // namespace posenc
