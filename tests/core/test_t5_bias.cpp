#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "errors.h"
#include "fixture.h"
#include "t5_bias.h"

using namespace posenc;

namespace {

// Where the bucket changes as |rel| grows from 0 to 2000 with HF's defaults
// (num_buckets 32, max_distance 128), as PyTorch 1.13 computes
// _relative_position_bucket: (first rel, bucket), the bucket holding until
// the next entry. The last entry is the saturated bucket nb - 1.
using Steps = std::vector<std::pair<std::int64_t, std::int32_t>>;
const Steps kBidirFuture = {{0, 0},  {1, 17},  {2, 18},  {3, 19},  {4, 20},  {5, 21},  {6, 22},  {7, 23},
                            {8, 24}, {12, 25}, {16, 26}, {23, 27}, {32, 28}, {46, 29}, {64, 30}, {91, 31}};
const Steps kBidirPast = {{0, 0},  {-1, 1},  {-2, 2},   {-3, 3},   {-4, 4},   {-5, 5},   {-6, 6},   {-7, 7},
                          {-8, 8}, {-12, 9}, {-16, 10}, {-23, 11}, {-32, 12}, {-46, 13}, {-64, 14}, {-91, 15}};
const Steps kCausalPast = {{0, 0},    {-1, 1},   {-2, 2},   {-3, 3},   {-4, 4},   {-5, 5},   {-6, 6},   {-7, 7},
                           {-8, 8},   {-9, 9},   {-10, 10}, {-11, 11}, {-12, 12}, {-13, 13}, {-14, 14}, {-15, 15},
                           {-16, 16}, {-19, 17}, {-21, 18}, {-24, 19}, {-27, 20}, {-31, 21}, {-35, 22}, {-40, 23},
                           {-46, 24}, {-52, 25}, {-59, 26}, {-67, 27}, {-77, 28}, {-87, 29}, {-99, 30}, {-113, 31}};

// Walks rel = 0, sign, 2*sign, ... sign*2000 and checks every bucket against the steps.
void check_steps(const Steps& steps, std::int64_t sign, bool bidirectional) {
    std::size_t s = 0;
    for (std::int64_t d = 0; d <= 2000; ++d) {
        const std::int64_t rel = sign * d;
        if (s + 1 < steps.size() && steps[s + 1].first == rel) ++s;
        INFO("rel " << rel);
        REQUIRE(t5_bucket(rel, bidirectional, 32, 128) == steps[s].second);
    }
    REQUIRE(s + 1 == steps.size());
}

}  // namespace

TEST_CASE("t5 buckets match HF for distances 0..2000, both directions", "[t5_bias]") {
    SECTION("bidirectional, keys after the query") {
        check_steps(kBidirFuture, 1, true);
    }
    SECTION("bidirectional, keys before the query") {
        check_steps(kBidirPast, -1, true);
    }
    SECTION("causal, keys before the query") {
        check_steps(kCausalPast, -1, false);
    }
    SECTION("causal, keys after the query all share bucket 0") {
        for (std::int64_t rel = 0; rel <= 2000; ++rel) REQUIRE(t5_bucket(rel, false, 32, 128) == 0);
    }
}

TEST_CASE("t5 buckets saturate at nb - 1 far past max_distance", "[t5_bias]") {
    for (std::int64_t rel : {std::int64_t{128}, std::int64_t{5000}, std::int64_t{1} << 24}) {
        REQUIRE(t5_bucket(rel, true, 32, 128) == 31);
        REQUIRE(t5_bucket(-rel, true, 32, 128) == 15);
        REQUIRE(t5_bucket(-rel, false, 32, 128) == 31);
        REQUIRE(t5_bucket(rel, false, 32, 128) == 0);
    }
    // The smallest tables: one exact bucket per direction, then straight to the last.
    REQUIRE(t5_bucket(0, true, 4, 2) == 0);
    REQUIRE(t5_bucket(1, true, 4, 2) == 3);
    REQUIRE(t5_bucket(-1, true, 4, 2) == 1);
    REQUIRE(t5_bucket(-1, false, 2, 2) == 1);
    REQUIRE(t5_bucket(-100, false, 2, 2) == 1);
}

TEST_CASE("t5_buckets fills out[i, j] = t5_bucket(j - i)", "[t5_bias]") {
    for (bool bidirectional : {true, false}) {
        for (auto [q, k] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 17}, {17, 3}, {64, 64}, {5, 300}}) {
            std::vector<std::int32_t> out(static_cast<std::size_t>(q * k), -1);
            t5_buckets(out.data(), q, k, bidirectional, 32, 128);
            for (std::int64_t i = 0; i < q; ++i)
                for (std::int64_t j = 0; j < k; ++j)
                    REQUIRE(out[static_cast<std::size_t>(i * k + j)] == t5_bucket(j - i, bidirectional, 32, 128));
        }
    }
    // The defaults are HF's: bidirectional, 32 buckets, max_distance 128.
    std::vector<std::int32_t> a(8 * 300), b(8 * 300);
    t5_buckets(a.data(), 8, 300);
    t5_buckets(b.data(), 8, 300, true, 32, 128);
    REQUIRE(a == b);
}

TEST_CASE("t5 rejects bad arguments with messages naming them", "[t5_bias]") {
    std::int32_t out[4];
    auto buckets = [&](std::int64_t q, std::int64_t k, bool bi, std::int64_t nb, std::int64_t md) {
        t5_buckets(out, q, k, bi, nb, md);
    };
    REQUIRE_THROWS_AS(buckets(0, 1, true, 32, 128), RangeError);
    REQUIRE_THROWS_WITH(buckets(0, 1, true, 32, 128), Catch::Contains("query_len must be between 1 and 8192, got 0"));
    REQUIRE_THROWS_WITH(buckets(1, 8193, true, 32, 128),
                        Catch::Contains("key_len must be between 1 and 8192, got 8193"));
    REQUIRE_THROWS_AS(buckets(8192, 8192, true, 32, 128), RangeError);
    REQUIRE_THROWS_WITH(buckets(8192, 8192, true, 32, 128),
                        Catch::Contains("t5 buckets") && Catch::Contains("67108864") && Catch::Contains("16777216"));
    REQUIRE_THROWS_WITH(buckets(1, 1, true, 2, 128), Catch::Contains("num_buckets must be between 4 and 4096, got 2"));
    REQUIRE_THROWS_WITH(buckets(1, 1, false, 1, 128), Catch::Contains("num_buckets must be between 2 and 4096, got 1"));
    REQUIRE_THROWS_WITH(buckets(1, 1, false, 4097, 128),
                        Catch::Contains("num_buckets must be between 2 and 4096, got 4097"));
    REQUIRE_THROWS_AS(buckets(1, 1, true, 33, 128), RangeError);
    REQUIRE_THROWS_WITH(buckets(1, 1, true, 33, 128),
                        Catch::Contains("num_buckets must be even when bidirectional, got 33"));
    REQUIRE_THROWS_AS(buckets(1, 1, true, 32, 8), RangeError);
    REQUIRE_THROWS_WITH(buckets(1, 1, true, 32, 8),
                        Catch::Contains("max_distance must be greater than max_exact = 8") && Catch::Contains("got 8"));
    REQUIRE_THROWS_WITH(buckets(1, 1, false, 32, 16), Catch::Contains("max_exact = 16") && Catch::Contains("got 16"));
    REQUIRE_THROWS_WITH(buckets(1, 1, false, 32, -5), Catch::Contains("max_distance") && Catch::Contains("got -5"));
    REQUIRE_THROWS_WITH(buckets(1, 1, false, 32, (std::int64_t{1} << 24) + 1),
                        Catch::Contains("max_distance") && Catch::Contains("at most 16777216"));
    // The single-bucket entry point checks the same, and its offset.
    REQUIRE_THROWS_WITH(t5_bucket(0, true, 33, 128), Catch::Contains("num_buckets must be even"));
    REQUIRE_THROWS_WITH(t5_bucket(0, true, 32, 0), Catch::Contains("max_distance"));
    REQUIRE_THROWS_AS(t5_bucket(-(std::int64_t{1} << 24) - 1, true, 32, 128), RangeError);
    REQUIRE_THROWS_WITH(t5_bucket(INT64_MIN, true, 32, 128),
                        Catch::Contains("rel must be between -16777216 and 16777216"));
}

TEST_CASE("t5 buckets equal PyTorch fixtures exactly", "[t5_bias][fixture]") {
    const auto cases = fixture::all("t5_buckets");
    for (const auto& c : cases) {
        INFO(c.file);
        const std::int64_t q = c.integer("query_len"), k = c.integer("key_len");
        std::vector<std::int32_t> out(static_cast<std::size_t>(q * k));
        t5_buckets(out.data(), q, k, c.integer("bidirectional") != 0, c.integer("num_buckets"),
                   c.integer("max_distance"));
        REQUIRE(out == c.tensor("out").i32());
    }
}
