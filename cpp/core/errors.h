// Errors the core throws, as data. Each carries:
//   its class   RangeError (a number outside its allowed range), TypeError
//               (an argument of the wrong kind) or IndexError (a lookup
//               outside a table, nn.Embedding's words)
//   what()      the message, naming arguments in their one canonical
//               spelling: the C++ and PyTorch one, snake_case (d_model)
//   names       every argument name the message mentions, in that spelling
//   values      the numbers the rule was about, in the order the message
//               gives them (the value first, then any bounds)
// The bindings hand all of it to JavaScript, where posenc.js respells
// exactly `names` (d_model -> dModel) and never reads the text for them.
#pragma once
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace posenc {

struct Error : std::runtime_error {
    // Fixed arrays of string literals and numbers, not vectors of strings:
    // a throw site then costs a few bytes of code, not an allocation's worth
    // (the lesson modules have a size budget).
    static constexpr int kMaxNames = 6, kMaxValues = 4;
    const char* names[kMaxNames] = {};  // string literals: the core's names
    double values[kMaxValues] = {};
    int name_count = 0, value_count = 0;

    // (out of line, in errors.cpp: one copy of the loops, not one per throw)
    explicit Error(const std::string& message, std::initializer_list<const char*> names_ = {},
                   std::initializer_list<double> values_ = {});
    // Another error's data under a new message (a prefix saying which option).
    Error(const std::string& message, const Error& data);
};

struct RangeError : Error {
    using Error::Error;
};

struct TypeError : Error {
    using Error::Error;
};

// JavaScript has no IndexError: the bindings make it a RangeError whose
// message keeps PyTorch's "index out of range in self".
struct IndexError : Error {
    using Error::Error;
};

}  // namespace posenc
