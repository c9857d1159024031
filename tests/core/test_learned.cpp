// learned: nn.Embedding's lookup, its IndexError past the last row, and
// PyTorch's own outputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "errors.h"
#include "fixture.h"
#include "learned.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

namespace {

// A rows x d table whose entry (r, j) is r + j / 1000, so a wrong row shows.
std::vector<float> make_table(std::int64_t rows, std::int64_t d) {
    std::vector<float> t(static_cast<std::size_t>(rows * d));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < d; ++j) t[static_cast<std::size_t>(r * d + j)] = float(r) + float(j) / 1000;
    return t;
}

void lookup_one(std::int64_t rows, std::int64_t d, double position) {
    const auto table = make_table(rows, d);
    std::vector<float> out(static_cast<std::size_t>(d));
    learned_lookup(out.data(), table.data(), rows, d, &position, 1);
}

}  // namespace

TEST_CASE("learned lookup copies the rows at the positions", "[learned]") {
    for (std::int64_t d : kTailSizes) {
        const std::int64_t rows = 20;
        const auto table = make_table(rows, d);
        // runs of consecutive positions (copied as one block) at the start, in
        // the middle and at the end, broken by a repeat, a step back and a gap
        const std::vector<double> pos = {0, 1, 2, 19, 3, 3, 4, 5, 7, 0, 8, 9, 10, 17, 18, 19};
        std::vector<float> out(pos.size() * static_cast<std::size_t>(d));
        learned_lookup(out.data(), table.data(), rows, d, pos.data(), static_cast<std::int64_t>(pos.size()));
        for (std::size_t k = 0; k < pos.size(); ++k)
            for (std::int64_t j = 0; j < d; ++j)
                REQUIRE(out[k * static_cast<std::size_t>(d) + static_cast<std::size_t>(j)] ==
                        float(pos[k]) + float(j) / 1000);
    }
    // no positions: nothing to do, nothing read
    learned_lookup(nullptr, nullptr, 4, 2, nullptr, 0);
}

TEST_CASE("learned lookup: nothing exists past the last row", "[learned]") {
    // position == rows is PyTorch's IndexError, message and all
    REQUIRE_THROWS_AS(lookup_one(512, 8, 512), IndexError);
    REQUIRE_THROWS_WITH(lookup_one(512, 8, 512), Catch::StartsWith("index out of range in self") &&
                                                     Catch::Contains("position 512 is outside a table of 512 rows") &&
                                                     Catch::Contains("valid positions are 0..511"));
    // a one-row table says "row", not "rows"
    REQUIRE_THROWS_WITH(lookup_one(1, 4, 1), Catch::Contains("outside a table of 1 row (valid positions are 0..0)"));
    REQUIRE_THROWS_AS(lookup_one(5, 3, -1), IndexError);
    REQUIRE_THROWS_WITH(lookup_one(5, 3, -1), Catch::StartsWith("index out of range in self: position -1 "));
    REQUIRE_THROWS_WITH(lookup_one(512, 3, 1000), Catch::Contains("position 1000 "));
    REQUIRE_THROWS_WITH(lookup_one(5, 3, 1e20), Catch::Contains("position 100000000000000000000 "));
    // the last row is fine
    REQUIRE_NOTHROW(lookup_one(512, 8, 511));
}

TEST_CASE("learned lookup: 600 positions in a 512-row table fail at 512, writing nothing", "[learned]") {
    const std::int64_t rows = 512, d = 16;
    const auto table = make_table(rows, d);
    std::vector<double> pos(600);
    for (std::size_t k = 0; k < pos.size(); ++k) pos[k] = double(k);
    std::vector<float> out(pos.size() * d, -7.0f);
    REQUIRE_THROWS_WITH(learned_lookup(out.data(), table.data(), rows, d, pos.data(), 600),
                        Catch::StartsWith("index out of range in self: position 512 "));
    std::size_t touched = 0;
    for (float v : out) touched += v != -7.0f;
    REQUIRE(touched == 0);
}

TEST_CASE("learned lookup: positions that are not whole numbers", "[learned]") {
    REQUIRE_THROWS_AS(lookup_one(5, 3, 2.5), RangeError);
    REQUIRE_THROWS_WITH(lookup_one(5, 3, 2.5), Catch::Contains("position must be a whole number, got 2.5"));
    REQUIRE_THROWS_WITH(lookup_one(5, 3, -0.5), Catch::Contains("got -0.5"));
    REQUIRE_THROWS_AS(lookup_one(5, 3, NAN), RangeError);
    REQUIRE_THROWS_WITH(lookup_one(5, 3, NAN), Catch::Contains("position must be a finite number, got NaN"));
    REQUIRE_THROWS_WITH(lookup_one(5, 3, INFINITY), Catch::Contains("got Infinity"));
}

TEST_CASE("learned lookup: bad sizes", "[learned]") {
    float f = 0;
    const double p = 0;
    REQUIRE_THROWS_AS(learned_lookup(&f, &f, 0, 1, &p, 1), RangeError);
    REQUIRE_THROWS_WITH(learned_lookup(&f, &f, 0, 1, &p, 1), Catch::Contains("rows must be between 1 and"));
    REQUIRE_THROWS_WITH(learned_lookup(&f, &f, 1, 0, &p, 1),
                        Catch::Contains("d_model must be between 1 and 65536, got 0"));
    REQUIRE_THROWS_WITH(learned_lookup(&f, &f, 1, 1, &p, -1), Catch::Contains("got -1"));
    REQUIRE_THROWS_WITH(learned_lookup(nullptr, nullptr, 1 << 20, 32, &p, 1),
                        Catch::Contains("table (rows x d_model) would hold 33554432 values"));
    REQUIRE_THROWS_WITH(learned_lookup(nullptr, nullptr, 4, 4096, &p, 8192),
                        Catch::Contains("would hold 33554432 values, more than the cap of 16777216"));
}

TEST_CASE("learned lookup matches nn.Embedding", "[learned]") {
    const auto cases = fixture::all("learned");
    for (const auto& fc : cases) {
        const std::int64_t rows = fc.integer("rows"), d = fc.integer("d_model");
        const auto table = fc.tensor("table").f32();
        const auto& pos = fc.tensor("positions").values;
        const auto want = fc.tensor("out").f32();
        std::vector<float> got(want.size());
        learned_lookup(got.data(), table.data(), rows, d, pos.data(), static_cast<std::int64_t>(pos.size()));
        INFO(fc.file);
        REQUIRE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("learned lookup fails where nn.Embedding fails", "[learned]") {
    const auto cases = fixture::all("learned_error");
    for (const auto& fc : cases) {
        std::string message = fc.str("message");
        for (char& ch : message)
            if (ch == '_') ch = ' ';
        INFO(fc.file);
        REQUIRE_THROWS_AS(lookup_one(fc.integer("rows"), fc.integer("d_model"), fc.num("position")), IndexError);
        REQUIRE_THROWS_WITH(lookup_one(fc.integer("rows"), fc.integer("d_model"), fc.num("position")),
                            Catch::StartsWith(message));
    }
}
