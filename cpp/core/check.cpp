#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

#include "errors.h"
#include "caps.h"

namespace posenc {

// The way JavaScript prints a number (the messages reach JS users): whole
// numbers in full (10000, not 1e+04), fixed notation from 1e-6 to 1e21,
// otherwise the shortest exponent form (1.5e-7).
std::string format_number(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (x == 0) return std::signbit(x) ? "-0" : "0";  // -0 said explicitly: it can be the bug
    char buf[64];
    int precision = 1;
    for (; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*e", precision - 1, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    const double magnitude = std::fabs(x);
    if (magnitude >= 1e-6 && magnitude < 1e21) {
        const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
        const int decimals = std::max(0, precision - 1 - exponent);
        std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
        if (std::strtod(buf, nullptr) != x)  // log10 landed one off at a power of ten
            std::snprintf(buf, sizeof buf, "%.*f", decimals + 1, x);
        return buf;
    }
    // Exponent form: drop the '+' and leading zeros of the exponent, as JS does.
    std::string s = buf;
    const auto e = s.find('e');
    std::string mantissa = s.substr(0, e), exp = s.substr(e + 1);
    const bool negative = exp[0] == '-';
    exp = exp.substr(1);
    exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
    return mantissa + "e" + (negative ? "-" : "+") + exp;
}

// `what` is an argument's name (d_model, scaling.factor, positions[3]) or a
// description (number of positions): only a name goes into the error's names.
static bool is_name(const char* what) {
    for (const char* c = what; *c; ++c)
        if (*c == ' ') return false;
    return true;
}

void check_range(const char* what, std::int64_t n, std::int64_t lo, std::int64_t hi) {
    if (n < lo || n > hi)
        throw RangeError(std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                             ", got " + std::to_string(n),
                         {is_name(what) ? what : nullptr}, {double(n), double(lo), double(hi)});
}

void check_finite(const char* what, double x) {
    if (!std::isfinite(x))
        throw RangeError(std::string(what) + " must be a finite number, got " + format_number(x),
                         {is_name(what) ? what : nullptr}, {x});
}

void check_positive(const char* what, double x) {
    if (!std::isfinite(x) || !(x > 0))
        throw RangeError(std::string(what) + " must be a finite number greater than 0, got " + format_number(x),
                         {is_name(what) ? what : nullptr}, {x});
}

void check_elements(const char* what, std::int64_t elements, std::initializer_list<const char*> names) {
    if (elements > kMaxElements)
        throw RangeError(std::string(what) + " would hold " + std::to_string(elements) +
                             " values, more than the cap of " + std::to_string(kMaxElements),
                         names, {double(elements), double(kMaxElements)});
}

void throw_name_table_too_long() {
    throw std::length_error("a name table longer than NameList::kMax (check.h)");
}

std::string quoted_names(const NameList& list) {
    std::string quoted;
    for (int i = 0; i < list.count; ++i) quoted += (i ? ", '" : "'") + std::string(list.names[i]) + "'";
    return quoted;
}

int find_name(const NameList& list, const char* what, const char* arg, const char* name) {
    const std::string n = name ? name : "";
    for (int i = 0; i < list.count; ++i)
        if (n == list.names[i]) return i;
    throw TypeError("unknown " + std::string(what) + " '" + n + "' (expected one of " + quoted_names(list) + ")",
                    {arg});
}

void throw_not_named(const NameList& list, const char* arg) {
    throw TypeError(std::string(arg) + " must be one of " + quoted_names(list), {arg});
}

}  // namespace posenc
