#include "sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "check.h"
#include "errors.h"
#include "caps.h"
#include "sleef.h"
#include "vecmath.h"

namespace posenc {

namespace {

// div: (d_model/2), no checks.
//   c     = f32(-ln(base) / d)      (a Python float, rounded once when it
//                                    multiplies the float32 arange)
//   div_i = expf(f32(2i) * c)       (SLEEF's expf, as torch.exp on CPU)
void fill_div(float* div, std::int64_t d_model, double base) {
    const float c = static_cast<float>(-std::log(base) / static_cast<double>(d_model));
    for (std::int64_t i = 0; i < d_model / 2; ++i) div[i] = sleef_expf(static_cast<float>(2 * i) * c);
}

}  // namespace

// d_model: even, 2..kMaxDim; base: finite, > 0.
void check_sinusoidal_dims(std::int64_t d_model, double base) {
    check_range("d_model", d_model, 2, kMaxDim);
    if (d_model % 2 != 0)
        throw RangeError(
            "d_model must be even: sin and cos fill the columns in pairs "
            "(PyTorch's snippet fails with a shape mismatch, since pe[:, 1::2] has " +
                std::to_string(d_model / 2) + " columns and div_term " + std::to_string(d_model / 2 + 1) + "), got " +
                std::to_string(d_model),
            {"d_model"}, {double(d_model)});
    check_positive("base", base);
}

// div: (d_model/2)
void sinusoidal_div(float* div, std::int64_t d_model, double base) {
    check_sinusoidal_dims(d_model, base);
    fill_div(div, d_model, base);
}

// out: (max_len, d_model)
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base, SinCos path) {
    check_range("max_len", max_len, 1, kMaxPosition);
    check_sinusoidal_dims(d_model, base);
    check_elements("sinusoidal table (max_len x d_model)", max_len * d_model, {"max_len", "d_model"});
    if (path == SinCos::Exact) return sinusoidal_table_exact(out, max_len, d_model, base);
    kernels::sinusoidal_table(out, max_len, d_model, base);
}

// out: (max_len, d_model)
// As the tutorial runs it in torch:
//   ang = pos[:, None] * div            (max_len, d/2), one rounding each
//   pe[:, 0::2], pe[:, 1::2] = torch.sin(ang), torch.cos(ang)
// torch_sincos must see the angles as torch's one flat tensor (its result for
// an angle depends on the 8-lane group it falls in), so the blocks below are
// whole groups: kBlock is a multiple of kTorchTrigLanes.
void sinusoidal_table_exact(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t row0,
                            std::int64_t rows) {
    constexpr std::size_t kBlock = 4096;
    static_assert(kBlock % kTorchTrigLanes == 0, "blocks must hold whole 8-lane groups");
    if (rows < 0) rows = max_len - row0;
    const std::size_t half = static_cast<std::size_t>(d_model / 2);
    const std::size_t total = static_cast<std::size_t>(max_len) * half;
    // The wanted angles [lo, hi), widened to whole groups [g0, g1).
    const std::size_t lo = static_cast<std::size_t>(row0) * half;
    const std::size_t hi = lo + static_cast<std::size_t>(rows) * half;
    const std::size_t g0 = lo - lo % kTorchTrigLanes;
    const std::size_t g1 = std::min(total, hi + (kTorchTrigLanes - hi % kTorchTrigLanes) % kTorchTrigLanes);
    std::vector<float> div(half), ang(kBlock), edge;
    fill_div(div.data(), d_model, base);
    for (std::size_t j0 = g0; j0 < g1; j0 += kBlock) {
        const std::size_t n = std::min(kBlock, g1 - j0);
        // pass 1: angle j = (pos, i) of the flat (max_len, d/2) tensor, a
        // run of one row at a time
        for (std::size_t j = 0, pos = j0 / half, i = j0 % half; j < n; ++pos, i = 0) {
            const std::size_t run = std::min(half - i, n - j);
            const float p = static_cast<float>(pos);
            for (std::size_t k = 0; k < run; ++k) ang[j + k] = p * div[i + k];
            j += run;
        }
        // pass 2: torch's sin and cos, written as (sin, cos) pairs: flat
        // index k = pos * half + i is columns 2i, 2i + 1 of row pos - row0,
        // i.e. out[2 (k - lo)]. A block that reaches outside [lo, hi) (the
        // first and the last, widened to whole groups) goes through `edge`.
        const std::size_t a = std::max(j0, lo), b = std::min(j0 + n, hi);
        if (a == j0 && b == j0 + n) {
            kernels::torch_sincos_interleaved(ang.data(), out + 2 * (j0 - lo), n);
        } else {
            edge.resize(2 * kBlock);
            kernels::torch_sincos_interleaved(ang.data(), edge.data(), n);
            std::copy(edge.begin() + 2 * (a - j0), edge.begin() + 2 * (b - j0), out + 2 * (a - lo));
        }
    }
}

// out: (rows, d_model)
void sinusoidal_rows(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t row0,
                     std::int64_t rows, SinCos path) {
    check_range("max_len", max_len, 1, kMaxPosition);
    check_sinusoidal_dims(d_model, base);
    check_range("row0", row0, 0, max_len - 1);
    check_range("rows", rows, 1, max_len - row0);
    check_elements("sinusoidal rows (rows x d_model)", rows * d_model, {"d_model"});
    if (path == SinCos::Exact) return sinusoidal_table_exact(out, max_len, d_model, base, row0, rows);
    // The fast path: a row depends on its position only. Compute the rows as
    // the first rows of a table shifted by row0 (kernels start at position 0).
    const std::int64_t half = d_model / 2;
    std::vector<float> div(static_cast<std::size_t>(half));
    fill_div(div.data(), d_model, base);
    std::vector<float> ang(static_cast<std::size_t>(rows * half));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t i = 0; i < half; ++i)
            ang[static_cast<std::size_t>(r * half + i)] =
                static_cast<float>(row0 + r) * div[static_cast<std::size_t>(i)];
    kernels::sincos_interleaved(ang.data(), out, ang.size());
}

namespace scalar {

// out: (max_len, d_model)
// Vaswani et al. 2017, section 3.5, every step in float32:
//   ang = f32(f32(pos) * div_i);  PE[pos, 2i] = sin(ang), PE[pos, 2i+1] = cos(ang)
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base) {
    const std::int64_t half = d_model / 2;
    std::vector<float> div(static_cast<std::size_t>(half));
    fill_div(div.data(), d_model, base);
    for (std::int64_t pos = 0; pos < max_len; ++pos) {
        float* row = out + pos * d_model;
        for (std::int64_t i = 0; i < half; ++i) {
            const float ang = static_cast<float>(pos) * div[i];
            row[2 * i] = std::sin(ang);
            row[2 * i + 1] = std::cos(ang);
        }
    }
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {

// out: (max_len, d_model)
// Works on blocks of rows, so that narrow tables (d_model 2, 4, ...) still
// feed the kernel long runs. Within a block, angle j = (pos - p0) * half + i
// lands in out[p0 * d_model + 2j] (sin) and [... + 2j + 1] (cos): the whole
// block is one flat run of interleaved pairs.
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base) {
    const std::size_t half = static_cast<std::size_t>(d_model / 2);
    const std::size_t full = half - half % kLanes;
    const std::int64_t block_rows = static_cast<std::int64_t>(std::max<std::size_t>(1, 4096 / half));
    std::vector<float> div(half), ang(static_cast<std::size_t>(block_rows) * half);
    fill_div(div.data(), d_model, base);
    for (std::int64_t p0 = 0; p0 < max_len; p0 += block_rows) {
        const std::int64_t rows = std::min(block_rows, max_len - p0);

        // pass 1: the block's angles, each one float32 product as in PyTorch
        for (std::int64_t r = 0; r < rows; ++r) {
            const float p = static_cast<float>(p0 + r);
            const batch_f pv(p);
            float* a = ang.data() + static_cast<std::size_t>(r) * half;
            for (std::size_t i = 0; i < full; i += kLanes)
                (pv * xsimd::load_unaligned(div.data() + i)).store_unaligned(a + i);
            for (std::size_t i = full; i < half; ++i) a[i] = p * div[i];
        }

        // pass 2: sin and cos of all of them, written interleaved
        sincos_interleaved(ang.data(), out + p0 * d_model, static_cast<std::size_t>(rows) * half);
    }
}

}  // namespace simd
#endif

}  // namespace posenc
