// The sinusoidal table's picture in closed form (sinusoidal.h says what it
// computes and how accurately). A file of its own so that it can be compiled
// for size: the sin and cos are vecmath's kernels, the rest is a few passes
// over the picture, and the lesson's module has a size budget.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "caps.h"
#include "check.h"
#include "downsample.h"
#include "sinusoidal.h"
#include "vecmath.h"

namespace posenc {

namespace {

// sin(x) in double, for the few D_n factors of sinusoidal_picture: libm's
// sin would add about 4 KB to a module with a size budget (tests/js/
// builds.test.mjs). x is reduced by a multiple of 2π to [-π, π] and summed
// as Taylor's series to x^29/29! (the next term is under 1e-18 there; the
// largest, x^3/3! ≈ 5.2 at x = π, rounds by up to 4.4e-16). Angles past
// 2^50 rad, where doubles are 1/4 rad apart or more and no float32 table
// means anything, give 0.
double sin_series(double x) {
    constexpr double kPi = 3.14159265358979323846;
    if (!(std::fabs(x) <= 0x1p50)) return 0.0;
    x -= 2 * kPi * std::nearbyint(x / (2 * kPi));
    const double x2 = x * x;
    double term = x, sum = x;
    for (int k = 1; k <= 14; ++k) {
        term *= -x2 / static_cast<double>((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

}  // namespace

// out: (out_rows, out_cols)
// Pixel rows in blocks (as the SIMD table does, so narrow tables still give
// sincos long runs): the block's centre angles f32(c·θ_i), their sin and cos
// interleaved into the row means, each pair then scaled by D_n(θ_i), and
// each pixel the mean of its columns' row means, f32(sum in double / count),
// as box_downsample gives for a one-row span (its general loop took twice as
// long as the sin and cos here).
void sinusoidal_picture(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t out_rows,
                        std::int64_t out_cols) {
    check_range("max_len", max_len, 1, kMaxPosition);
    check_sinusoidal_dims(d_model, base);
    check_range("out_rows", out_rows, 1, kMaxElements);
    check_range("out_cols", out_cols, 1, kMaxElements);
    // the pixels, and the work: a sin and cos per pair and pixel row (its row means, held a block at a time)
    check_elements("sinusoidal picture (out_rows x max(out_cols, d_model))", out_rows * std::max(out_cols, d_model),
                   {"out_rows", "out_cols", "d_model"});

    const std::size_t half = static_cast<std::size_t>(d_model / 2);
    const std::int64_t block_rows =
        std::min(out_rows, static_cast<std::int64_t>(std::max<std::size_t>(1, 4096 / half)));
    const auto block = static_cast<std::size_t>(block_rows);
    // one allocation: div (half), kernel (2 x half), a block's angles (block x half) and row means (block x d_model)
    std::vector<float> work(half * (3 + 3 * block));
    float* div = work.data();
    float* kernel = div + half;
    float* ang = kernel + 2 * half;
    float* means = ang + block * half;
    sinusoidal_div(div, d_model, base);
    std::vector<std::int64_t> r0, r1;
    box_spans(out_rows, max_len, r0, r1);

    // D_n(θ_i), made in double and kept in [-1, 1] (where |sin(nh)| <= n·|sin h|
    // puts it), for the two run lengths the spans can have: with fewer pixel
    // rows than positions, n = floor(max_len / out_rows) or one more; else 1
    const std::int64_t n_lo = std::max<std::int64_t>(1, max_len / out_rows);
    for (std::size_t i = 0; i < half; ++i) {
        const double h = 0.5 * static_cast<double>(div[i]);
        const double s = sin_series(h);
        for (std::size_t j = 0; j < 2; ++j) {
            const double n = static_cast<double>(n_lo) + static_cast<double>(j);
            kernel[j * half + i] =
                s == 0.0 ? 1.0f : static_cast<float>(std::clamp(sin_series(n * h) / (n * s), -1.0, 1.0));
        }
    }

    std::vector<std::int64_t> c0, c1;
    box_spans(out_cols, d_model, c0, c1);
    for (std::int64_t y0 = 0; y0 < out_rows; y0 += block_rows) {
        const std::int64_t rows = std::min(block_rows, out_rows - y0);
        for (std::int64_t r = 0; r < rows; ++r) {
            const auto y = static_cast<std::size_t>(y0 + r);
            // c is a whole or half position, exact in double; c·θ_i is then
            // rounded once, to the float32 table's own angle when n = 1
            const double c = 0.5 * static_cast<double>(r0[y] + r1[y] - 1);
            float* a = ang + static_cast<std::size_t>(r) * half;
            for (std::size_t i = 0; i < half; ++i) a[i] = static_cast<float>(c * static_cast<double>(div[i]));
        }
        kernels::sincos_interleaved(ang, means, static_cast<std::size_t>(rows) * half);
        for (std::int64_t r = 0; r < rows; ++r) {
            const auto y = static_cast<std::size_t>(y0 + r);
            const std::int64_t n = r1[y] - r0[y];
            if (n == 1) continue;
            const float* d = kernel + static_cast<std::size_t>(n - n_lo) * half;
            float* row = means + r * d_model;
            for (std::size_t i = 0; i < half; ++i) {
                row[2 * i] *= d[i];
                row[2 * i + 1] *= d[i];
            }
        }
        for (std::int64_t r = 0; r < rows; ++r) {
            const float* row = means + r * d_model;
            float* pix = out + (y0 + r) * out_cols;
            for (std::size_t x = 0; x < static_cast<std::size_t>(out_cols); ++x) {
                const std::int64_t a = c0[x], b = c1[x];
                if (b - a == 1) {  // most pixels when the plot is about as wide as d_model: no division
                    pix[x] = row[a];
                    continue;
                }
                double sum = row[a];
                for (std::int64_t c = a + 1; c < b; ++c) sum += row[c];
                pix[x] = static_cast<float>(sum / static_cast<double>(b - a));
            }
        }
    }
}

}  // namespace posenc
