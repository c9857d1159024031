// check: the argument checks every concept uses, and the exact wording of
// their messages (the page shows them to the learner as they are).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "caps.h"
#include "alibi.h"
#include "check.h"
#include "rope.h"
#include "sinusoidal.h"
#include "t5_bias.h"
#include "errors.h"

using namespace posenc;

TEST_CASE("format_number gives the shortest form that reads back", "[check]") {
    REQUIRE(format_number(0.0) == "0");
    REQUIRE(format_number(-0.0) == "-0");
    REQUIRE(format_number(2.5) == "2.5");
    REQUIRE(format_number(-1.0) == "-1");
    REQUIRE(format_number(0.1) == "0.1");
    REQUIRE(format_number(123456789.0) == "123456789");
    REQUIRE(format_number(1.0 / 3.0) == "0.3333333333333333");
    REQUIRE(format_number(0.1 + 0.2) == "0.30000000000000004");
    REQUIRE(format_number(65536.0) == "65536");
    REQUIRE(format_number(1e20) == "100000000000000000000");  // as JS prints it
    REQUIRE(format_number(1.5e-7) == "1.5e-7");
    REQUIRE(format_number(DBL_MAX) == "1.7976931348623157e+308");
    REQUIRE(format_number(5e-324) == "5e-324");
    REQUIRE(format_number(NAN) == "NaN");
    REQUIRE(format_number(INFINITY) == "Infinity");
    REQUIRE(format_number(-INFINITY) == "-Infinity");
    // every value reads back exactly
    for (double x : {M_PI, -M_E, 1e-300, 6.02214076e23, 0.5403023058681398, 2.220446049250313e-16})
        REQUIRE(std::strtod(format_number(x).c_str(), nullptr) == x);
}

// Messages reach JS users: numbers read as JS prints them.
TEST_CASE("format_number prints like JavaScript", "[check]") {
    CHECK(format_number(10000.0) == "10000");
    CHECK(format_number(2.5) == "2.5");
    CHECK(format_number(0.1) == "0.1");
    CHECK(format_number(1e-6) == "0.000001");
    CHECK(format_number(1.5e-7) == "1.5e-7");
    CHECK(format_number(1e21) == "1e+21");
    CHECK(format_number(-0.000123) == "-0.000123");
    CHECK(format_number(1e300) == "1e+300");
    CHECK(format_number(-100.0) == "-100");
    CHECK(format_number(500000.0) == "500000");
}

TEST_CASE("check_range accepts both ends and names the rule otherwise", "[check]") {
    REQUIRE_NOTHROW(check_range("heads", 1, 1, 1024));
    REQUIRE_NOTHROW(check_range("heads", 1024, 1, 1024));
    REQUIRE_THROWS_AS(check_range("heads", 0, 1, 1024), RangeError);
    REQUIRE_THROWS_WITH(check_range("heads", 0, 1, 1024), "heads must be between 1 and 1024, got 0");
    REQUIRE_THROWS_WITH(check_range("heads", 1025, 1, 1024), "heads must be between 1 and 1024, got 1025");
    REQUIRE_THROWS_WITH(check_range("shift", -5, -4, 4), "shift must be between -4 and 4, got -5");
    const auto big = std::numeric_limits<std::int64_t>::max();
    REQUIRE_THROWS_WITH(check_range("max_len", big, 1, kMaxPosition),
                        "max_len must be between 1 and 16777216, got 9223372036854775807");
}

TEST_CASE("check_finite refuses NaN and infinities", "[check]") {
    REQUIRE_NOTHROW(check_finite("factor", 0.0));
    REQUIRE_NOTHROW(check_finite("factor", -DBL_MAX));
    REQUIRE_THROWS_AS(check_finite("factor", NAN), RangeError);
    REQUIRE_THROWS_WITH(check_finite("factor", NAN), "factor must be a finite number, got NaN");
    REQUIRE_THROWS_WITH(check_finite("factor", INFINITY), "factor must be a finite number, got Infinity");
    REQUIRE_THROWS_WITH(check_finite("factor", -INFINITY), "factor must be a finite number, got -Infinity");
}

TEST_CASE("check_positive wants a finite number above 0", "[check]") {
    REQUIRE_NOTHROW(check_positive("base", 10000.0));
    REQUIRE_NOTHROW(check_positive("base", 5e-324));
    REQUIRE_THROWS_AS(check_positive("base", 0.0), RangeError);
    REQUIRE_THROWS_WITH(check_positive("base", 0.0), "base must be a finite number greater than 0, got 0");
    REQUIRE_THROWS_WITH(check_positive("base", -0.0), "base must be a finite number greater than 0, got -0");
    REQUIRE_THROWS_WITH(check_positive("base", -2.5), "base must be a finite number greater than 0, got -2.5");
    REQUIRE_THROWS_WITH(check_positive("base", NAN), "base must be a finite number greater than 0, got NaN");
    REQUIRE_THROWS_WITH(check_positive("base", INFINITY), "base must be a finite number greater than 0, got Infinity");
}

TEST_CASE("check_elements holds outputs to the cap", "[check]") {
    REQUIRE(kMaxElements == 16777216);
    REQUIRE_NOTHROW(check_elements("table", 0));
    REQUIRE_NOTHROW(check_elements("table", kMaxElements));
    REQUIRE_THROWS_AS(check_elements("table", kMaxElements + 1), RangeError);
    REQUIRE_THROWS_WITH(check_elements("table", kMaxElements + 1),
                        "table would hold 16777217 values, more than the cap of 16777216");
    REQUIRE_THROWS_WITH(check_elements("attention weights", std::int64_t{8192} * 8192 * 1024),
                        "attention weights would hold 68719476736 values, more than the cap of 16777216");
}

namespace {

// The error a call throws, for its data.
template <class F>
Error caught(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    FAIL("no error was thrown");
    return Error("");
}

std::vector<std::string> names_of(const Error& e) {
    std::vector<std::string> out;
    for (int i = 0; i < e.name_count; ++i)
        if (e.names[i]) out.push_back(e.names[i]);
    return out;
}

std::vector<double> values_of(const Error& e) {
    return {e.values, e.values + e.value_count};
}

}  // namespace

TEST_CASE("errors carry the argument names they mention and the values, as data", "[check][errors]") {
    SECTION("a check on a named argument names it, with the value and the bounds") {
        const Error e = caught([] { check_range("d_model", 0, 2, 8192); });
        REQUIRE(names_of(e) == std::vector<std::string>{"d_model"});
        REQUIRE(values_of(e) == std::vector<double>{0, 2, 8192});
        const Error f = caught([] { check_positive("scaling.beta_fast", -1.0); });
        REQUIRE(names_of(f) == std::vector<std::string>{"scaling.beta_fast"});
        REQUIRE(values_of(f) == std::vector<double>{-1.0});
    }
    SECTION("a description is not a name; the names it mentions are given") {
        REQUIRE(names_of(caught([] { check_range("number of positions", -1, 0, 5); })).empty());
        const Error e =
            caught([] { check_elements("alibi bias (heads * seq_len * seq_len)", kMaxElements + 1, {"seq_len"}); });
        REQUIRE(names_of(e) == std::vector<std::string>{"seq_len"});
        REQUIRE(values_of(e) == std::vector<double>{double(kMaxElements + 1), double(kMaxElements)});
    }
    SECTION("every snake_case argument a core message mentions is among its names") {
        // what posenc.js respells is exactly `names`: a name missing here would
        // reach a JS caller in C++ spelling. div_term and max_exact are the
        // PyTorch snippet's and HF's own variables, not arguments.
        const std::regex snake(R"((?:scaling\.)?[a-z]+(?:_[a-z0-9]+)+)");
        std::vector<float> out(64);
        const double pos[] = {0, 1};
        RopeScaling yarn;
        yarn.type = RopeScaling::Type::Yarn;
        yarn.factor = 4;
        yarn.original_max_positions = 2048;
        yarn.beta_fast = 1;
        yarn.beta_slow = 32;
        const std::vector<std::function<void()>> calls = {
            [&] { sinusoidal_table(out.data(), 2, 7, 10000.0); },
            [&] { sinusoidal_table(out.data(), 20000, 1024, 10000.0); },
            [&] {
                std::int32_t b[4];
                t5_buckets(b, 2, 2, true, 32, 4);
            },
            [&] {
                std::int32_t b[4];
                t5_buckets(b, 2, 2, true, 31, 128);
            },
            [&] { rope_apply(out.data(), out.data(), 2, 8, pos, 10000.0, RopeConvention::Half, 5); },
            [&] { rope_apply(out.data(), out.data(), 2, 8, pos, 10000.0, RopeConvention::Half, 8, yarn); },
            [&] { alibi_bias(out.data(), 32, 1024, false); },
        };
        for (const auto& call : calls) {
            const Error e = caught(call);
            const std::string message = e.what();
            const std::vector<std::string> names = names_of(e);
            INFO(message);
            for (std::sregex_iterator it(message.begin(), message.end(), snake), end; it != end; ++it) {
                const std::string word = it->str();
                if (word == "div_term" || word == "max_exact") continue;
                INFO(word);
                REQUIRE(std::find(names.begin(), names.end(), word) != names.end());
            }
        }
    }
}
