#include "learned.h"

#include <cmath>
#include <cstring>
#include <string>

#include "caps.h"
#include "check.h"
#include "errors.h"

namespace posenc {


// out: (n, d_model); table: (rows, d_model); positions: (n)
// out[k] = table[positions[k]], nn.Embedding's forward.
void learned_lookup(float* out, const float* table, std::int64_t rows, std::int64_t d_model,
                    const double* positions, std::int64_t n) {
    check_range("rows", rows, 1, kMaxPosition);
    check_range("d_model", d_model, 1, kMaxDim);
    check_elements("table (rows x d_model)", rows * d_model, {"d_model"});
    check_range("number of positions", n, 0, kMaxElements);
    check_elements("lookup output (positions x d_model)", n * d_model, {"d_model"});

    // pass 1: every position, before anything is written. Positions arrive
    // as doubles (JS numbers), so a fraction or NaN is possible here, though
    // not in PyTorch, where indices are integer tensors.
    for (std::int64_t k = 0; k < n; ++k) {
        const double p = positions[k];
        check_finite("position", p);
        if (p != std::floor(p))
            throw RangeError("position must be a whole number, got " + format_number(p), {"position"}, {p});
        if (p < 0 || p >= static_cast<double>(rows))
            throw IndexError("index out of range in self: position " + format_number(p) +
                             " is outside a table of " + std::to_string(rows) +
                             (rows == 1 ? " row" : " rows") + " (valid positions are 0.." +
                             std::to_string(rows - 1) + ")",
                             {"position"}, {p, double(rows)});
    }

    // pass 2: copy the rows
    const auto row_bytes = static_cast<std::size_t>(d_model) * sizeof(float);
    for (std::int64_t k = 0; k < n; ++k) {
        const auto p = static_cast<std::int64_t>(positions[k]);
        std::memcpy(out + k * d_model, table + p * d_model, row_bytes);
    }
}

}  // namespace posenc
