// vecmath: sin/cos and exp kernels against their scalar twins and a double
// precision reference, under the accuracy contract of vecmath.h.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "fixture.h"
#include "vecmath.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

constexpr double kSinCosTol = 1.5e-7;  // the contract in vecmath.h
const std::size_t kLengths[] = {0, 1, 3, 4, 5, 8, 17, 64};

std::uint32_t to_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Correctly rounded sin/cos of a float, to the precision that matters here.
float ref_sin(float x) {
    return static_cast<float>(std::sin(static_cast<double>(x)));
}
float ref_cos(float x) {
    return static_cast<float>(std::cos(static_cast<double>(x)));
}

// Error of y = exp(x) in ULPs of the correctly rounded result.
double exp_ulps(float x, float y) {
    const double ref = std::exp(static_cast<double>(x));
    const float rounded = static_cast<float>(ref);
    if (std::isinf(rounded)) return std::isinf(y) && y > 0 ? 0.0 : 1e9;
    return std::fabs(y - ref) / ulp_of(rounded);
}

struct SinCosErr {
    double worst = 0;
    float at = 0;
};

// Runs `fn` on x and returns the largest error against the double reference;
// also requires every value to lie in [-1, 1].
template <class Fn>
SinCosErr sincos_error(Fn fn, const std::vector<float>& x) {
    std::vector<float> s(x.size()), c(x.size());
    fn(x.data(), s.data(), c.data(), x.size());
    SinCosErr e;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double d = std::fmax(std::fabs(s[i] - ref_sin(x[i])), std::fabs(c[i] - ref_cos(x[i])));
        if (!(d <= e.worst)) {
            e.worst = d;
            e.at = x[i];
        }  // NaN counts as worst
    }
    return e;
}

// A log-spaced sweep of both signs up to `hi`, plus each point's neighbours.
std::vector<float> log_sweep(double lo, double hi, int per_binade) {
    std::vector<float> x;
    for (double b = lo; b < hi; b *= 2)
        for (int k = 0; k < per_binade; ++k) {
            const float v = static_cast<float>(b * (1.0 + double(k) / per_binade));
            if (v > hi) break;
            for (float w : {v, std::nextafter(v, 0.0f), std::nextafter(v, INFINITY)}) {
                x.push_back(w);
                x.push_back(-w);
            }
        }
    return x;
}

void sincos_public(const float* x, float* s, float* c, std::size_t n) {
    kernels::sincos(x, s, c, n);
}
void sincos_twin(const float* x, float* s, float* c, std::size_t n) {
    scalar::sincos(x, s, c, n);
}
#if POSENC_SIMD
void sincos_kernel(const float* x, float* s, float* c, std::size_t n) {
    simd::sincos(x, s, c, n);
}
#endif

// sincos_interleaved (and its twins) seen through sincos's interface.
template <void (*Interleaved)(const float*, float*, std::size_t)>
void split(const float* x, float* s, float* c, std::size_t n) {
    std::vector<float> out(2 * n);
    Interleaved(x, out.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
        s[i] = out[2 * i];
        c[i] = out[2 * i + 1];
    }
}
const auto interleaved_public = split<kernels::sincos_interleaved>;
const auto interleaved_twin = split<scalar::sincos_interleaved>;

// Both public entry points, sincos and sincos_interleaved, on x: each within
// kSinCosTol (a failure names the entry point, its worst error and where).
void require_public_accurate(const std::vector<float>& x) {
    const SinCosErr e = sincos_error(sincos_public, x);
    INFO("sincos: worst " << e.worst << " at x = " << e.at);
    REQUIRE(e.worst <= kSinCosTol);
    const SinCosErr ei = sincos_error(interleaved_public, x);
    INFO("interleaved: worst " << ei.worst << " at x = " << ei.at);
    REQUIRE(ei.worst <= kSinCosTol);
}

#if POSENC_SIMD
const auto interleaved_kernel = split<simd::sincos_interleaved>;

// exp_nonpositive's array kernel of the twin k.
using ExpNonpos = void (*)(const float*, float*, std::size_t);
ExpNonpos exp_nonpositive_of(Kernel k) {
    return k == Kernel::simd ? ExpNonpos(simd::exp_nonpositive) : ExpNonpos(scalar::exp_nonpositive);
}
#endif

// Error of y = exp_nonpositive(x): ULPs of the correctly rounded result where
// that is a normal float (x >= kExpNonposCutoff), else the absolute error,
// whose bound is FLT_MIN.
struct ExpNonposErr {
    double ulps = 0, abs_low = 0;
    float ulps_at = 0;
};
void add_exp_nonpos_error(ExpNonposErr& e, float x, float y) {
    const double ref = std::exp(static_cast<double>(x));
    if (x >= kExpNonposCutoff) {
        const double u = std::fabs(y - ref) / ulp_of(static_cast<float>(ref));
        if (!(u <= e.ulps)) {
            e.ulps = u;
            e.ulps_at = x;
        }  // NaN counts as worst
    } else {
        const double a = std::fabs(y - ref);
        if (!(a <= e.abs_low)) e.abs_low = a;
    }
}

}  // namespace

TEST_CASE("sincos meets the contract on every tail length", "[vecmath]") {
    for (std::size_t n : kLengths) {
        std::vector<float> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = 0.37f * float(i) - 3.1f + 1000.0f * float(i % 3);
        INFO("n = " << n);
        REQUIRE(sincos_error(sincos_public, x).worst <= kSinCosTol);
        REQUIRE(sincos_error(sincos_twin, x).worst <= kSinCosTol);
        REQUIRE(sincos_error(interleaved_public, x).worst <= kSinCosTol);
        REQUIRE(sincos_error(interleaved_twin, x).worst <= kSinCosTol);
#if POSENC_SIMD
        REQUIRE(sincos_error(sincos_kernel, x).worst <= kSinCosTol);
        REQUIRE(sincos_error(interleaved_kernel, x).worst <= kSinCosTol);
        // and the kernels write exactly n values (2n interleaved), no more
        std::vector<float> s(n + 4, 42.0f), c(n + 4, 42.0f), sc(2 * n + 8, 42.0f);
        simd::sincos(x.data(), s.data(), c.data(), n);
        for (std::size_t i = n; i < n + 4; ++i) REQUIRE((s[i] == 42.0f && c[i] == 42.0f));
        simd::sincos_interleaved(x.data(), sc.data(), n);
        for (std::size_t i = 2 * n; i < 2 * n + 8; ++i) REQUIRE(sc[i] == 42.0f);
#endif
    }
}

TEST_CASE("sincos is accurate over a dense sweep up to 2^24", "[vecmath]") {
    const std::vector<float> x = log_sweep(1e-6, 16777216.0, 4096);
    require_public_accurate(x);
#if POSENC_SIMD
    REQUIRE(sincos_error(sincos_twin, x).worst <= kSinCosTol);
#endif
}

TEST_CASE("sincos_interleaved is as accurate as sincos below 2^15, where it takes three parts of pi/2", "[vecmath]") {
    // Every 61st float in [0, 2^15], both signs: the three-part reduction's
    // whole range, up to its largest q (where q P3's rounding is largest).
    std::vector<float> x;
    for (std::uint32_t u = 0; from_bits(u) <= 32768.0f; u += 61) {
        x.push_back(from_bits(u));
        x.push_back(-from_bits(u));
    }
    const SinCosErr e = sincos_error(interleaved_public, x);
    INFO("worst " << e.worst << " at x = " << e.at);
    REQUIRE(e.worst <= 7e-8);  // 6.8e-8 measured; sincos's four parts: 6.6e-8
}

TEST_CASE("sincos is accurate on positional angles pos * freq", "[vecmath]") {
    // Frequencies of a d=512 sinusoidal table, positions 0..65536: the angles
    // the tables actually feed in, where a sloppy range reduction shows first.
    std::vector<float> x;
    for (int i = 0; i < 256; i += 5) {
        const float freq = static_cast<float>(std::exp(-std::log(10000.0) * 2.0 * i / 512.0));
        for (int pos = 0; pos <= 65536; pos += (i % 2 ? 7 : 3)) x.push_back(float(pos) * freq);
        x.push_back(65536.0f * freq);
    }
    require_public_accurate(x);
}

TEST_CASE("sincos is accurate next to multiples of pi/2", "[vecmath]") {
    // There the remainder r is tiny and every bit of the pi/2 split counts.
    std::vector<float> x;
    for (double k = 1; k * M_PI / 2 < 16777216.0; k = std::ceil(k * 1.013)) {
        float v = static_cast<float>(k * M_PI / 2);
        for (int step = 0; step < 4; ++step) v = std::nextafter(v, 0.0f);
        for (int step = 0; step < 9; ++step) {
            x.push_back(v);
            x.push_back(-v);
            v = std::nextafter(v, INFINITY);
        }
    }
    require_public_accurate(x);
}

TEST_CASE("sincos handles special values and null outputs", "[vecmath]") {
    const float big = std::numeric_limits<float>::max();
    const std::vector<float> x = {NAN,         INFINITY, -INFINITY, 0.0f,      -0.0f,
                                  1e30f,       -1e30f,   big,       131072.0f, std::nextafter(131072.0f, INFINITY),
                                  16777216.0f, 1e-40f};
    std::vector<float> s(x.size()), c(x.size());
    kernels::sincos(x.data(), s.data(), c.data(), x.size());
    for (int i = 0; i < 3; ++i) REQUIRE((std::isnan(s[i]) && std::isnan(c[i])));
    REQUIRE((s[3] == 0.0f && !std::signbit(s[3]) && c[3] == 1.0f));
    REQUIRE((s[4] == 0.0f && std::signbit(s[4]) && c[4] == 1.0f));
    for (std::size_t i = 5; i < x.size(); ++i) {
        REQUIRE(std::fabs(s[i]) <= 1.0f);
        REQUIRE(std::fabs(c[i]) <= 1.0f);
        REQUIRE(std::fabs(s[i] - ref_sin(x[i])) <= kSinCosTol);
        REQUIRE(std::fabs(c[i] - ref_cos(x[i])) <= kSinCosTol);
    }
    // Either output may be skipped.
    std::vector<float> only(x.size());
    kernels::sincos(x.data(), only.data(), nullptr, x.size());
    for (std::size_t i = 3; i < x.size(); ++i) REQUIRE(to_bits(only[i]) == to_bits(s[i]));
    kernels::sincos(x.data(), nullptr, only.data(), x.size());
    for (std::size_t i = 3; i < x.size(); ++i) REQUIRE(to_bits(only[i]) == to_bits(c[i]));
}

TEST_CASE("sincos_interleaved handles special values and mixed batches", "[vecmath]") {
    // Batches of four that mix the three-part path (|x| <= 2^15) with lanes
    // for the four-part one (to 131072), the C library (beyond) and non-finite
    // values, in every lane position.
    const float big = std::numeric_limits<float>::max();
    const std::vector<float> special = {NAN,       INFINITY,   -INFINITY, 1e30f,    -1e30f,
                                        big,       131073.0f,  100000.0f, 32768.0f, std::nextafter(32768.0f, INFINITY),
                                        -40000.0f, 16777216.0f};
    for (float odd : special) {
        for (std::size_t lane = 0; lane < 4; ++lane) {
            std::vector<float> x = {0.5f, -2.0f, 3000.0f, 1e-40f, 7.0f};
            x[lane] = odd;
            std::vector<float> out(2 * x.size());
            kernels::sincos_interleaved(x.data(), out.data(), x.size());
            INFO("x = " << odd << " in lane " << lane);
            for (std::size_t i = 0; i < x.size(); ++i) {
                const float s = out[2 * i], c = out[2 * i + 1];
                if (!std::isfinite(x[i])) {
                    REQUIRE((std::isnan(s) && std::isnan(c)));
                } else {
                    REQUIRE(std::fabs(s - ref_sin(x[i])) <= kSinCosTol);
                    REQUIRE(std::fabs(c - ref_cos(x[i])) <= kSinCosTol);
                }
            }
        }
    }
    // sin(+-0) = 0 (the SIMD kernel may drop the sign of -0, vecmath.h), cos 1
    const float zeros[2] = {0.0f, -0.0f};
    float out[4];
    kernels::sincos_interleaved(zeros, out, 2);
    REQUIRE((out[0] == 0.0f && !std::signbit(out[0]) && out[1] == 1.0f));
    REQUIRE((out[2] == 0.0f && out[3] == 1.0f));
}

#if POSENC_SIMD
TEST_CASE("sincos and sincos_interleaved: the SIMD twins against the scalar twins", "[vecmath]") {
    // Random bit patterns over all finite floats up to 2^24, and the fast
    // path's edge, where lanes switch to the C library inside one batch.
    // Size n takes the first n of them.
    std::vector<float> x;
    std::uint32_t state = 12345;
    while (x.size() < 200000) {
        const float v = from_bits(lcg_next(state));
        if (std::fabs(v) <= 16777216.0f) x.push_back(v);
    }
    for (float v = 131070.0f; v < 131074.0f; v += 0.25f) x.push_back(v);
    check_twins(
        [&x](std::int64_t n, Kernel k) {
            const std::size_t m = sz(n);
            std::vector<float> s(m), c(m), sc(2 * m);
            if (k == Kernel::simd) {
                simd::sincos(x.data(), s.data(), c.data(), m);
                simd::sincos_interleaved(x.data(), sc.data(), m);
            } else {
                scalar::sincos(x.data(), s.data(), c.data(), m);
                scalar::sincos_interleaved(x.data(), sc.data(), m);
            }
            return concat({&s, &c, &sc});
        },
        kSinCosTol, 0.0, {std::int64_t(x.size())});
}
#endif

TEST_CASE("exp is within 2 ULP from -110 to 90, with 0 and inf at the ends", "[vecmath]") {
    std::vector<float> x;
    for (float v = -110.0f; v <= 90.0f; v += 0.00731f) x.push_back(v);
    for (float v : {-103.97f, -103.28f, -87.34f, -87.33f, 88.72f, 88.7228f, 88.7229f, 0.0f, -0.0f, 1e-30f})
        x.push_back(v);
    std::vector<float> y(x.size());
    kernels::exp_array(x.data(), y.data(), x.size());
    double worst = 0;
    float at = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double e = exp_ulps(x[i], y[i]);
        if (e > worst) {
            worst = e;
            at = x[i];
        }
    }
    INFO("worst " << worst << " ULP at x = " << at);
    REQUIRE(worst <= 2.0);

    const std::vector<float> special = {-INFINITY, -1e30f, -104.5f, -200.0f, INFINITY, 1e30f, 89.0f, NAN};
    std::vector<float> out(special.size());
    kernels::exp_array(special.data(), out.data(), special.size());
    for (int i = 0; i < 4; ++i) REQUIRE(out[i] == 0.0f);
    for (int i = 4; i < 7; ++i) REQUIRE((std::isinf(out[i]) && out[i] > 0));
    REQUIRE(std::isnan(out[7]));
}

TEST_CASE("exp on every tail length, in place and against the twin", "[vecmath]") {
    for (std::size_t n : kLengths) {
        std::vector<float> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = -30.0f + 0.9f * float(i);
        std::vector<float> twin(n), y = x;
        scalar::exp_array(x.data(), twin.data(), n);
        kernels::exp_array(y.data(), y.data(), n);  // y aliases x
        INFO("n = " << n);
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(exp_ulps(x[i], y[i]) <= 2.0);
            REQUIRE(exp_ulps(x[i], twin[i]) <= 1.0);
        }
#if POSENC_SIMD
        std::vector<float> z(n + 4, 42.0f);
        simd::exp_array(x.data(), z.data(), n);
        for (std::size_t i = 0; i < n; ++i) REQUIRE(to_bits(z[i]) == to_bits(y[i]));
        for (std::size_t i = n; i < n + 4; ++i) REQUIRE(z[i] == 42.0f);
#endif
    }
}

TEST_CASE("exp_nonpositive is within 3 ULP down to FLT_MIN and below it off by < FLT_MIN", "[vecmath]") {
    // Every 97th float from 0 down to -104 (11.6 million values) through the
    // scalar twin; the SIMD kernel is held to it bit for bit below.
    ExpNonposErr e;
    for (std::uint32_t u = 0x80000000u; from_bits(u) >= -104.0f; u += 97)
        add_exp_nonpos_error(e, from_bits(u), scalar::exp_nonpositive(from_bits(u)));
    for (float v : {0.0f, -0.0f, kExpNonposCutoff, std::nextafter(kExpNonposCutoff, 0.0f), kExpNonposClamp,
                    std::nextafter(kExpNonposClamp, 0.0f), -87.68f, -103.97f, -104.0f})
        add_exp_nonpos_error(e, v, scalar::exp_nonpositive(v));
    INFO("worst " << e.ulps << " ULP at x = " << e.ulps_at << "; below the cutoff " << e.abs_low);
    REQUIRE(e.ulps <= 3.0);  // 2.27 measured over every float
    REQUIRE(e.abs_low < std::numeric_limits<float>::min());

    // exact values at the ends: 1 at 0 (either sign), 0 for -88 and below and -inf; NaN stays
    const std::vector<float> special = {0.0f,      -0.0f, -88.0f, -104.0f, -1e30f, -std::numeric_limits<float>::max(),
                                        -INFINITY, NAN};
    std::vector<float> out(special.size());
    scalar::exp_nonpositive(special.data(), out.data(), special.size());
    REQUIRE((out[0] == 1.0f && out[1] == 1.0f));
    for (std::size_t i = 2; i < 7; ++i) REQUIRE(to_bits(out[i]) == 0u);  // +0
    REQUIRE(std::isnan(out[7]));
    for (std::size_t i = 0; i < special.size(); ++i)
        REQUIRE(to_bits(scalar::exp_nonpositive(special[i])) == to_bits(out[i]));
}

#if POSENC_SIMD
TEST_CASE("exp_nonpositive: the SIMD twin equals the scalar twin bit for bit, on every tail length", "[vecmath]") {
    // Tails (the padded last batch), out of place with the 4 floats past the
    // end in the output (a kernel that writes them differs from the scalar
    // twin, which does not), and in place; -inf is a masked logit.
    check_twins(
        [](std::int64_t n, Kernel k) {
            std::vector<float> x(sz(n));
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 5 == 3 ? -INFINITY : -0.77f * float(i * i);
            std::vector<float> y(x.size() + 4, 42.0f), z = x;
            exp_nonpositive_of(k)(x.data(), y.data(), x.size());
            exp_nonpositive_of(k)(z.data(), z.data(), z.size());  // in place
            return concat({&y, &z});
        },
        0.0, 0.0, {0});
    // A sweep through the cutoff and the clamp, where the exponent field runs
    // out, and NaN, -inf and -0; size n takes the first n.
    std::vector<float> sweep;
    for (float v = -90.0f; v <= 0.0f; v += 0.0013f) sweep.push_back(v);
    for (float v : {NAN, -INFINITY, -0.0f}) sweep.push_back(v);
    check_twins(
        [&sweep](std::int64_t n, Kernel k) {
            std::vector<float> y(sz(n));
            exp_nonpositive_of(k)(sweep.data(), y.data(), y.size());
            return y;
        },
        0.0, 0.0, {std::int64_t(sweep.size())});
}
#endif
