// Learned absolute position table (BERT, GPT-2): nn.Embedding(rows, d_model)
// looked up at each position. Nothing exists past the last row: position
// `rows` of a `rows`-row table is PyTorch's
//   IndexError: index out of range in self
#pragma once
#include <cstdint>

namespace posenc {

// table: (rows, d_model); positions: (n); out: (n, d_model).
// Throws IndexError "index out of range in self: position P is outside a
// table of R rows (valid positions are 0..R-1)" for a position < 0 or >= rows,
// RangeError for a non-integer or non-finite position or bad sizes.
void learned_lookup(float* out, const float* table, std::int64_t rows, std::int64_t d_model, const double* positions,
                    std::int64_t n);

}  // namespace posenc
