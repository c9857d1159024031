#include "downsample.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "caps.h"
#include "check.h"

namespace posenc {

// [lo[x], hi[x]): the cells pixel x covers (the formula in downsample.h)
void box_spans(std::int64_t pixels, std::int64_t cells, std::vector<std::int64_t>& lo, std::vector<std::int64_t>& hi) {
    lo.resize(static_cast<std::size_t>(pixels));
    hi.resize(static_cast<std::size_t>(pixels));
    for (std::int64_t x = 0; x < pixels; ++x) {
        const auto i = static_cast<std::size_t>(x);
        lo[i] = std::min(cells - 1, x * cells / pixels);
        hi[i] = std::max(lo[i] + 1, std::min(cells, (x + 1) * cells / pixels));
    }
}

void box_downsample(float* out, const float* in, std::int64_t rows, std::int64_t cols, std::int64_t out_rows,
                    std::int64_t out_cols) {
    check_range("rows", rows, 1, kMaxElements);
    check_range("cols", cols, 1, kMaxElements);
    check_elements("table (rows x cols)", rows * cols, {"rows", "cols"});
    check_range("out_rows", out_rows, 1, kMaxElements);
    check_range("out_cols", out_cols, 1, kMaxElements);
    check_elements("downsampled picture (out_rows x out_cols)", out_rows * out_cols, {"out_rows", "out_cols"});

    std::vector<std::int64_t> c0, c1, r0, r1;
    box_spans(out_cols, cols, c0, c1);
    box_spans(out_rows, rows, r0, r1);
    const auto width = static_cast<std::size_t>(out_cols);
    std::vector<float> acc(width);
    for (std::int64_t y = 0; y < out_rows; ++y) {
        float* dst = out + y * out_cols;
        const auto iy = static_cast<std::size_t>(y);
        // a pixel row over the same table rows as the one above: a copy
        if (y > 0 && r0[iy] == r0[iy - 1] && r1[iy] == r1[iy - 1]) {
            std::memcpy(dst, dst - out_cols, width * sizeof(float));
            continue;
        }
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::int64_t r = r0[iy]; r < r1[iy]; ++r) {
            const float* row = in + r * cols;
            for (std::size_t x = 0; x < width; ++x) {
                const std::int64_t a = c0[x], b = c1[x];
                double sum = 0;
                for (std::int64_t c = a; c < b; ++c) sum += row[c];
                acc[x] = static_cast<float>(acc[x] + sum / double(b - a));
            }
        }
        const double n = double(r1[iy] - r0[iy]);
        for (std::size_t x = 0; x < width; ++x) dst[x] = static_cast<float>(acc[x] / n);
    }
}

}  // namespace posenc
