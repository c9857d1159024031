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

// div: (d_model/2). Checks d_model (even, 2..kMaxDim) and base (> 0).
void sinusoidal_div(float* div, std::int64_t d_model, double base = 10000.0);

// out: (max_len, d_model) row-major.
// path Exact (the default) gives torch's bits: the tutorial computes
// torch.sin(pos * div) on the whole (max_len, d_model/2) angle tensor, so the
// angles go through torch_sincos as that one flat run. Fast takes the SIMD
// twin (or the scalar one in the scalar build).
// Throws RangeError for max_len outside 1..kMaxPosition, odd or out-of-range
// d_model (PyTorch's snippet fails on odd d with a shape error; we say why),
// base <= 0 or not finite, or an output over kMaxElements.
void sinusoidal_table(float* out, std::int64_t max_len, std::int64_t d_model,
                      double base = 10000.0, SinCos path = SinCos::Exact);

// out: (rows, d_model): rows row0 .. row0 + rows - 1 of the (max_len, d_model)
// table. Exact: the bits the whole exact table has, computing only the 8-lane
// groups of angles those rows touch, so a widget can draw a big table on the
// fast path and print a few of its values exactly. Fast: within vecmath's
// contract, not necessarily the fast table's bits (its SIMD batches differ).
// Throws RangeError as sinusoidal_table, and for row0 / rows outside the table.
void sinusoidal_rows(float* out, std::int64_t max_len, std::int64_t d_model, double base,
                     std::int64_t row0, std::int64_t rows, SinCos path = SinCos::Exact);

// The kernels behind sinusoidal_table (no argument checks: call the public
// one): torch's exact table, and the fast path's scalar and SIMD twins.
// The exact one writes rows row0 .. row0 + rows - 1 into out (rows, d_model).
void sinusoidal_table_exact(float* out, std::int64_t max_len, std::int64_t d_model, double base,
                            std::int64_t row0 = 0, std::int64_t rows = -1);
void sinusoidal_table_scalar(float* out, std::int64_t max_len, std::int64_t d_model, double base);
#if POSENC_SIMD
void sinusoidal_table_simd(float* out, std::int64_t max_len, std::int64_t d_model, double base);
#endif

}  // namespace posenc
