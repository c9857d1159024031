// Reader for the golden fixtures that tests/fixtures/make_fixtures.py writes
// with real PyTorch. One case per file; the format is plain text so C++ and
// JS read it without a JSON library:
//
//   # comment lines
//   op sinusoidal
//   param max_len 64           (any number of params; values are strings)
//   tensor out f32 64 32       (name, dtype f32|f64|i32|i64, shape...)
//   0.0 1.0 ...                (exactly prod(shape) values, any line breaks;
//                               floats in Python repr, inf/-inf/nan allowed)
//   end
//
// tests/fixtures/index.txt lists the case files, one per line.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef POSENC_FIXTURE_DIR
#error "POSENC_FIXTURE_DIR must be defined by the build"
#endif

namespace fixture {

struct Tensor {
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::vector<double> values;  // every dtype read as double (exact for f32, i32)
    std::vector<float> f32() const { return {values.begin(), values.end()}; }
    std::vector<std::int32_t> i32() const {
        std::vector<std::int32_t> r;
        for (double v : values) r.push_back(static_cast<std::int32_t>(v));
        return r;
    }
    std::int64_t dim(std::size_t i) const { return shape.at(i); }
};

struct Case {
    std::string file, op;
    std::map<std::string, std::string> params;
    std::map<std::string, Tensor> tensors;

    bool has(const std::string& k) const { return params.count(k) != 0; }
    const std::string& str(const std::string& k) const {
        auto it = params.find(k);
        if (it == params.end()) throw std::runtime_error(file + ": no param " + k);
        return it->second;
    }
    double num(const std::string& k) const { return std::strtod(str(k).c_str(), nullptr); }
    std::int64_t integer(const std::string& k) const { return std::strtoll(str(k).c_str(), nullptr, 10); }
    const Tensor& tensor(const std::string& k) const {
        auto it = tensors.find(k);
        if (it == tensors.end()) throw std::runtime_error(file + ": no tensor " + k);
        return it->second;
    }
};

inline std::string dir() {
    return POSENC_FIXTURE_DIR;
}

inline double parse_value(const std::string& t) {
    if (t == "inf") return INFINITY;
    if (t == "-inf") return -INFINITY;
    if (t == "nan") return NAN;
    return std::strtod(t.c_str(), nullptr);
}

inline Case load(const std::string& name) {
    std::ifstream in(dir() + "/" + name);
    if (!in) throw std::runtime_error("cannot open fixture " + dir() + "/" + name);
    Case c;
    c.file = name;
    std::string word;
    while (in >> word) {
        if (word[0] == '#') {
            std::string rest;
            std::getline(in, rest);
            continue;
        }
        if (word == "op")
            in >> c.op;
        else if (word == "param") {
            std::string k, v;
            in >> k >> v;
            c.params[k] = v;
        } else if (word == "tensor") {
            std::string line;
            std::getline(in, line);
            std::istringstream ls(line);
            std::string name;
            Tensor t;
            ls >> name >> t.dtype;
            std::int64_t d, count = 1;
            while (ls >> d) {
                t.shape.push_back(d);
                count *= d;
            }
            t.values.resize(static_cast<std::size_t>(count));
            for (auto& v : t.values) {
                std::string tok;
                in >> tok;
                v = parse_value(tok);
            }
            c.tensors[name] = std::move(t);
        } else if (word == "end")
            break;
        else
            throw std::runtime_error(name + ": unexpected word " + word);
    }
    return c;
}

// Every case whose op is `op`, in index order; none is an error (a fixture
// set that lost its cases must not pass by testing nothing).
inline std::vector<Case> all(const std::string& op) {
    std::ifstream idx(dir() + "/index.txt");
    if (!idx) throw std::runtime_error("cannot open " + dir() + "/index.txt");
    std::vector<Case> out;
    std::string name;
    while (idx >> name) {
        Case c = load(name);
        if (c.op == op) out.push_back(std::move(c));
    }
    if (out.empty()) throw std::runtime_error("no fixture case has op " + op + ": run npm run fixtures");
    return out;
}

// Largest |a - b|; NaN where exactly one side is NaN or infinities disagree.
template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        double x = a[i], y = b[i];
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) return NAN;
            continue;
        }
        if (std::isinf(x) || std::isinf(y)) {
            if (x != y) return NAN;
            continue;
        }
        worst = std::fmax(worst, std::fabs(x - y));
    }
    return worst;
}

}  // namespace fixture
