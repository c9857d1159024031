// sinusoidal: the float32 table of the PyTorch tutorial, against known
// values, a double-precision reference of the same float32 angles, the
// scalar twin, and PyTorch's own output (bit for bit on the exact path).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "downsample.h"
#include "errors.h"
#include "fixture.h"
#include "caps.h"
#include "sinusoidal.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

constexpr double kTableTol = 1e-6;     // PyTorch tables (fixtures/README.md)
constexpr double kSinCosTol = 1.5e-7;  // vecmath's contract

// The fast path unless asked: most cases below hold vecmath's contract.
std::vector<float> table(std::int64_t max_len, std::int64_t d, double base = 10000.0, SinCos path = SinCos::Fast) {
    std::vector<float> out(static_cast<std::size_t>(max_len * d));
    sinusoidal_table(out.data(), max_len, d, base, path);
    return out;
}

// Largest error of a table against sin/cos in double of the same float32
// angles f32(f32(pos) * div_i).
double error_vs_reference(const std::vector<float>& pe, std::int64_t max_len, std::int64_t d, double base) {
    std::vector<float> div(static_cast<std::size_t>(d / 2));
    sinusoidal_div(div.data(), d, base);
    double worst = 0;
    for (std::int64_t pos = 0; pos < max_len; ++pos)
        for (std::int64_t i = 0; i < d / 2; ++i) {
            const double ang = static_cast<float>(pos) * div[static_cast<std::size_t>(i)];
            const float* row = pe.data() + pos * d;
            worst = std::fmax(worst, std::fabs(row[2 * i] - std::sin(ang)));
            worst = std::fmax(worst, std::fabs(row[2 * i + 1] - std::cos(ang)));
        }
    return worst;
}

}  // namespace

TEST_CASE("sinusoidal table: known values for d_model 4", "[sinusoidal]") {
    for (SinCos path : {SinCos::Exact, SinCos::Fast}) {
        const auto pe = table(3, 4, 10000.0, path);
        // row 0: sin 0 = 0, cos 0 = 1 in every pair
        REQUIRE(pe[0] == 0.0f);
        REQUIRE(pe[1] == 1.0f);
        REQUIRE(pe[2] == 0.0f);
        REQUIRE(pe[3] == 1.0f);
        // row 1: div = (1, 10000^-0.5 = 0.01)
        REQUIRE(pe[4] == Approx(0.8414709848).margin(1e-7));
        REQUIRE(pe[5] == Approx(0.5403023059).margin(1e-7));
        REQUIRE(pe[6] == Approx(0.0099998333).margin(1e-7));
        REQUIRE(pe[7] == Approx(0.9999500004).margin(1e-7));
        // row 2
        REQUIRE(pe[8] == Approx(std::sin(2.0)).margin(1e-7));
        REQUIRE(pe[11] == Approx(std::cos(0.02)).margin(1e-7));
    }
}

TEST_CASE("sinusoidal divisors: the tutorial's exp form", "[sinusoidal]") {
    std::vector<float> div(4);
    sinusoidal_div(div.data(), 8, 10000.0);
    REQUIRE(div[0] == 1.0f);
    REQUIRE(div[1] == Approx(0.1).epsilon(1e-6));
    REQUIRE(div[2] == Approx(0.01).epsilon(1e-6));
    REQUIRE(div[3] == Approx(0.001).epsilon(1e-6));
    // Wavelength of the last pair of d=512: 2 pi * 10000^(510/512) = 60611.48
    std::vector<float> div512(256);
    sinusoidal_div(div512.data(), 512, 10000.0);
    REQUIRE(2 * M_PI / div512[255] == Approx(60611.48).epsilon(1e-6));
}

TEST_CASE("sinusoidal table: every d_model against a double reference, positions to 65536", "[sinusoidal]") {
    for (std::int64_t d : {2, 4, 6, 8, 10, 18, 34, 64, 130, 512}) {
        // 65537 rows where the cap allows it; the d=512 table stops at 8192.
        const std::int64_t max_len = d <= 130 ? 65537 : 8192;
        const auto pe = table(max_len, d);
        INFO("d_model " << d << ", max_len " << max_len);
        REQUIRE(error_vs_reference(pe, max_len, d, 10000.0) <= kSinCosTol);
    }
    // another base
    const auto pe = table(1000, 34, 500.0);
    REQUIRE(error_vs_reference(pe, 1000, 34, 500.0) <= kSinCosTol);
}

TEST_CASE("sinusoidal table, exact path: <= 1 ULP of the double reference, any block boundary", "[sinusoidal]") {
    // 4096-angle blocks: d 6 puts a row across each boundary; d 2 at 200001
    // rows reaches angles of 2e5 (SLEEF's Payne-Hanek range).
    for (std::int64_t d : {2, 6, 34, 512}) {
        const std::int64_t max_len = d == 2 ? 200001 : 3001;
        const auto pe = table(max_len, d, 10000.0, SinCos::Exact);
        INFO("d_model " << d << ", max_len " << max_len);
        REQUIRE(error_vs_reference(pe, max_len, d, 10000.0) <= 6e-8);
    }
}

TEST_CASE("sinusoidal_rows: the whole exact table's bits for any row range", "[sinusoidal]") {
    // d 2 and 6: a group of 8 angles spans several rows; 300 rows put angles
    // on both sides of 125 in one group; the last row meets the zero padding.
    for (std::int64_t d : {2, 6, 16, 34}) {
        const std::int64_t max_len = 300;
        const auto full = table(max_len, d, 10000.0, SinCos::Exact);
        for (std::int64_t row0 : {0, 1, 7, 123, 124, 125, 126, 297, 299}) {
            for (std::int64_t rows : {1, 2, 5}) {
                if (row0 + rows > max_len) continue;
                std::vector<float> got(static_cast<std::size_t>(rows * d));
                sinusoidal_rows(got.data(), max_len, d, 10000.0, row0, rows);
                INFO("d " << d << " rows " << row0 << " + " << rows);
                REQUIRE(std::memcmp(got.data(), full.data() + row0 * d, got.size() * sizeof(float)) == 0);
                std::vector<float> fast(got.size());
                sinusoidal_rows(fast.data(), max_len, d, 10000.0, row0, rows, SinCos::Fast);
                for (std::size_t k = 0; k < got.size(); ++k) REQUIRE(std::fabs(fast[k] - got[k]) <= kSinCosTol);
            }
        }
    }
    std::vector<float> out(64);
    REQUIRE_THROWS_WITH(sinusoidal_rows(out.data(), 10, 4, 10000.0, 10, 1),
                        Catch::Contains("row0 must be between 0 and 9, got 10"));
    REQUIRE_THROWS_WITH(sinusoidal_rows(out.data(), 10, 4, 10000.0, 8, 3),
                        Catch::Contains("rows must be between 1 and 2, got 3"));
    REQUIRE_THROWS_WITH(sinusoidal_rows(out.data(), 10, 4, 10000.0, -1, 1), Catch::Contains("row0"));
    REQUIRE_THROWS_AS(sinusoidal_rows(out.data(), 10, 5, 10000.0, 0, 1), RangeError);
}

TEST_CASE("sinusoidal table: angles past 2^15 and 131072, and divisors above 1", "[sinusoidal]") {
    // The SIMD kernel reduces angles up to 2^15 with three parts of pi/2,
    // up to 131072 with four, and hands larger ones to the C library; a
    // base below 1 makes divisors above 1 (here up to 21.5), so the angles
    // of one row cross those bounds at different columns.
    const auto narrow = table(200001, 2);
    REQUIRE(error_vs_reference(narrow, 200001, 2, 10000.0) <= kSinCosTol);
    const auto small_base = table(10000, 6, 0.01);
    REQUIRE(error_vs_reference(small_base, 10000, 6, 0.01) <= kSinCosTol);
}

#if POSENC_SIMD
TEST_CASE("sinusoidal table: SIMD kernel against the scalar twin", "[sinusoidal]") {
    // Size n is d_model / 2 (the pairs per row): every tail of the kernel's
    // rows, and d_model 4, 64 and 512; 65537 positions up to d_model 64.
    check_twins(
        [](std::int64_t pairs, Kernel k) {
            const std::int64_t d = 2 * pairs, max_len = d <= 64 ? 65537 : 4096;
            std::vector<float> out(static_cast<std::size_t>(max_len * d));
            (k == Kernel::simd ? simd::sinusoidal_table : scalar::sinusoidal_table)(out.data(), max_len, d, 10000.0);
            return out;
        },
        kSinCosTol, 0.0, {2, 32, 256});
}
#endif

namespace {

std::vector<float> picture(std::int64_t max_len, std::int64_t d, std::int64_t out_rows, std::int64_t out_cols,
                           double base = 10000.0) {
    std::vector<float> out(static_cast<std::size_t>(out_rows * out_cols), -99.0f);
    sinusoidal_picture(out.data(), max_len, d, base, out_rows, out_cols);
    return out;
}

// The picture of the real-valued table, in double: each pixel the mean over
// its positions and columns (box_spans) of sin or cos of p·θ_i, with the
// angle p·θ_i unrounded. Returns the largest difference from `got`.
double error_vs_real_means(const std::vector<float>& got, std::int64_t max_len, std::int64_t d, double base,
                           std::int64_t out_rows, std::int64_t out_cols) {
    std::vector<float> div(static_cast<std::size_t>(d / 2));
    sinusoidal_div(div.data(), d, base);
    std::vector<std::int64_t> r0, r1, c0, c1;
    box_spans(out_rows, max_len, r0, r1);
    box_spans(out_cols, d, c0, c1);
    std::vector<double> row(static_cast<std::size_t>(d));
    double worst = 0;
    for (std::int64_t y = 0; y < out_rows; ++y) {
        const auto iy = static_cast<std::size_t>(y);
        for (std::int64_t i = 0; i < d / 2; ++i) {
            double s = 0, c = 0;
            for (std::int64_t p = r0[iy]; p < r1[iy]; ++p) {
                const double ang = static_cast<double>(p) * div[static_cast<std::size_t>(i)];
                s += std::sin(ang);
                c += std::cos(ang);
            }
            row[static_cast<std::size_t>(2 * i)] = s / double(r1[iy] - r0[iy]);
            row[static_cast<std::size_t>(2 * i + 1)] = c / double(r1[iy] - r0[iy]);
        }
        for (std::int64_t x = 0; x < out_cols; ++x) {
            const auto ix = static_cast<std::size_t>(x);
            double mean = 0;
            for (std::int64_t k = c0[ix]; k < c1[ix]; ++k) mean += row[static_cast<std::size_t>(k)];
            mean /= double(c1[ix] - c0[ix]);
            worst = std::fmax(worst, std::fabs(got[static_cast<std::size_t>(y * out_cols + x)] - mean));
        }
    }
    return worst;
}

// The contract's bound: the angle rounding, 2^-24 · (max_len - 1) · max θ, plus 1e-6.
double picture_tol(std::int64_t max_len, std::int64_t d, double base) {
    std::vector<float> div(static_cast<std::size_t>(d / 2));
    sinusoidal_div(div.data(), d, base);
    double top = 0;
    for (float t : div) top = std::fmax(top, t);
    return std::ldexp(double(max_len - 1) * top, -24) + 1e-6;
}

}  // namespace

TEST_CASE("sinusoidal_picture: a pixel row of one position is the table's row", "[sinusoidal]") {
    // more pixel rows than positions (each row spans several pixels), and the
    // same number; columns the same, fewer (averaged) and more (stretched)
    const std::int64_t shapes[][4] = {{64, 64, 416, 64},    {64, 64, 64, 64}, {7, 6, 23, 6},    {7, 6, 7, 4},
                                      {10, 1024, 164, 968}, {1, 2, 1, 2},     {333, 2, 444, 5}, {64, 64, 416, 500}};
    for (const auto& sh : shapes) {
        const std::int64_t max_len = sh[0], d = sh[1], out_rows = sh[2], out_cols = sh[3];
        const auto got = picture(max_len, d, out_rows, out_cols);
        const auto exact = table(max_len, d, 10000.0, SinCos::Exact);
        std::vector<float> want(got.size());
        box_downsample(want.data(), exact.data(), max_len, d, out_rows, out_cols);
        double worst = 0;
        for (std::size_t k = 0; k < got.size(); ++k) worst = std::fmax(worst, std::fabs(got[k] - want[k]));
        INFO(max_len << " x " << d << " on " << out_rows << " x " << out_cols << ": max |diff| " << worst);
        REQUIRE(worst <= kSinCosTol + 1e-7);
    }
}

TEST_CASE("sinusoidal_picture: each pixel the mean of its cells, in closed form", "[sinusoidal]") {
    // the heatmap's largest (1024 x 1024 on 444 x 968 device pixels), its
    // phone size, odd ratios, one pixel for everything, a base below 1
    // (frequencies above 1) and positions far past the widget's
    struct Case {
        std::int64_t max_len, d, out_rows, out_cols;
        double base;
    };
    // (444 x 1024: every column its own, n = 2 or 3 positions per pixel
    // row, 8 pixel rows per block of sin/cos)
    const Case cases[] = {{1024, 1024, 444, 968, 10000.0},  {1024, 1024, 444, 343, 10000.0},
                          {1024, 1024, 444, 1024, 10000.0}, {1024, 64, 444, 500, 10000.0},
                          {17, 64, 5, 7, 10000.0},          {100, 6, 1, 1, 10000.0},
                          {1000, 34, 3, 34, 500.0},         {3000, 6, 7, 6, 0.01},
                          {65537, 4, 7, 4, 10000.0},        {1024, 2, 3, 1, 2.0}};
    for (const auto& c : cases) {
        const auto got = picture(c.max_len, c.d, c.out_rows, c.out_cols, c.base);
        const double tol = picture_tol(c.max_len, c.d, c.base);
        const double real = error_vs_real_means(got, c.max_len, c.d, c.base, c.out_rows, c.out_cols);
        // and the float32 table's box means, whose angles are rounded too
        const auto exact = table(c.max_len, c.d, c.base, SinCos::Exact);
        std::vector<float> boxed(got.size());
        box_downsample(boxed.data(), exact.data(), c.max_len, c.d, c.out_rows, c.out_cols);
        double vs_table = 0;
        for (std::size_t k = 0; k < got.size(); ++k) vs_table = std::fmax(vs_table, std::fabs(got[k] - boxed[k]));
        INFO(c.max_len << " x " << c.d << " base " << c.base << " on " << c.out_rows << " x " << c.out_cols
                       << ": vs real means " << real << ", vs the float32 table's " << vs_table << ", bound " << tol);
        REQUIRE(real <= tol);
        REQUIRE(vs_table <= 2 * tol);
    }
}

TEST_CASE("sinusoidal_picture: positions to the cap without a table, and argument errors", "[sinusoidal]") {
    // 2^24 positions on 3 rows: the table would be 64 MiB; the picture is 12 values
    const auto far = picture(kMaxPosition, 4, 3, 4);
    for (float v : far) REQUIRE((std::isfinite(v) && std::fabs(v) <= 1.0f));
    std::vector<float> out(8192);  // as large as the 4096 x 2 picture below, were its check missing
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 0, 4, 10000.0, 2, 2),
                        Catch::Contains("max_len must be between 1 and 16777216, got 0"));
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 5, 10000.0, 2, 2), Catch::Contains("d_model must be even"));
    // d_model and base are checked first, as by sinusoidal_table
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 5, 10000.0, 0, 2), Catch::Contains("d_model must be even"));
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 4, 0.0, kMaxElements, kMaxElements), Catch::Contains("base"));
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 4, -1.0, 2, 2),
                        Catch::Contains("base must be a finite number greater than 0"));
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 4, 10000.0, 0, 2),
                        Catch::Contains("out_rows must be between 1 and"));
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 4, 10000.0, 2, -3),
                        Catch::Contains("out_cols must be between 1 and"));
    REQUIRE_THROWS_AS(sinusoidal_picture(out.data(), 4, 4, 10000.0, kMaxElements, 2), RangeError);
    // a picture of 4096 x 2 pixels, but 4096 x 65536 row means to work out
    REQUIRE_THROWS_WITH(sinusoidal_picture(out.data(), 4, 65536, 10000.0, 4096, 2),
                        Catch::Contains("max(out_cols, d_model)) would hold 268435456 values"));
    REQUIRE(out == std::vector<float>(8192));  // nothing written before the checks
}

TEST_CASE("sinusoidal divisors match PyTorch bit for bit", "[sinusoidal]") {
    const auto cases = fixture::all("sinusoidal_div");
    for (const auto& fc : cases) {
        const std::int64_t d = fc.integer("d_model");
        const auto want = fc.tensor("out").f32();
        std::vector<float> got(static_cast<std::size_t>(d / 2));
        sinusoidal_div(got.data(), d, fc.num("base"));
        INFO(fc.file);
        REQUIRE(got.size() == want.size());
        REQUIRE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("sinusoidal table matches PyTorch: bit for bit on the exact path, 1e-6 on the fast one", "[sinusoidal]") {
    const auto cases = fixture::all("sinusoidal");
    double worst_all = 0;
    for (const auto& fc : cases) {
        const std::int64_t max_len = fc.integer("max_len"), d = fc.integer("d_model");
        const auto pe = table(max_len, d, fc.num("base"));
        const auto rows = fc.tensor("rows").values;
        const auto want = fc.tensor("out").f32();
        REQUIRE(want.size() == rows.size() * static_cast<std::size_t>(d));
        const auto exact = table(max_len, d, fc.num("base"), SinCos::Exact);
        std::vector<float> got, got_exact;
        for (double r : rows) {
            const std::int64_t at = static_cast<std::int64_t>(r) * d;
            got.insert(got.end(), pe.data() + at, pe.data() + at + d);
            got_exact.insert(got_exact.end(), exact.data() + at, exact.data() + at + d);
        }
        const double worst = fixture::max_abs_diff(got, want);
        INFO(fc.file << ": max |diff| " << worst << " (fast path)");
        REQUIRE(worst <= kTableTol);  // measured: 6e-8 (one float ULP below 1)
        worst_all = std::fmax(worst_all, worst);
        // The exact path: PyTorch's bits, every value.
        REQUIRE(std::memcmp(got_exact.data(), want.data(), want.size() * sizeof(float)) == 0);
    }
    WARN("sinusoidal (fast path) max abs error vs fixtures: " << worst_all);
}

TEST_CASE("sinusoidal table: argument errors", "[sinusoidal]") {
    std::vector<float> out(64);
    SECTION("odd d_model, as PyTorch's snippet fails on it") {
        REQUIRE_THROWS_AS(sinusoidal_table(out.data(), 2, 5), RangeError);
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), 2, 5), Catch::Contains("d_model must be even") &&
                                                                    Catch::Contains("shape mismatch") &&
                                                                    Catch::Contains("got 5"));
        REQUIRE_THROWS_WITH(sinusoidal_div(out.data(), 7), Catch::Contains("d_model must be even"));
    }
    SECTION("d_model out of range") {
        REQUIRE_THROWS_AS(sinusoidal_table(out.data(), 2, 0), RangeError);
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), 2, 0),
                            Catch::Contains("d_model must be between 2 and 65536, got 0"));
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), 1, 65538),
                            Catch::Contains("d_model must be between 2 and 65536, got 65538"));
        REQUIRE_THROWS_WITH(sinusoidal_div(out.data(), -2), Catch::Contains("got -2"));
    }
    SECTION("max_len out of range") {
        REQUIRE_THROWS_AS(sinusoidal_table(out.data(), 0, 4), RangeError);
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), 0, 4),
                            Catch::Contains("max_len must be between 1 and 16777216, got 0"));
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), kMaxPosition + 1, 2), Catch::Contains("got 16777217"));
    }
    SECTION("base not a positive number") {
        for (double base : {0.0, -10000.0, double(NAN), double(INFINITY)}) {
            REQUIRE_THROWS_AS(sinusoidal_table(out.data(), 2, 4, base), RangeError);
            REQUIRE_THROWS_AS(sinusoidal_div(out.data(), 4, base), RangeError);
        }
        REQUIRE_THROWS_WITH(sinusoidal_table(out.data(), 2, 4, 0.0),
                            Catch::Contains("base must be a finite number greater than 0, got 0"));
        REQUIRE_THROWS_WITH(sinusoidal_div(out.data(), 4, NAN), Catch::Contains("got NaN"));
    }
    SECTION("output over the cap, refused before writing anything") {
        REQUIRE_THROWS_AS(sinusoidal_table(nullptr, kMaxPosition, 2), RangeError);
        REQUIRE_THROWS_WITH(sinusoidal_table(nullptr, kMaxPosition, 2),
                            Catch::Contains("would hold 33554432 values") && Catch::Contains("cap of 16777216"));
        REQUIRE_THROWS_WITH(sinusoidal_table(nullptr, 8193, 2048), Catch::Contains("would hold 16779264 values"));
    }
}
