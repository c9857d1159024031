// Box downsampling: a (rows, cols) table drawn on an (out_rows, out_cols)
// grid of pixels, for pictures of tables larger than the screen (a 1024 x
// 1024 sinusoidal table on a few hundred pixels). Averaging, not picking
// every k-th cell, keeps fine stripes from aliasing into moiré.
#pragma once
#include <cstdint>
#include <vector>

namespace posenc {

// in: (rows, cols); out: (out_rows, out_cols); row-major.
//
// Pixel column x covers the cells [c0(x), c1(x)) with
//   c0(x) = min(cols - 1, floor(x * cols / out_cols))
//   c1(x) = max(c0(x) + 1, min(cols, floor((x + 1) * cols / out_cols)))
// and pixel row y the rows [r0(y), r1(y)) likewise, so every cell covers
// whole pixels and, with more pixels than cells, a cell spans several
// (nearest). Then
//   out[y, x] = mean over r in [r0(y), r1(y)) of (mean over c in [c0(x), c1(x)) of in[r, c])
// each inner mean in double, the running sum over rows in float32.
// Throws RangeError for a size outside 1..kMaxElements or an output over the cap.
void box_downsample(float* out, const float* in, std::int64_t rows, std::int64_t cols, std::int64_t out_rows,
                    std::int64_t out_cols);

// [lo[x], hi[x]): the cells each of `pixels` pixels covers out of `cells`,
// c0 and c1 above (also the rows of a pixel row). No checks: sizes >= 1.
void box_spans(std::int64_t pixels, std::int64_t cells, std::vector<std::int64_t>& lo, std::vector<std::int64_t>& hi);

}  // namespace posenc
