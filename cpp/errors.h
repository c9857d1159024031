// Errors the core throws. The bindings turn each into the JS error of the
// same name (IndexError becomes a RangeError whose message starts with
// PyTorch's "index out of range in self").
#pragma once
#include <stdexcept>
#include <string>

namespace posenc {

// A number outside its allowed range: a size, a factor, a base.
struct RangeError : std::runtime_error {
    explicit RangeError(const std::string& m) : std::runtime_error(m) {}
};

// An argument of the wrong kind: an unknown convention, a length mismatch.
struct TypeError : std::runtime_error {
    explicit TypeError(const std::string& m) : std::runtime_error(m) {}
};

// A lookup outside a table (nn.Embedding's IndexError).
struct IndexError : std::runtime_error {
    explicit IndexError(const std::string& m) : std::runtime_error(m) {}
};

}  // namespace posenc
