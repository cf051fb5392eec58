// print() support for compiled code: Python-compatible text for ints, floats
// (repr: shortest round-trip), bools and strings, and arrays (NumPy's str() through
// the binding's formatter), written to the C stdout.
#include "mahou/runtime.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::atomic<void (*)()> flushHook{nullptr};
std::atomic<mahou::runtime::ArrayFormatter> arrayFormatter{nullptr};

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

// One element of an array in the plain form (no formatter installed).
std::string plainElement(const char *p, int32_t dtype) {
  auto get = [p](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dtype) {
  case 0: return *p ? "True" : "False";
  case 1: return std::to_string(get(int8_t{}));
  case 2: return std::to_string(get(uint8_t{}));
  case 3: return std::to_string(get(int16_t{}));
  case 4: return std::to_string(get(uint16_t{}));
  case 5: return std::to_string(get(int32_t{}));
  case 6: return std::to_string(get(uint32_t{}));
  case 7: case 9: return std::to_string(get(int64_t{}));
  case 8: case 10: return std::to_string(get(uint64_t{}));
  case 11: return pythonFloatRepr(get(float{}));
  case 12: return pythonFloatRepr(get(double{}));
  case 14: case 15: {
    double re, im;
    if (dtype == 14) {
      float parts[2];
      std::memcpy(parts, p, sizeof parts);
      re = parts[0], im = parts[1];
    } else {
      std::memcpy(&re, p, 8);
      std::memcpy(&im, p + 8, 8);
    }
    return "(" + pythonFloatRepr(re) + "+" + pythonFloatRepr(im) + "j)";
  }
  default: return "?";
  }
}

// Nested brackets with elements separated by spaces: "[[1 2] [3 4]]".
void plainArray(std::string &out, const char *data, int ndim, const int64_t *shape, const int64_t *strides,
                int32_t dtype) {
  if (ndim == 0) {
    out += plainElement(data, dtype);
    return;
  }
  out += '[';
  for (int64_t i = 0; i < shape[0]; ++i) {
    if (i) out += ' ';
    plainArray(out, data + i * strides[0], ndim - 1, shape + 1, strides + 1, dtype);
  }
  out += ']';
}

} // namespace

extern "C" {

void mahou_rt_print_array(const MahouArrayHead *arr, int32_t ndim, int32_t dtype) {
  const int64_t *shape = arr->dims, *strides = arr->dims + ndim;
  std::string text;
  auto format = arrayFormatter.load(std::memory_order_acquire);
  if (!format || !format(arr->data, ndim, shape, strides, dtype, &text)) {
    text.clear();
    plainArray(text, arr->data, ndim, shape, strides, dtype);
  }
  write(text);
}

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
void setArrayFormatHook(ArrayFormatter hook) { arrayFormatter.store(hook, std::memory_order_release); }

} // namespace mahou::runtime
