// Bytes values of compiled code (1-D uint8 arrays over a bytes object's memory or a copy):
// CPython's hash, Python's order and equality, repr, and strict UTF-8 / ASCII decoding,
// one call each over the whole buffer (memcmp, the interpreter's hash, an ASCII scan).
#include "mahou/objects.h"
#include "out_of_memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

using namespace mahou::runtime;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

// The bytes as one contiguous run: `data` itself, or a copy into `buf` (a strided slice).
const uint8_t *contiguous(const uint8_t *data, int64_t n, int64_t stride, std::vector<uint8_t> &buf) {
  if (stride == 1 || n <= 1) return data;
  buf.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) buf[size_t(i)] = data[i * stride];
  return buf.data();
}

// CPython's message for a decoding error over bytes [start, end).
void decodeError(const char *codec, const uint8_t *d, int64_t stride, int64_t start, int64_t end, const char *why) {
  char msg[192];
  if (end - start == 1)
    std::snprintf(msg, sizeof msg, "'%s' codec can't decode byte 0x%02x in position %lld: %s", codec,
                  unsigned(d[start * stride]), static_cast<long long>(start), why);
  else
    std::snprintf(msg, sizeof msg, "'%s' codec can't decode bytes in position %lld-%lld: %s", codec,
                  static_cast<long long>(start), static_cast<long long>(end - 1), why);
  mahou_rt_set_error(ExcValueError, msg); // compiled code raises UnicodeDecodeError's base class
}

// Strict UTF-8 from d[from:n] (CPython's decoder: no overlong forms, no surrogates, nothing
// past U+10FFFF), each code point given to `emit`; false with CPython's ValueError set.
template <class Emit> bool decodeUtf8From(const uint8_t *d, int64_t n, int64_t from, Emit &&emit) {
  for (int64_t i = from; i < n;) {
    uint32_t c = d[i];
    if (c < 0x80) {
      emit(c);
      ++i;
      continue;
    }
    if (c < 0xC2 || c > 0xF4) {
      decodeError("utf-8", d, 1, i, i + 1, "invalid start byte");
      return false;
    }
    const int k = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    // the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF
    const uint32_t lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const uint32_t hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    uint32_t cp = c & (0x7F >> (k + 1));
    for (int j = 1; j <= k; ++j) {
      if (i + j >= n) {
        decodeError("utf-8", d, 1, i, n, "unexpected end of data");
        return false;
      }
      uint32_t b = d[i + j];
      if (j == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) {
        decodeError("utf-8", d, 1, i, i + j, "invalid continuation byte");
        return false;
      }
      cp = (cp << 6) | (b & 0x3F);
    }
    emit(cp);
    i += k + 1;
  }
  return true;
}

} // namespace

namespace mahou::runtime {

int64_t hashBytes(const uint8_t *data, int64_t n, int64_t stride) {
  std::vector<uint8_t> buf;
  const uint8_t *p = contiguous(data, n, stride, buf);
  if (n == 0) return 0; // CPython: hash(b'') == 0
  if (StringHashHook hook = stringHashHook()) return hook(p, n); // a str of the same latin-1 text hashes alike
  // No interpreter: the strings' fallback (FNV-1a, then a multiply-xorshift).
  uint64_t h = 1469598103934665603ULL;
  for (int64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  int64_t r = int64_t(h >> 1);
  return r == -1 ? -2 : r;
}

int compareBytes(const uint8_t *a, int64_t an, int64_t as, const uint8_t *b, int64_t bn, int64_t bs) {
  const int64_t n = std::min(an, bn);
  if (as == 1 && bs == 1) {
    int c = n ? std::memcmp(a, b, size_t(n)) : 0; // unsigned bytes, as Python orders them
    if (c) return c < 0 ? -1 : 1;
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (a[i * as] != b[i * bs]) return a[i * as] < b[i * bs] ? -1 : 1;
  }
  return an < bn ? -1 : an > bn ? 1 : 0;
}

bool bytesEqual(const uint8_t *a, int64_t an, int64_t as, const uint8_t *b, int64_t bn, int64_t bs) {
  return an == bn && compareBytes(a, an, as, b, bn, bs) == 0;
}

std::string bytesRepr(const uint8_t *data, int64_t n, int64_t stride) {
  // Python's: single quotes unless the bytes hold ' and no "
  bool single = false, dbl = false;
  for (int64_t i = 0; i < n; ++i) {
    single |= data[i * stride] == '\'';
    dbl |= data[i * stride] == '"';
  }
  const char quote = single && !dbl ? '"' : '\'';
  std::string out = "b";
  out += quote;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t c = data[i * stride];
    if (c == uint8_t(quote) || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(c));
      out += hex;
    } else out += char(c);
  }
  out += quote;
  return out;
}

} // namespace mahou::runtime

extern "C" {

// The items of a bytes literal or global, interned and immortal (as string literals are):
// a dict key or list item holding one never points into the module compiled with it.
MahouMemInfo *mahou_rt_bytes_const(const char *data, int64_t n) try {
  static std::mutex lock;
  static auto *table = new std::unordered_map<std::string, MahouMemInfo *>();
  std::string key(data, size_t(n));
  std::lock_guard<std::mutex> guard(lock);
  auto it = table->find(key);
  if (it != table->end()) return it->second;
  MahouMemInfo *mi = mahou_rt_alloc_object(std::max<int64_t>(n, 1), nullptr);
  if (!mi) return nullptr;
  if (n) std::memcpy(mahouObjectPayload(mi), data, size_t(n));
  mi->refcount = int64_t(1) << 60; // never reaches zero
  mahou_rt_untrack_allocation();   // not a leak: interned for the process
  table->emplace(std::move(key), mi);
  return mi;
} MAHOU_RT_CATCH_ALLOC(nullptr)

int32_t mahou_rt_bytes_hash(const uint8_t *data, int64_t n, int64_t stride, int64_t *out) {
  *out = hashBytes(data, n, stride);
  return 0;
}

int32_t mahou_rt_bytes_compare(const uint8_t *a, int64_t an, int64_t as, const uint8_t *b, int64_t bn, int64_t bs,
                               int64_t *out) {
  *out = compareBytes(a, an, as, b, bn, bs);
  return 0;
}

// b.decode('utf-8' or 'ascii', 'strict'): CPython's strict decoders (no overlong forms, no
// surrogates, nothing past U+10FFFF) and their messages, as a ValueError. ASCII data (the
// usual case) is one scan and one copy.
MahouMemInfo *mahou_rt_bytes_decode(const uint8_t *data, int64_t n, int64_t stride, int32_t asciiOnly) try {
  std::vector<uint8_t> buf;
  const uint8_t *d = contiguous(data, n, stride, buf);
  int64_t firstHigh = n;
  {
    uint8_t any = 0; // an OR over blocks, vectorised; then the first high byte is found
    int64_t i = 0;
    for (; i + 64 <= n && !(any & 0x80); i += 64)
      for (int k = 0; k < 64; ++k) any |= d[i + k];
    if (any & 0x80) i -= 64;
    for (; i < n; ++i)
      if (d[i] & 0x80) {
        firstHigh = i;
        break;
      }
  }
  if (firstHigh == n) { // all ASCII: one copy
    MahouMemInfo *s = newString(n, 1);
    if (!s) return nullptr;
    MahouStr *str = mahouStr(s);
    if (n) std::memcpy(mahouStrData(str), d, size_t(n));
    str->ascii = true;
    return s;
  }
  if (asciiOnly) {
    decodeError("ascii", d, 1, firstHigh, firstHigh + 1, "ordinal not in range(128)");
    return nullptr;
  }
  // Two passes: validate, counting the code points and the largest; then write them in
  // the string's kind.
  int64_t count = firstHigh;
  uint32_t maxChar = 0;
  if (!decodeUtf8From(d, n, firstHigh, [&](uint32_t cp) {
        ++count;
        maxChar = std::max(maxChar, cp);
      }))
    return nullptr;
  MahouMemInfo *s = newString(count, maxChar < 256 ? 1 : maxChar < 65536 ? 2 : 4);
  if (!s) return nullptr;
  MahouStr *str = mahouStr(s);
  str->ascii = false;
  auto fill = [&](auto *out) {
    for (int64_t i = 0; i < firstHigh; ++i) out[i] = d[i];
    int64_t k = firstHigh;
    decodeUtf8From(d, n, firstHigh, [&](uint32_t cp) { out[k++] = std::remove_pointer_t<decltype(out)>(cp); });
  };
  if (str->kind == 1) fill(reinterpret_cast<uint8_t *>(mahouStrData(str)));
  else if (str->kind == 2) fill(reinterpret_cast<uint16_t *>(mahouStrData(str)));
  else fill(reinterpret_cast<uint32_t *>(mahouStrData(str)));
  return s;
} MAHOU_RT_CATCH_ALLOC(nullptr)

} // extern "C"
