// Argument checks shared by every concept. Each throws the error type of
// errors.h with a message that names the argument, the rule and the value,
// and the argument's name (when `what` is one) and the values as data.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "errors.h"

namespace posenc {

// n must lie in [lo, hi]; throws RangeError "<what> must be between lo and hi, got n".
void check_range(const char* what, std::int64_t n, std::int64_t lo, std::int64_t hi);

// x must be finite; throws RangeError "<what> must be a finite number, got x".
void check_finite(const char* what, double x);

// x must be finite and > 0; throws RangeError.
void check_positive(const char* what, double x);

// An output of `elements` values must fit kMaxElements; throws RangeError
// "<what> would hold N values, more than the cap of 16777216". `what`
// describes the output; `names` lists the argument names it mentions
// (errors.h), e.g. {"seq_len"} for "alibi bias (heads * seq_len * seq_len)".
void check_elements(const char* what, std::int64_t elements, std::initializer_list<const char*> names = {});

// The value of E called `name`, where name_of lists the names: name_of(E(0)),
// name_of(E(1)), ... up to nullptr. Throws TypeError "unknown <what> 'x'
// (expected one of 'a', 'b', ...)" naming the argument `arg`.
template <class E>
E check_name(const char* what, const char* arg, const char* name, const char* (*name_of)(E)) {
    const std::string n = name ? name : "";
    std::string expected;
    for (int i = 0; const char* t = name_of(static_cast<E>(i)); ++i) {
        if (n == t) return static_cast<E>(i);
        expected += (i ? ", '" : "'") + std::string(t) + "'";
    }
    throw TypeError("unknown " + std::string(what) + " '" + n + "' (expected one of " + expected + ")", {arg});
}

// Formats a double the way the messages quote it (shortest round-trip form).
std::string format_number(double x);

}  // namespace posenc
