// print() support for compiled code: Python-compatible text for ints, floats
// (repr: shortest round-trip), bools and strings, written to the C stdout.
#include "mahou/runtime.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::atomic<void (*)()> flushHook{nullptr};

void write(const char *text, size_t n) {
  if (auto hook = flushHook.load(std::memory_order_acquire))
    hook();
  std::fwrite(text, 1, n, stdout);
  std::fflush(stdout);
}

void write(const std::string &text) { write(text.data(), text.size()); }

// Python's float repr: the shortest digits that round-trip, positional when the
// decimal exponent is in [-4, 16), otherwise d.ddde+XX.
std::string pythonFloatRepr(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  if (v == 0)
    return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  size_t e = sci.find('e');
  int exponent = std::atoi(sci.c_str() + e + 1);
  std::string sign, digits;
  for (size_t i = 0; i < e; ++i) {
    if (sci[i] == '-')
      sign = "-";
    else if (sci[i] != '.')
      digits += sci[i];
  }
  if (exponent < -4 || exponent >= 16)
    return sci; // to_chars already writes "1e+20", "1.5e-05"
  std::string out = sign;
  if (exponent < 0) {
    out += "0." + std::string(size_t(-exponent - 1), '0') + digits;
  } else if (digits.size() <= size_t(exponent) + 1) {
    out += digits + std::string(size_t(exponent) + 1 - digits.size(), '0') + ".0";
  } else {
    out += digits.substr(0, size_t(exponent) + 1) + "." + digits.substr(size_t(exponent) + 1);
  }
  return out;
}

} // namespace

extern "C" {

void mahou_rt_print_i64(int64_t v) { write(std::to_string(v)); }
void mahou_rt_print_u64(uint64_t v) { write(std::to_string(v)); }
void mahou_rt_print_f64(double v) { write(pythonFloatRepr(v)); }
void mahou_rt_print_bool(bool v) { write(v ? "True" : "False", v ? 4 : 5); }
void mahou_rt_print_str(const char *s) { write(s ? std::string(s) : std::string("None")); }
void mahou_rt_print_sep() { write(" ", 1); }
void mahou_rt_print_newline() { write("\n", 1); }

} // extern "C"

namespace mahou::runtime {

void setPrintFlushHook(void (*hook)()) { flushHook.store(hook, std::memory_order_release); }

} // namespace mahou::runtime
