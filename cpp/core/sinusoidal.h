// Sinusoidal position table (Vaswani et al. 2017, "Attention Is All You
// Need", section 3.5), in the form of the PyTorch tutorial / Annotated
// Transformer, every step in float32 as PyTorch does it:
//
//   c      = f32(-ln(base) / d)
//   div_i  = exp(f32(2i) * c)                  i = 0 .. d/2-1  (SLEEF expf)
//   ang    = f32(f32(pos) * div_i)
//   PE[pos, 2i] = sin(ang),  PE[pos, 2i+1] = cos(ang)
//
// Wavelength of pair i: 2*pi / div_i = 2*pi * base^(2i/d).
#pragma once
#include <cstdint>

#include "simd.h"
#include "sleef.h"

namespace posenc {

// Throws RangeError unless d_model is even and in 2..kMaxDim and base is
// finite and > 0 (PyTorch's snippet fails on odd d with a shape error; the
// message says why).
void check_sinusoidal_dims(std::int64_t d_model, double base);

// div: (d_model/2). Checks d_model and base as check_sinusoidal_dims.
void sinusoidal_div(float* div, std::int64_t d_model, double base = 10000.0);

// out: (max_len, d_model) row-major.
// path Exact (the default) gives torch's bits: the tutorial computes
// torch.sin(pos * div) on the whole (max_len, d_model/2) angle tensor, so the
// angles go through torch_sincos as that one flat run. Fast takes the SIMD
// twin (or the scalar one in the scalar build).
// Throws RangeError for max_len outside 1..kMaxPosition, odd or out-of-range
// d_model (PyTorch's snippet fails on odd d with a shape error; we say why),
// base <= 0 or not finite, or an output over kMaxElements.
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base = 10000.0,
                      SinCos path = SinCos::Exact);

// out: (rows, d_model): rows row0 .. row0 + rows - 1 of the (max_len, d_model)
// table. Exact: the bits the whole exact table has, computing only the 8-lane
// groups of angles those rows touch, so a widget can draw a big table on the
// fast path and print a few of its values exactly. Fast: within vecmath's
// contract, not necessarily the fast table's bits (its SIMD batches differ).
// Throws RangeError as sinusoidal_table, and for row0 / rows outside the table.
void sinusoidal_rows(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t row0,
                     std::int64_t rows, SinCos path = SinCos::Exact);

// out: (out_rows, out_cols): the table's picture on out_rows x out_cols
// pixels, each pixel the mean of the cells it covers (box_downsample's spans
// and column means), without the table: a pixel row covering the positions
// [r0, r1), n = r1 - r0 of them, has the closed-form mean (a geometric sum)
//   mean over p of sin(p·θ_i) = D_n(θ_i) · sin(c·θ_i),  cos likewise with cos(c·θ_i)
//   c = (r0 + r1 - 1) / 2,   D_n(θ) = sin(nθ/2) / (n·sin(θ/2))   (D_1 = 1)
// with θ_i the float32 frequencies (sinusoidal_div), the angle f32(c·θ_i)
// and vecmath's sin/cos, so it costs out_rows x d_model/2 sin/cos, not
// max_len x d_model/2 (1024 x 1024 on 444 rows: 2.3 times fewer).
// Accuracy, for angles up to 2^24 (vecmath's domain): a pixel row of one
// position (n = 1) takes the fast table's angle, so it is the exact table's
// row within vecmath's 1.5e-7. Otherwise it is the mean of the real-valued
// table, whose angles p·θ_i the float32 table rounds (by up to 2^-24·p·θ_i
// each) and this rounds once, at the centre: within
// 2^-24·(max_len - 1)·max θ + 1e-6 of the exact means either way. A base so
// small that an angle overflows float32 gives NaN, as the table does.
// Throws RangeError as sinusoidal_table (max_len up to kMaxPosition: the
// table itself is never made), for out_rows, out_cols outside
// 1..kMaxElements, and out_rows x max(out_cols, d_model) over the cap: the
// picture, and its work (out_rows x d_model row means, though it holds only
// a block of them at a time). Defined in sinusoidal_picture.cpp.
void sinusoidal_picture(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t out_rows,
                        std::int64_t out_cols);

// The kernels behind sinusoidal_table (no argument checks: call the public
// one): torch's exact table, and the fast path's twins (simd.h),
// scalar::sinusoidal_table and, in SIMD builds, simd::sinusoidal_table.
// The exact one writes rows row0 .. row0 + rows - 1 into out (rows, d_model).
void sinusoidal_table_exact(float* out, std::int64_t max_len, std::int64_t d_model, double base, std::int64_t row0 = 0,
                            std::int64_t rows = -1);
namespace scalar {
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model, double base);
}  // namespace simd
#endif

}  // namespace posenc
