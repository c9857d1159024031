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

namespace scalar {

// x, s, c: (n); s or c may be null; either may alias x.
// The scalar twin: one lane at a time.
POSENC_MINSIZE void torch_sincos(const float* x, float* s, float* c, std::size_t n) {
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

// x: (n); out: (2n), sin and cos of x[i] at 2i and 2i + 1; no overlap.
POSENC_MINSIZE void torch_sincos_interleaved(const float* x, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; i += kTorchTrigLanes) {
        const bool wide = group_is_wide(x, i, n);
        const std::size_t end = std::min(i + kTorchTrigLanes, n);
        for (std::size_t j = i; j < end; ++j) sleef_sincosf(x[j], wide, out + 2 * j, out + 2 * j + 1);
    }
}

}  // namespace scalar

#if POSENC_SIMD
// --- torch_sincos, four lanes at a time -------------------------------------
//
// Why: the scalar twin spends ~21 emulated FMAs per angle (each a double
// product, a double sum and a check), and one lane at a time it made the
// exact 8192 x 512 table 8x slower than plain JS Math.sin. Most of those
// FMAs only shape bits far below the result's last place. So this path
// reproduces exactly what decides the result and computes the rest in
// double, with a certificate that the rounding comes out as SLEEF's:
//
//   reduce   t.hi (SLEEF's hi part of the reduced argument) by SLEEF's own
//            float operations, or as RN(T) with a certificate; T = t.hi +
//            t.lo in double, where every term is exact (see sincos_cw_v,
//            sincos_wide_v);
//   u, us    the two FMAs and the product of the polynomial whose float
//            roundings move the result, exactly (sin_poly_half);
//   E        the last FMA's exact value, in double: RN(E) is SLEEF's result
//            unless E lies within 2^-12 ULP of a float midpoint;
//   scalar   any lane that fails a check (FLAGGED: about 1 in 1000), or that
//            is outside the checked domain (|x| >= 65536, inf, NaN, a
//            reduced argument below 2^-16, j's rounding in doubt), is
//            recomputed whole by sleef_sincosf with its group's path.
//
// Both of SLEEF's reductions are vectorised: the Cody-Waite groups (every
// |x| < 125) and the Payne-Hanek ones (any lane >= 125), the latter from a
// double Cody-Waite reduction by pi/2 instead of rempi's table.
//
// Held against scalar::torch_sincos bit for bit: in the Catch2 tests (the
// course's 3.1M angles, 2.6M random and adversarial floats, natively, under
// ASan/UBSan and as wasm), and once over every float below 65536 of either
// sign, through both paths (docs/perf-journal.md).
//
// The group decision is the scalar twin's: per 8 lanes from the start of the
// array, the last group padded with zeros.
namespace {

using batch_d = xsimd::batch<double>;

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

// Lanes flagged for the scalar twin: all ones in lane l where lane l's
// results must come from the scalar code. Every check ORs into one mask, read
// once per four lanes.
using Flags = xsimd::batch_bool<float>;

// Low bits of the integral u (|u| < 2^22) as int lanes: u + 1.5 * 2^23 holds
// them in its mantissa (see vecmath.cpp), no float->int instruction needed.
inline batch_i low_bits(const batch_f& u) {
    return xsimd::bitwise_cast<batch_i>(u + batch_f(12582912.0f));
}

// --- the polynomial, rounded once with a certificate ------------------------
//
// sin_poly(t) is SLEEF's result RN(E), E the exact value of its last fused
// multiply-add. To within 2^-44 |E|:
//
//   E = T * (1 + (k + us) * T^2),    T = t.hi + t.lo,   k = -0.166666597...
//   us = RN(u * s.hi),  u = fma(fma(c0, s.hi, c1), s.hi, c2),  s.hi = RN(t.hi^2)
//
// What the double-float steps drop or round (a.lo * s.lo, t.lo^2, the
// roundings of the lo parts) is below 2^-47 of the term it belongs to. Only
// u and us carry float roundings large enough to move E's last bits (a ULP
// of us moves E by up to 1/16 ULP, one of u by up to 1/7), so they are
// computed as SLEEF computes them. E itself is evaluated in double (error
// ~2^-50 |E|), and RN(E) is then SLEEF's result unless E lies within 2^-12
// ULP of a float midpoint, 256 times the two errors together: those lanes
// are FLAGGED (odds of about 2^-11 per result).

// The certificate's margin, in units of 2^-29 float ULP (a double's 29 bits
// below float precision): 2^17 units = 2^-12 ULP.
constexpr std::int32_t kCertifyUnits = 1 << 17;

// The four lanes (e0: lanes 0-1, e1: lanes 2-3) where the double e, whose
// float rounding is about to be taken, lies within kCertifyUnits of a float
// midpoint: its low 29 bits minus 2^28 - kCertifyUnits fall in
// [0, 2 kCertifyUnits), i.e. have no bit above. Only the low 32-bit words
// count, so both halves are checked at once. e = 0 is never flagged; e is
// otherwise in float's normal range here (|e| > 2^-40).
inline Flags near_midpoint(const batch_d& e0, const batch_d& e1) {
    static_assert((kCertifyUnits & (kCertifyUnits - 1)) == 0, "a power of two");
    const __m128i words =
        _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(e0), _mm_castpd_ps(e1), _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128i low = _mm_and_si128(words, _mm_set1_epi32(0x1FFFFFFF));
    const __m128i off = _mm_sub_epi32(low, _mm_set1_epi32(0x10000000 - kCertifyUnits));
    const __m128i near =
        _mm_cmpeq_epi32(_mm_and_si128(off, _mm_set1_epi32(~(2 * kCertifyUnits - 1))), _mm_setzero_si128());
    return Flags(_mm_castsi128_ps(near));
}

// sin(-0) = -0 (finish_sin): sn where d is not -0.
inline batch_f keep_neg_zero(const batch_f& d, const batch_f& sn) {
    const __m128i neg_zero =
        _mm_cmpeq_epi32(_mm_castps_si128(d), _mm_set1_epi32(static_cast<std::int32_t>(0x80000000u)));
    return xsimd::select(xsimd::batch_bool<float>(_mm_castsi128_ps(neg_zero)), d, sn);
}

// x rounded to float and back: RN(x) as a double.
inline batch_d round_to_float(const batch_d& x) {
    return batch_d(_mm_cvtps_pd(_mm_cvtpd_ps(x)));
}

// u's two FMAs, each rounded once onto the float grid. Their results have a
// fixed binade wherever the polynomial is taken: |t| < 1.6 suffices, and
// both reductions give |t| <= pi/2 + 1e-5 (Cody-Waite's sin can pass pi/2
// by a few 1e-6 when RN(d * 1/pi) rounds across a half-integer), so
// s.hi <= 2.56 and
//
//   u1 = fma(c0, s.hi, c1)  in [-1.9811e-4, -1.91e-4]  within [2^-13, 2^-12): float ULP 2^-36
//   u2 = fma(u1, s.hi, c2)  in [7.84e-3, 8.3331e-3]    within [2^-7, 2^-6):   float ULP 2^-30
//
// The product of two floats is exact in double; adding it to c + M, where M
// = 1.5 * 2^k puts the double's ULP at that same 2^-36 (k = 16) or 2^-30
// (k = 22), rounds the exact sum once, to nearest even, onto the float grid
// (c + M is exact: c is a float of that binade). Subtracting M is exact. So
// (p + (c + M)) - M is fmaf(a, b, c), no midpoint case left over.
constexpr double kU1Shift = 0x1.8p16;  // ULP 2^-36 at 1.5 * 2^16
constexpr double kU2Shift = 0x1.8p22;  // ULP 2^-30 at 1.5 * 2^22

// Two lanes of sin_poly, in double: sh = s.hi (exact), T = t.hi + t.lo.
// u's two FMAs as above; us = RN(u * sh) exactly (a double product of
// floats is exact). Returns E (the caller certifies its rounding).
__attribute__((always_inline)) inline batch_d sin_poly_half(const batch_d& sh, const batch_d& T) {
    const batch_d u1 = (batch_d(static_cast<double>(2.6083159809786593541503e-06f)) * sh +
                        batch_d(static_cast<double>(-0.0001981069071916863322258f) + kU1Shift)) -
                       batch_d(kU1Shift);
    const batch_d u2 =
        (u1 * sh + batch_d(static_cast<double>(0.00833307858556509017944336f) + kU2Shift)) - batch_d(kU2Shift);
    const batch_d us = round_to_float(u2 * sh);
    const batch_d k(static_cast<double>(-0.166666597127914428710938f));
    return T * (batch_d(1.0) + (k + us) * (T * T));
}

// sin_poly of four lanes: th = t.hi exactly as SLEEF has it, T0, T1 = t.hi +
// t.lo in double (lanes 0-1, 2-3). Unsigned: the caller applies the sign.
// Flagged: lanes whose E is near a float midpoint, and lanes with
// 0 < |T| < 2^-16, where SLEEF's lo parts may have rounded by more than the
// certificate allows.
__attribute__((always_inline)) inline batch_f sin_poly_v(const batch_f& th, const batch_d& T0, const batch_d& T1,
                                                         Flags& f) {
    const batch_f ath = xsimd::abs(th);
    const batch_f sh = th * th;
    const batch_d e0 = sin_poly_half(lo_half(sh), T0);
    const batch_d e1 = sin_poly_half(hi_half(sh), T1);
    f = f | ((ath < batch_f(0x1p-16f)) & (ath > batch_f(0.0f))) | near_midpoint(e0, e1);
    return join_halves(e0, e1);
}

// The Cody-Waite sin and cos of four lanes, all |d| < 125 (or zero padding),
// as sleef_sincosf(d, false). t.hi comes from reduce_sin_cw's and
// reduce_cos_cw's float operations as they stand (the sums of their hi
// parts), T = t.hi + t.lo as the exact sum of their terms in double:
//
//   sin:  u = rint(RN(d * 1/pi)),  T = (d - u*A) + u*(-B) + RN(u*(-C))
//   cos:  n = rint(RN(d * 1/pi - 1/2)),  q = 2n + 1,
//         T = d + q*(-A/2) + q*(-B/2) + RN(q*(-C/2))
//
// where A, B, C are pi's three float parts. Every product but the C ones is
// exact (A has 15 bits, B 12, |u| <= 40, |q| <= 81) and so is each double sum
// (the terms span fewer than 53 bits). SLEEF's lo parts round a few times,
// by less than 2^-47 |T| unless T is tiny: sin_poly_half flags |T| < 2^-16.
// n: SLEEF rounds the FMA's float result g = RN(d/pi - 1/2) to an integer.
// Here g is a float product and a float difference, within 2^-18 of the
// exact value (|g| < 40), so it rounds to the same n unless it lies within
// 2^-16 of a half-integer: those lanes are flagged (among them the
// zero padding, exactly on -1/2).
__attribute__((always_inline)) inline void sincos_cw_v(const batch_f& d, batch_f& sn, batch_f& cs, Flags& f) {
    // pass 1: sin's k and t.hi in float lanes
    const batch_f u = xsimd::nearbyint(d * batch_f(kOneOverPi));
    const batch_i qs = low_bits(u);
    const batch_f v = d - u * batch_f(kPiA2);
    const batch_f yb = u * batch_f(-kPiB2);
    const batch_f yc = u * batch_f(-kPiC2);
    const batch_f ths = (v + yb) + yc;

    // pass 2: cos's n, q and t.hi in float lanes
    const batch_f g = d * batch_f(kOneOverPi) - batch_f(0.5f);
    const batch_f nf = xsimd::nearbyint(g);
    f = f | (xsimd::abs(g - nf) > batch_f(0.5f - 0x1p-16f));
    const batch_f q = nf * batch_f(2.0f) + batch_f(1.0f);
    const batch_i qc = low_bits(q);
    const batch_f pa = q * batch_f(-kPiA2 * 0.5f), pb = q * batch_f(-kPiB2 * 0.5f), pc = q * batch_f(-kPiC2 * 0.5f);
    const batch_f thc = ((d + pa) + pb) + pc;

    // pass 3: T of each in double, the polynomials, then the signs: sin
    // negated for odd k (and sin(-0) = -0), cos negated when bit 1 of its
    // odd k is clear
    const batch_d d0 = lo_half(d), d1 = hi_half(d);
    const batch_d ts0 = (lo_half(v) + lo_half(yb)) + lo_half(yc), ts1 = (hi_half(v) + hi_half(yb)) + hi_half(yc);
    const batch_d tc0 = ((d0 + lo_half(pa)) + lo_half(pb)) + lo_half(pc);
    const batch_d tc1 = ((d1 + hi_half(pa)) + hi_half(pb)) + hi_half(pc);
    const batch_f ps = sin_poly_v(ths, ts0, ts1, f);
    const batch_f pcs = sin_poly_v(thc, tc0, tc1, f);
    const batch_f sin_sign = xsimd::bitwise_cast<batch_f>((qs & batch_i(1)) << 31);
    const batch_f cos_sign = xsimd::bitwise_cast<batch_f>(((qc & batch_i(2)) ^ batch_i(2)) << 30);
    sn = keep_neg_zero(d, ps ^ sin_sign);
    cs = pcs ^ cos_sign;
}

// --- the Payne-Hanek groups --------------------------------------------------
//
// SLEEF's rempi gives d = j*pi/2 + r (|r| <= pi/4) as a double-float accurate
// to far more than float's 24 bits, and both reductions end with normalize,
// so t.hi = RN(T): SLEEF's T is, to that accuracy, the true d - K*pi/2. Here
// r comes from a Cody-Waite reduction in double instead (fdlibm's split of
// pi/2: j*P1 and j*P2 exact for |j| < 2^20, so r is within 2^-52 |r|), T from
// r as finish_sin and finish_cos take it (r -+ pi/2 by the parity of j), and
// t.hi = RN(T) with the certificate of near_midpoint. The quadrant signs are
// reduce_sin_wide's and reduce_cos_wide's integer steps on j's low bits.
// Flagged (scalar twin): |d| >= kWideMax, inf and NaN; a reduced argument
// below 2^-16 (sin_poly_v); |r| within 2^-20 of pi/4, where rempi may round
// j the other way.
constexpr float kWideMax = 65536.0f;
constexpr double kTwoOverPi = 0.636619772367581343076;
constexpr double kPio2P1 = 1.57079632673412561417e+00;  // first 33 bits of pi/2
constexpr double kPio2P2 = 6.07710050630396597660e-11;  // next 33 bits
constexpr double kPio2P3 = 2.02226624879595063154e-21;  // pi/2 - P1 - P2, rounded
constexpr double kPio2 = 1.57079632679489655800e+00;    // pi/2 rounded to double
constexpr double kPio2Lo = 6.12323399573676603587e-17;  // pi/2 - kPio2
constexpr float kQuarterEdge = 0.7853974f;              // pi/4 (1 - 2^-20)

// Low 32 bits of the integral doubles j0, j1 (|j| < 2^31) as int lanes 0-1, 2-3.
inline batch_i low_words(const batch_d& j0, const batch_d& j1) {
    const batch_d m(6755399441055744.0);  // 1.5 * 2^52: j + m holds j in its low word
    const __m128 a = _mm_castpd_ps(j0 + m), b = _mm_castpd_ps(j1 + m);
    return batch_i(_mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))));
}

// sin's and cos's reduced arguments from d = j*pi/2 + r: r -+ pi/2 (minus
// where r > 0) for sin where j is odd, for cos where j is even; else r.
inline void quarter_args(const batch_d& r, const batch_d& odd, batch_d& ts, batch_d& tc) {
    const xsimd::batch_bool<double> positive = r > batch_d(0.0);
    const batch_d shifted = (r - xsimd::select(positive, batch_d(kPio2), batch_d(-kPio2))) -
                            xsimd::select(positive, batch_d(kPio2Lo), batch_d(-kPio2Lo));
    const xsimd::batch_bool<double> o(odd);
    ts = xsimd::select(o, shifted, r);
    tc = xsimd::select(o, r, shifted);
}

// The lanes of ji (int) with bit `bit` set, as 64-bit masks of the two halves.
inline void bit_halves(const batch_i& ji, std::int32_t bit, batch_d& lo, batch_d& hi) {
    const __m128i m = _mm_cmpeq_epi32(_mm_and_si128(ji, _mm_set1_epi32(bit)), _mm_set1_epi32(bit));
    lo = batch_d(_mm_castsi128_pd(_mm_unpacklo_epi32(m, m)));
    hi = batch_d(_mm_castsi128_pd(_mm_unpackhi_epi32(m, m)));
}

// The Payne-Hanek sin and cos of four lanes, as sleef_sincosf(d, true) on
// the lanes that are not flagged (see above), among them the lanes whose r
// is within 2^-20 of pi/4. The caller flags the domain.
__attribute__((always_inline)) inline void sincos_wide_v(const batch_f& d, batch_f& sn, batch_f& cs, Flags& f) {
    // pass 1: d = j*pi/2 + r in double, each half
    const batch_d x0 = lo_half(d), x1 = hi_half(d);
    const batch_d j0 = xsimd::nearbyint(x0 * batch_d(kTwoOverPi)), j1 = xsimd::nearbyint(x1 * batch_d(kTwoOverPi));
    const batch_d r0 = ((x0 - j0 * batch_d(kPio2P1)) - j0 * batch_d(kPio2P2)) - j0 * batch_d(kPio2P3);
    const batch_d r1 = ((x1 - j1 * batch_d(kPio2P1)) - j1 * batch_d(kPio2P2)) - j1 * batch_d(kPio2P3);
    const batch_i ji = low_words(j0, j1);
    const batch_f rf = join_halves(r0, r1);
    const batch_i pos = batch_i(_mm_castps_si128(rf > batch_f(0.0f))) & batch_i(1);  // 1 where r > 0
    f = f | (xsimd::abs(rf) > batch_f(kQuarterEdge));

    // pass 2: the reduced arguments: sin's T = r -+ pi/2 for odd j, cos's for even j
    batch_d odd0, odd1;
    bit_halves(ji, 1, odd0, odd1);
    batch_d ts0, tc0, ts1, tc1;
    quarter_args(r0, odd0, ts0, tc0);
    quarter_args(r1, odd1, ts1, tc1);
    const batch_f ths = join_halves(ts0, ts1), thc = join_halves(tc0, tc1);
    f = f | near_midpoint(ts0, ts1) | near_midpoint(tc0, tc1);

    // pass 3: the polynomials and the signs of reduce_sin_wide / finish_sin
    // (q = (2(j & 3) + (r > 0 ? 2 : 1)) >> 2, negated when odd) and
    // reduce_cos_wide / finish_cos (q = (j & 3) + (r > 0 ? 4 : 3), negated
    // when bit 1 is clear)
    const batch_f ps = sin_poly_v(ths, ts0, ts1, f);
    const batch_f pc = sin_poly_v(thc, tc0, tc1, f);
    const batch_i j3 = ji & batch_i(3);
    const batch_i qs = ((j3 << 1) + pos + batch_i(1)) >> 2;
    const batch_i qc = j3 + pos + batch_i(3);
    sn = keep_neg_zero(d, ps ^ xsimd::bitwise_cast<batch_f>((qs & batch_i(1)) << 31));
    cs = pc ^ xsimd::bitwise_cast<batch_f>(((qc & batch_i(2)) ^ batch_i(2)) << 30);
}

// Lanes l < count with bit l of mask set, one at a time through
// sleef_sincosf; s, c: where lane l goes, or null. Out of line, so the scalar
// code exists once beside the vector loop, not inlined at every call.
__attribute__((noinline)) POSENC_MINSIZE void sincos_lanes(const float* xl, bool wide, int mask, float* s, float* c,
                                                           std::size_t count) {
    for (std::size_t l = 0; l < count; ++l)
        if (mask & (1 << l)) sleef_sincosf(xl[l], wide, s ? s + l : nullptr, c ? c + l : nullptr);
}

static_assert(kTorchTrigLanes == 2 * kLanes, "a torch group is two batches");

// Four lanes of a torch group through the group's path: sin and cos, and
// the lanes (bits 0-3) whose result the scalar twin must give instead.
inline int sincos_batch(const batch_f& d, bool wide, batch_f& sn, batch_f& cs) {
    Flags f(false);
    if (wide) {
        sincos_wide_v(d, sn, cs, f);
        // (NaN compares false: flagged)
        f = f | ~(xsimd::abs(d) < batch_f(kWideMax));
    } else {
        sincos_cw_v(d, sn, cs, f);
    }
    return _mm_movemask_ps(f);
}

// The groups of x[0, n), each through sincos_batch: whole(i, s0, s1, c0, c1)
// takes a whole group with no flagged lane (its two batches of sin and of
// cos), part(i, st, ct, count) any other (its count results, the flagged
// lanes recomputed by the scalar code from the group's values, which x may
// no longer hold by then).
template <class Whole, class Part>
__attribute__((always_inline)) inline void sincos_groups(const float* x, std::size_t n, Whole whole, Part part) {
    const batch_f lim(kTrigRangeMax2);
    for (std::size_t i = 0; i < n; i += kTorchTrigLanes) {
        // pass 1: the group, zero-padded past the end (as ATen's partial load)
        const std::size_t count = std::min(kTorchTrigLanes, n - i);
        alignas(16) float xl[kTorchTrigLanes];
        batch_f d0, d1;
        if (count == kTorchTrigLanes) {
            d0 = xsimd::load_unaligned(x + i);
            d1 = xsimd::load_unaligned(x + i + kLanes);
        } else {
            std::fill(xl, xl + kTorchTrigLanes, 0.0f);
            std::memcpy(xl, x + i, count * sizeof(float));
            d0 = xsimd::load_aligned(xl);
            d1 = xsimd::load_aligned(xl + kLanes);
        }
        // pass 2: its path, as group_is_wide decides it (NaN compares false: wide)
        const bool wide = !xsimd::all((xsimd::abs(d0) < lim) & (xsimd::abs(d1) < lim));
        batch_f s0, c0, s1, c1;
        const int flagged = sincos_batch(d0, wide, s0, c0) | sincos_batch(d1, wide, s1, c1) << kLanes;
        // pass 3: a whole group with no flagged lane goes straight out
        if (count == kTorchTrigLanes && flagged == 0) {
            whole(i, s0, s1, c0, c1);
            continue;
        }
        alignas(16) float st[kTorchTrigLanes], ct[kTorchTrigLanes];
        d0.store_aligned(xl), d1.store_aligned(xl + kLanes);
        s0.store_aligned(st), s1.store_aligned(st + kLanes);
        c0.store_aligned(ct), c1.store_aligned(ct + kLanes);
        if (flagged) sincos_lanes(xl, wide, flagged, st, ct, count);
        part(i, st, ct, count);
    }
}

}  // namespace

namespace simd {

// x, s, c: (n); s or c may be null; either may alias x.
void torch_sincos(const float* x, float* s, float* c, std::size_t n) {
    sincos_groups(
        x, n,
        [s, c](std::size_t i, const batch_f& s0, const batch_f& s1, const batch_f& c0, const batch_f& c1) {
            if (s) s0.store_unaligned(s + i), s1.store_unaligned(s + i + kLanes);
            if (c) c0.store_unaligned(c + i), c1.store_unaligned(c + i + kLanes);
        },
        [s, c](std::size_t i, const float* st, const float* ct, std::size_t count) {
            if (s) std::memcpy(s + i, st, count * sizeof(float));
            if (c) std::memcpy(c + i, ct, count * sizeof(float));
        });
}

// x: (n); out: (2n), sin and cos of x[i] at 2i and 2i + 1; no overlap.
void torch_sincos_interleaved(const float* x, float* out, std::size_t n) {
    sincos_groups(
        x, n,
        [out](std::size_t i, const batch_f& s0, const batch_f& s1, const batch_f& c0, const batch_f& c1) {
            float* o = out + 2 * i;
            xsimd::zip_lo(s0, c0).store_unaligned(o);
            xsimd::zip_hi(s0, c0).store_unaligned(o + kLanes);
            xsimd::zip_lo(s1, c1).store_unaligned(o + 2 * kLanes);
            xsimd::zip_hi(s1, c1).store_unaligned(o + 3 * kLanes);
        },
        [out](std::size_t i, const float* st, const float* ct, std::size_t count) {
            for (std::size_t l = 0; l < count; ++l) out[2 * (i + l)] = st[l], out[2 * (i + l) + 1] = ct[l];
        });
}

}  // namespace simd
#endif

void torch_sin(float* out, const float* x, std::size_t n) {
    kernels::torch_sincos(x, out, nullptr, n);
}
void torch_cos(float* out, const float* x, std::size_t n) {
    kernels::torch_sincos(x, nullptr, out, n);
}

}  // namespace posenc
