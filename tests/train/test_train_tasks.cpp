// The trainer's data: the SplitMix64 stream (against the reference values of
// Vigna's splitmix64.c), the derived draws, and the three tasks' targets.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "check.h"
#include "errors.h"
#include "train_tasks.h"
#include "test_util.h"

using namespace posenc;
using namespace test_util;

TEST_CASE("SplitMix64 gives the reference sequence", "[train_tasks]") {
    // computed with Vigna's splitmix64.c (prng.di.unimi.it) at seed 1234567
    TrainRng rng(1234567);
    const std::uint64_t want[] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                                  4593380528125082431ull, 16408922859458223821ull};
    for (std::uint64_t w : want) REQUIRE(rng.next() == w);
}

TEST_CASE("uniform and below are the documented bit slices", "[train_tasks]") {
    TrainRng a(42), b(42);
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t x = b.next();
        const double u = a.uniform();
        REQUIRE(u == static_cast<double>(x >> 40) / 16777216.0);
        REQUIRE(u >= 0.0);
        REQUIRE(u < 1.0);
        REQUIRE(static_cast<double>(static_cast<float>(u)) == u);  // exact in float32
    }
    for (std::int32_t n : {1, 2, 3, 10, 64}) {
        TrainRng c(n), d(n);
        for (int i = 0; i < 200; ++i) {
            const std::int32_t v = c.below(n);
            REQUIRE(v == static_cast<std::int32_t>((d.next() >> 32) % static_cast<std::uint64_t>(n)));
            REQUIRE(v >= 0);
            REQUIRE(v < n);
        }
    }
}

TEST_CASE("task names parse, and a wrong one lists the allowed ones", "[train_tasks]") {
    REQUIRE(named_values(&train_task_name).size() == 5);
    for (TrainTask t : named_values(&train_task_name)) REQUIRE(train_task(train_task_name(t)) == t);
    REQUIRE_THROWS_AS(train_task("shuffle"), TypeError);
    REQUIRE_THROWS_WITH(train_task("shuffle"),
                        Catch::Contains("'shuffle'") && Catch::Contains("'copy', 'reverse', 'sort', 'shift', 'text'"));
    REQUIRE_THROWS_AS(train_task(nullptr), TypeError);
}

TEST_CASE("copy, reverse, sort and shift targets are right at every length", "[train_tasks]") {
    for (std::int64_t L : kTailSizes) {
        for (TrainTask task : {TrainTask::copy, TrainTask::reverse, TrainTask::sort, TrainTask::shift}) {
            const std::int64_t B = 3, V = 7;
            std::vector<std::int32_t> tok(B * L), tgt(B * L);
            TrainRng rng(static_cast<std::uint64_t>(L));
            train_task_batch(tok.data(), tgt.data(), task, B, L, V, rng);
            for (std::int64_t b = 0; b < B; ++b) {
                std::vector<std::int32_t> x(tok.begin() + b * L, tok.begin() + (b + 1) * L);
                std::vector<std::int32_t> y(tgt.begin() + b * L, tgt.begin() + (b + 1) * L);
                for (std::int32_t v : x) REQUIRE((v >= 0 && v < V));
                std::vector<std::int32_t> want = x;
                if (task == TrainTask::reverse) std::reverse(want.begin(), want.end());
                if (task == TrainTask::sort) std::sort(want.begin(), want.end());
                if (task == TrainTask::shift) std::copy(x.begin(), x.end() - 1, want.begin() + 1);  // want[0] = x[0]
                REQUIRE(y == want);
            }
        }
    }
}

TEST_CASE("batches draw tokens row-major from the stream: same seed, same batch", "[train_tasks]") {
    const std::int64_t B = 4, L = 5, V = 10;
    std::vector<std::int32_t> t1(B * L), g1(B * L), t2(B * L), g2(B * L);
    TrainRng a(9), b(9);
    train_task_batch(t1.data(), g1.data(), TrainTask::sort, B, L, V, a);
    train_task_batch(t2.data(), g2.data(), TrainTask::sort, B, L, V, b);
    REQUIRE(t1 == t2);
    REQUIRE(g1 == g2);
    TrainRng c(9);
    for (std::int64_t i = 0; i < B * L; ++i) REQUIRE(t1[i] == c.below(10));
    // the next batch differs
    train_task_batch(t2.data(), g2.data(), TrainTask::sort, B, L, V, b);
    REQUIRE(t1 != t2);
    // sort handles the largest vocabulary and all-equal rows
    std::vector<std::int32_t> big(64 * 3), out(64 * 3);
    TrainRng d(1);
    train_task_batch(big.data(), out.data(), TrainTask::sort, 3, 64, 64, d);
    REQUIRE(std::is_sorted(out.begin(), out.begin() + 64));
    std::vector<std::int32_t> same(6, 63), sorted(6);
    train_task_targets(sorted.data(), same.data(), TrainTask::sort, 6);
    REQUIRE(sorted == same);
}

TEST_CASE("train_task_batch checks its sizes", "[train_tasks][errors]") {
    std::vector<std::int32_t> t(16), g(16);
    TrainRng rng(1);
    REQUIRE_THROWS_AS(train_task_batch(t.data(), g.data(), TrainTask::copy, 0, 4, 10, rng), RangeError);
    REQUIRE_THROWS_WITH(train_task_batch(t.data(), g.data(), TrainTask::copy, 0, 4, 10, rng),
                        Catch::Contains("batch must be between 1 and 4096, got 0"));
    REQUIRE_THROWS_WITH(train_task_batch(t.data(), g.data(), TrainTask::copy, 1, 0, 10, rng),
                        Catch::Contains("length must be between 1 and 8192, got 0"));
    REQUIRE_THROWS_WITH(train_task_batch(t.data(), g.data(), TrainTask::copy, 1, 4, 1, rng),
                        Catch::Contains("vocab must be between 2 and 64, got 1"));
    REQUIRE_THROWS_WITH(train_task_batch(t.data(), g.data(), TrainTask::copy, 1, 4, 65, rng),
                        Catch::Contains("vocab must be between 2 and 64, got 65"));
    REQUIRE_THROWS_WITH(train_task_batch(t.data(), g.data(), TrainTask::text, 1, 4, 64, rng),
                        Catch::Contains("use text_batch"));
}

TEST_CASE("text_tokens: 64 ids, letters folded, one id per code point", "[train_tasks][text]") {
    REQUIRE(text_tokens("").empty());
    REQUIRE(text_tokens("aZ 0\t9\n") == std::vector<std::int32_t>{3, 28, 1, 29, 1, 38, 2});
    REQUIRE(text_tokens("A\r\nb") == std::vector<std::int32_t>{3, 2, 4});  // CR dropped
    // every mark has its own id, in kTextPunctuation's order, and names itself back
    const std::string marks = kTextPunctuation;
    REQUIRE(marks.size() == 25);
    const std::vector<std::int32_t> ids = text_tokens(marks);
    for (std::size_t i = 0; i < marks.size(); ++i) {
        REQUIRE(ids[i] == static_cast<std::int32_t>(39 + i));
        REQUIRE(text_char(ids[i]) == std::string(1, marks[i]));
    }
    // the round trip of every id but other
    for (std::int32_t id = 1; id < kTextVocab; ++id)
        REQUIRE(text_tokens(text_char(id)) == std::vector<std::int32_t>{id});
    REQUIRE(text_char(0).empty());
    REQUIRE(text_char(64).empty());
    REQUIRE(text_char(-1).empty());
    // characters outside the set: one id 0 each, however many bytes
    REQUIRE(text_tokens("?@%&!~") == std::vector<std::int32_t>(6, 0));
    REQUIRE(text_tokens("\xC3\xA9") == std::vector<std::int32_t>{0});           // é, 2 bytes
    REQUIRE(text_tokens("\xE2\x80\x94x") == std::vector<std::int32_t>{0, 26});  // em dash, 3 bytes
    REQUIRE(text_tokens("\xF0\x9F\x98\x80") == std::vector<std::int32_t>{0});   // emoji, 4 bytes
    // malformed: a stray continuation byte, a cut sequence, an overlong lead, a NUL
    REQUIRE(text_tokens("\x80"
                        "a") == std::vector<std::int32_t>{0, 3});
    REQUIRE(text_tokens("\xE2\x80") == std::vector<std::int32_t>{0, 0});
    REQUIRE(text_tokens("\xC0\xAF"
                        "b") == std::vector<std::int32_t>{0, 0, 4});
    REQUIRE(text_tokens(std::string("a\0b", 3)) == std::vector<std::int32_t>{3, 0, 4});
    for (std::int32_t id : text_tokens("The Résumé: $x_m$ \\theta {}")) REQUIRE((id >= 0 && id < kTextVocab));
}

TEST_CASE("text_corpus holds out its last tenth; text_batch draws windows", "[train_tasks][text]") {
    std::string text;
    for (int i = 0; i < 100; ++i) text += static_cast<char>('a' + i % 26);  // ids 3..28 cycling
    const TextCorpus c = text_corpus(text, 9);
    REQUIRE(c.ids.size() == 100);
    REQUIRE(c.train_end == 90);
    REQUIRE_THROWS_AS(text_corpus(text, 10), RangeError);  // 10 * 11 > 100
    REQUIRE_THROWS_WITH(text_corpus(text, 10),
                        Catch::Contains("the text has 100 characters; a window of 10 needs at least 110"));
    REQUIRE_THROWS_AS(text_corpus(text, 0), RangeError);
    for (bool validation : {false, true}) {
        const std::int64_t B = 50, L = 9;
        std::vector<std::int32_t> tok(B * L), tgt(B * L);
        TrainRng rng(4), replay(4);
        text_batch(tok.data(), tgt.data(), c, validation, B, L, rng);
        const std::int64_t lo = validation ? 90 : 0, n = (validation ? 10 : 90) - L;
        for (std::int64_t b = 0; b < B; ++b) {
            const std::int64_t s = lo + replay.below(static_cast<std::int32_t>(n));
            for (std::int64_t i = 0; i < L; ++i) {
                REQUIRE(tok[b * L + i] == c.ids[s + i]);
                REQUIRE(tgt[b * L + i] == c.ids[s + i + 1]);  // the next character
            }
            // inside its part: a training window never reads the held-out tenth
            REQUIRE(s >= lo);
            REQUIRE(s + L + 1 <= lo + (validation ? 10 : 90));
        }
    }
    std::vector<std::int32_t> tok(10), tgt(10);
    TrainRng rng(1);
    REQUIRE_THROWS_WITH(text_batch(tok.data(), tgt.data(), c, true, 1, 10, rng),
                        Catch::Contains("the validation text has 10 characters, fewer than a window of 10"));
    REQUIRE_NOTHROW(text_batch(tok.data(), tgt.data(), c, true, 1, 9, rng));
    REQUIRE_THROWS_AS(text_batch(tok.data(), tgt.data(), c, false, 0, 9, rng), RangeError);
}
