// Argument checks shared by every concept. Each throws the error type of
// errors.h with a message that names the argument, the rule and the value,
// and the argument's name (when `what` is one) and the values as data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

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

// An enumeration's one list is its name table: a function name_of(E) that
// returns the name of E(0), E(1), ... and nullptr past the last (name_in
// below), so a value is valid exactly when it has a name. The parser, the
// checks, bindings.cpp's buildInfo().names and the tests all read that table;
// nothing else lists the values.

// names[e], or nullptr when e is past the table (or negative): the body of
// every name_of function.
template <class E, std::size_t N>
const char* name_in(const char* const (&names)[N], E e) {
    const auto i = static_cast<std::size_t>(e);
    return i < N ? names[i] : nullptr;
}

// Every value of E that name_of names, in order.
template <class E>
std::vector<E> named_values(const char* (*name_of)(E)) {
    std::vector<E> values;
    for (int i = 0; name_of(static_cast<E>(i)); ++i) values.push_back(static_cast<E>(i));
    return values;
}

// A table's names read into a list, so that the work on them (compares,
// messages) is one function in check.cpp, not a copy per enumeration.
struct NameList {
    static constexpr int kMax = 16;
    const char* names[kMax] = {};
    int count = 0;
};
[[noreturn]] void throw_name_table_too_long();
template <class E>
NameList name_list(const char* (*name_of)(E)) {
    NameList list;
    while (const char* n = name_of(static_cast<E>(list.count))) {
        if (list.count == NameList::kMax) throw_name_table_too_long();
        list.names[list.count++] = n;
    }
    return list;
}

// "'a', 'b', 'c'": the names as the messages list them.
std::string quoted_names(const NameList& list);
// The index of `name` in the list. Throws TypeError "unknown <what> 'x'
// (expected one of 'a', 'b', ...)" naming the argument `arg`.
int find_name(const NameList& list, const char* what, const char* arg, const char* name);
// Throws TypeError "<arg> must be one of 'a', 'b', ..." naming `arg`.
[[noreturn]] void throw_not_named(const NameList& list, const char* arg);

// The value of E called `name`; find_name's TypeError for any other.
template <class E>
E check_name(const char* what, const char* arg, const char* name, const char* (*name_of)(E)) {
    return static_cast<E>(find_name(name_list(name_of), what, arg, name));
}

// e must be a value name_of names: for a field set as a value, not parsed
// (a TrainerConfig's encoding, bindings.cpp's fields for a name it does not
// know); throw_not_named's TypeError otherwise.
template <class E>
void check_named(const char* arg, E e, const char* (*name_of)(E)) {
    if (!name_of(e)) throw_not_named(name_list(name_of), arg);
}

// Formats a double the way the messages quote it (shortest round-trip form).
std::string format_number(double x);

}  // namespace posenc
