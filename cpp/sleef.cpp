// SLEEF's powf_u10 as PyTorch's AVX2 kernels run it, one lane at a time.
// Every operation below is one instruction of SLEEF's vector code (src/libm/
// sleefsimdsp.c: xpowf, logkf, expkf; src/libm/df.h: the double-float
// helpers in their FMA form), in the same order: floating-point addition is
// not associative, so reordering anything here changes bits.
#include "sleef.h"

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
float fma_exact(float a, float b, float c) {
    const double p = static_cast<double>(a) * b;
    double s = p + c;
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

F2 scale(F2 d, float s) { return {d.hi * s, d.lo * s}; }

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
F2 log_f2(float d) {
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
float exp_f2(F2 d) {
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

}  // namespace

// SLEEF expf_u10:
//   q = rint(x / ln 2);  s = x - q*ln2 (ln 2 in two parts, each step fused)
//   u = polynomial(s) (degree 6, Horner, fused);  result = u * 2^q
float sleef_expf(float x) {
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
float sleef_powf(float x, float y) {
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
void torch_pow_scalar_tensor(float* out, float base, const float* e, std::size_t n) {
    // pass 1: the 16-wide vector body (two AVX2 Vectorized<float> per step)
    const std::size_t body = n - n % 16;
    for (std::size_t i = 0; i < body; ++i) out[i] = sleef_powf(base, e[i]);
    // pass 2: the scalar tail, through the C library's powf
    for (std::size_t i = body; i < n; ++i) out[i] = std::pow(base, e[i]);
}

}  // namespace posenc
