#include "train_tasks.h"

#include <string>

#include "caps.h"
#include "check.h"
#include "errors.h"

namespace posenc {

TrainTask train_task(const char* name) {
    const std::string n = name ? name : "";
    if (n == "copy") return TrainTask::copy;
    if (n == "reverse") return TrainTask::reverse;
    if (n == "sort") return TrainTask::sort;
    if (n == "shift") return TrainTask::shift;
    throw TypeError("unknown task '" + n + "' (expected 'copy', 'reverse', 'sort' or 'shift')", {"task"});
}

const char* train_task_name(TrainTask task) {
    switch (task) {
        case TrainTask::copy: return "copy";
        case TrainTask::reverse: return "reverse";
        case TrainTask::sort: return "sort";
        case TrainTask::shift: return "shift";
    }
    return "?";
}

// tokens, targets: (length)
void train_task_targets(std::int32_t* targets, const std::int32_t* tokens, TrainTask task,
                        std::int64_t length) {
    switch (task) {
        case TrainTask::copy:
            for (std::int64_t i = 0; i < length; ++i) targets[i] = tokens[i];
            break;
        case TrainTask::reverse:
            for (std::int64_t i = 0; i < length; ++i) targets[i] = tokens[length - 1 - i];
            break;
        case TrainTask::sort: {
            // Counting sort: the vocabulary is at most 64 tokens, so a count
            // per token sorts in O(L) with no allocation.
            std::int64_t count[64] = {};
            for (std::int64_t i = 0; i < length; ++i) ++count[tokens[i]];
            std::int64_t at = 0;
            for (std::int32_t t = 0; t < 64; ++t)
                for (std::int64_t c = 0; c < count[t]; ++c) targets[at++] = t;
            break;
        }
        case TrainTask::shift:
            // The rule is relative (look one place left), the same at every
            // position and length: what a relative encoding can carry past
            // the training length. The first token has no left neighbour and
            // repeats itself.
            targets[0] = tokens[0];
            for (std::int64_t i = 1; i < length; ++i) targets[i] = tokens[i - 1];
            break;
    }
}

// tokens, targets: (batch, length)
void train_task_batch(std::int32_t* tokens, std::int32_t* targets, TrainTask task,
                      std::int64_t batch, std::int64_t length, std::int64_t vocab, TrainRng& rng) {
    check_range("batch", batch, 1, 4096);
    check_range("length", length, 1, kMaxSeqLen);
    check_range("vocab", vocab, 2, 64);
    // pass 1: every token, sequence after sequence (the order Python replays)
    const auto v = static_cast<std::int32_t>(vocab);
    for (std::int64_t i = 0; i < batch * length; ++i) tokens[i] = rng.below(v);
    // pass 2: the task's targets
    for (std::int64_t b = 0; b < batch; ++b)
        train_task_targets(targets + b * length, tokens + b * length, task, length);
}

}  // namespace posenc
