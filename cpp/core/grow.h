// Buffers that are reused across calls (attention's workspace, the
// trainer's activations): grow(v, n) makes v hold at least n values and
// never shrinks it, so steady-state calls allocate nothing.
#pragma once
#include <cstdint>
#include <vector>

namespace posenc {

template <class T>
T* grow(std::vector<T>& v, std::int64_t n) {
    if (static_cast<std::int64_t>(v.size()) < n) v.resize(static_cast<std::size_t>(n));
    return v.data();
}

}  // namespace posenc
