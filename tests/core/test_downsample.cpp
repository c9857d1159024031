// downsample: box means of a table on fewer (or more) pixels than cells.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "downsample.h"
#include "errors.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

std::vector<float> run(const std::vector<float>& in, std::int64_t rows, std::int64_t cols, std::int64_t out_rows,
                       std::int64_t out_cols) {
    std::vector<float> out(static_cast<std::size_t>(out_rows * out_cols), -99.0f);
    box_downsample(out.data(), in.data(), rows, cols, out_rows, out_cols);
    return out;
}

// The cells pixel x of `pixels` covers, written out from the contract's words
// (pixels <= cells: a partition into near-equal runs; more pixels: nearest).
std::pair<std::int64_t, std::int64_t> cells_of(std::int64_t x, std::int64_t pixels, std::int64_t cells) {
    std::int64_t lo = x * cells / pixels;
    if (lo > cells - 1) lo = cells - 1;
    std::int64_t hi = (x + 1) * cells / pixels;
    if (hi > cells) hi = cells;
    if (hi < lo + 1) hi = lo + 1;
    return {lo, hi};
}

}  // namespace

TEST_CASE("downsample: the same size is the identity", "[downsample]") {
    for (std::int64_t cols : kTailSizes) {
        const std::int64_t rows = 5;
        const auto in = pseudo_random(rows * cols, 1.0f, 1);
        REQUIRE(run(in, rows, cols, rows, cols) == in);
    }
}

TEST_CASE("downsample: each pixel is the mean of the cells it covers", "[downsample]") {
    // sizes of the lesson's heatmap (1024 x 1024 on ~420 x 530 pixels), odd
    // ratios, one pixel, and more pixels than cells in one direction
    const std::int64_t shapes[][4] = {{1024, 1024, 420, 530}, {17, 64, 5, 7}, {100, 3, 1, 1},
                                      {7, 9, 7, 4},           {3, 5, 8, 2},   {4, 4, 11, 13}};
    for (const auto& s : shapes) {
        const std::int64_t rows = s[0], cols = s[1], out_rows = s[2], out_cols = s[3];
        const auto in = pseudo_random(rows * cols, 1.0f, 7);
        const auto out = run(in, rows, cols, out_rows, out_cols);
        for (std::int64_t y = 0; y < out_rows; ++y) {
            for (std::int64_t x = 0; x < out_cols; ++x) {
                const auto [r0, r1] = cells_of(y, out_rows, rows);
                const auto [c0, c1] = cells_of(x, out_cols, cols);
                double mean = 0;
                for (std::int64_t r = r0; r < r1; ++r) {
                    double row = 0;
                    for (std::int64_t c = c0; c < c1; ++c) row += in[static_cast<std::size_t>(r * cols + c)];
                    mean += row / double(c1 - c0);
                }
                mean /= double(r1 - r0);
                INFO(rows << "x" << cols << " -> " << out_rows << "x" << out_cols << " at " << y << "," << x);
                REQUIRE(out[static_cast<std::size_t>(y * out_cols + x)] == Approx(mean).margin(1e-6));
            }
        }
    }
}

TEST_CASE("downsample: when shrinking, every cell lands in exactly one pixel", "[downsample]") {
    // one hot cell at a time: its weight shows up in one pixel only, as 1/(cells it shares with)
    const std::int64_t rows = 13, cols = 29, out_rows = 4, out_cols = 9;
    for (std::int64_t hot = 0; hot < rows * cols; ++hot) {
        std::vector<float> in(static_cast<std::size_t>(rows * cols), 0.0f);
        in[static_cast<std::size_t>(hot)] = 1.0f;
        const auto out = run(in, rows, cols, out_rows, out_cols);
        int lit = 0;
        for (float v : out) lit += v != 0.0f;
        REQUIRE(lit == 1);
    }
}

TEST_CASE("downsample: a constant stays exactly constant; the picture keeps its extremes' sign", "[downsample]") {
    const std::vector<float> ones(1024 * 1000, 1.0f);
    for (float v : run(ones, 1024, 1000, 333, 517)) REQUIRE(v == 1.0f);
    // alternating +-1 columns (the fastest sinusoidal pair) average to 0 when pairs share a pixel
    std::vector<float> stripes(8 * 64);
    for (std::size_t i = 0; i < stripes.size(); ++i) stripes[i] = (i % 2) ? -1.0f : 1.0f;
    for (float v : run(stripes, 8, 64, 8, 32)) REQUIRE(v == 0.0f);
}

TEST_CASE("downsample: bad sizes", "[downsample]") {
    float f = 0;
    REQUIRE_THROWS_AS(box_downsample(&f, &f, 0, 1, 1, 1), RangeError);
    REQUIRE_THROWS_AS(box_downsample(&f, &f, 1, 0, 1, 1), RangeError);
    REQUIRE_THROWS_AS(box_downsample(&f, &f, 1, 1, 0, 1), RangeError);
    REQUIRE_THROWS_WITH(box_downsample(&f, &f, 1, 1, 1, -3), "out_cols must be between 1 and 16777216, got -3");
    REQUIRE_THROWS_WITH(box_downsample(&f, &f, 1 << 13, 1 << 13, 1, 1),
                        Catch::Contains("table (rows x cols) would hold 67108864 values"));
    REQUIRE_THROWS_WITH(box_downsample(&f, &f, 1, 1, 1 << 13, 1 << 12),
                        Catch::Contains("downsampled picture (out_rows x out_cols) would hold 33554432 values"));
}
