#include "errors.h"

namespace posenc {

Error::Error(const std::string& message, std::initializer_list<const char*> names_,
             std::initializer_list<double> values_)
    : std::runtime_error(message) {
    for (const char* n : names_)
        if (name_count < kMaxNames) names[name_count++] = n;
    for (double v : values_)
        if (value_count < kMaxValues) values[value_count++] = v;
}

Error::Error(const std::string& message, const Error& data) : std::runtime_error(message) {
    for (int i = 0; i < data.name_count; ++i) names[i] = data.names[i];
    for (int i = 0; i < data.value_count; ++i) values[i] = data.values[i];
    name_count = data.name_count;
    value_count = data.value_count;
}

}  // namespace posenc
