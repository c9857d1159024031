#include "check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "errors.h"
#include "caps.h"

namespace posenc {

std::string format_number(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    char buf[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
}

void check_range(const char* what, std::int64_t n, std::int64_t lo, std::int64_t hi) {
    if (n < lo || n > hi)
        throw RangeError(std::string(what) + " must be between " + std::to_string(lo) +
                         " and " + std::to_string(hi) + ", got " + std::to_string(n));
}

void check_finite(const char* what, double x) {
    if (!std::isfinite(x))
        throw RangeError(std::string(what) + " must be a finite number, got " + format_number(x));
}

void check_positive(const char* what, double x) {
    if (!std::isfinite(x) || !(x > 0))
        throw RangeError(std::string(what) + " must be a finite number greater than 0, got " +
                         format_number(x));
}

void check_elements(const char* what, std::int64_t elements) {
    if (elements > kMaxElements)
        throw RangeError(std::string(what) + " would hold " + std::to_string(elements) +
                         " values, more than the cap of " + std::to_string(kMaxElements));
}

}  // namespace posenc
