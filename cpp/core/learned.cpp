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
void learned_lookup(float* out, const float* table, std::int64_t rows, std::int64_t d_model, const double* positions,
                    std::int64_t n) {
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
            throw IndexError("index out of range in self: position " + format_number(p) + " is outside a table of " +
                                 std::to_string(rows) + (rows == 1 ? " row" : " rows") + " (valid positions are 0.." +
                                 std::to_string(rows - 1) + ")",
                             {"position"}, {p, double(rows)});
    }

    // pass 2: copy the rows, a run of consecutive positions (the usual
    // arange(n)) as one block: under wasm without bulk memory each memcpy of
    // 512 bytes or more is a call out to JS, so one per row cost more than
    // the copying at d_model = 1024
    const auto row_bytes = static_cast<std::size_t>(d_model) * sizeof(float);
    for (std::int64_t k = 0; k < n;) {
        const auto p = static_cast<std::int64_t>(positions[k]);
        std::int64_t run = 1;
        while (k + run < n && positions[k + run] == static_cast<double>(p + run)) ++run;
        std::memcpy(out + k * d_model, table + p * d_model, static_cast<std::size_t>(run) * row_bytes);
        k += run;
    }
}

}  // namespace posenc
