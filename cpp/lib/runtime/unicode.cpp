// Strings of compiled code in CPython's PEP 393 form (so boxing is one copy): making
// them (from UTF-8 literals, code points, interned constants), concatenation,
// repetition, comparison, hashing, indexing, slicing, searching and printing.
#include "mahou/objects.h"
#include "checked_size.h"
#include "mahou/utf8.h"
#include "out_of_memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace mahou::runtime;
using mahou::appendUtf8;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

int32_t kindFor(uint32_t maxChar) { return maxChar < 256 ? 1 : maxChar < 65536 ? 2 : 4; }

void putChar(MahouStr *s, int64_t i, uint32_t c) {
  char *d = mahouStrData(s);
  switch (s->kind) {
  case 1: reinterpret_cast<uint8_t *>(d)[i] = uint8_t(c); break;
  case 2: reinterpret_cast<uint16_t *>(d)[i] = uint16_t(c); break;
  default: reinterpret_cast<uint32_t *>(d)[i] = c; break;
  }
}

std::vector<uint32_t> decodeUtf8(const char *p, int64_t n) {
  std::vector<uint32_t> out;
  out.reserve(size_t(n));
  const auto *u = reinterpret_cast<const uint8_t *>(p);
  for (int64_t i = 0; i < n;) {
    uint32_t c = u[i];
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + extra >= n + (extra == 0 ? 1 : 0)) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    if (extra) c &= 0x3F >> extra;
    for (int k = 1; k <= extra; ++k) c = (c << 6) | (u[i + k] & 0x3F);
    out.push_back(c);
    i += 1 + extra;
  }
  return out;
}


// A copy of code points [start, start + n*step) of s, in the smallest kind.
MahouMemInfo *substring(MahouStr *s, int64_t start, int64_t n, int64_t step) {
  uint32_t maxChar = 0;
  for (int64_t k = 0; k < n; ++k) maxChar = std::max(maxChar, stringCharAt(s, start + k * step));
  MahouMemInfo *out = newString(n, kindFor(maxChar));
  if (!out) return nullptr;
  MahouStr *o = mahouStr(out);
  if (o->kind == s->kind && step == 1) std::memcpy(mahouStrData(o), mahouStrData(s) + start * s->kind, size_t(n * s->kind));
  else
    for (int64_t k = 0; k < n; ++k) putChar(o, k, stringCharAt(s, start + k * step));
  o->ascii = maxChar < 128;
  return out;
}

} // namespace

namespace mahou::runtime {

MahouMemInfo *newString(int64_t length, int32_t kind) {
  if (length == 0) kind = 1; // kinds are canonical: the empty string is one-byte (equality compares kinds)
  int64_t chars, bytes;
  if (!addSize(length, 1, chars) || !mulSize(chars, kind, bytes) || !addSize(bytes, int64_t(sizeof(MahouStr)), bytes)) {
    mahou_rt_set_error(ExcMemoryError, "out of memory"); // as CPython's PyUnicode_New
    return nullptr;
  }
  MahouMemInfo *mi = mahou_rt_alloc_object(bytes, nullptr);
  if (!mi) return nullptr;
  MahouStr *s = mahouStr(mi);
  s->length = length;
  s->hash = -1;
  s->kind = kind;
  s->ascii = length == 0;
  std::memset(mahouStrData(s) + length * kind, 0, size_t(kind));
  return mi;
}

uint32_t stringCharAt(const MahouStr *s, int64_t i) {
  const char *d = reinterpret_cast<const char *>(s + 1);
  switch (s->kind) {
  case 1: return reinterpret_cast<const uint8_t *>(d)[i];
  case 2: return reinterpret_cast<const uint16_t *>(d)[i];
  default: return reinterpret_cast<const uint32_t *>(d)[i];
  }
}

MahouMemInfo *stringFromCodePoints(const uint32_t *cps, int64_t n) {
  uint32_t maxChar = 0;
  for (int64_t i = 0; i < n; ++i) maxChar = std::max(maxChar, cps[i]);
  MahouMemInfo *mi = newString(n, kindFor(maxChar));
  if (!mi) return nullptr;
  MahouStr *s = mahouStr(mi);
  for (int64_t i = 0; i < n; ++i) putChar(s, i, cps[i]);
  s->ascii = maxChar < 128;
  return mi;
}

bool stringsEqual(MahouMemInfo *a, MahouMemInfo *b) {
  if (a == b) return true;
  MahouStr *x = mahouStr(a), *y = mahouStr(b);
  // Canonical kinds: equal strings have the same kind and the same bytes.
  if (x->length != y->length || x->kind != y->kind) return false;
  if (x->hash != -1 && y->hash != -1 && x->hash != y->hash) return false;
  return std::memcmp(mahouStrData(x), mahouStrData(y), size_t(x->length * x->kind)) == 0;
}

int compareStrings(MahouMemInfo *a, MahouMemInfo *b) {
  MahouStr *x = mahouStr(a), *y = mahouStr(b);
  int64_t n = std::min(x->length, y->length);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t c = stringCharAt(x, i), d = stringCharAt(y, i);
    if (c != d) return c < d ? -1 : 1;
  }
  return x->length < y->length ? -1 : x->length > y->length ? 1 : 0;
}

int64_t hashString(MahouMemInfo *mi) {
  MahouStr *s = mahouStr(mi);
  if (s->hash != -1) return s->hash;
  // The interpreter's hash of the canonical (PEP 393) bytes, as CPython hashes a str, so
  // hash(s) in compiled code equals hash(s) in Python; without an interpreter FNV-1a,
  // finished with a multiply-xorshift.
  if (StringHashHook hook = stringHashHook()) {
    int64_t r = hook(mahouStrData(s), s->length * s->kind);
    s->hash = r;
    return r;
  }
  uint64_t h = 1469598103934665603ULL;
  const auto *d = reinterpret_cast<const uint8_t *>(mahouStrData(s));
  for (int64_t i = 0, n = s->length * s->kind; i < n; ++i) h = (h ^ d[i]) * 1099511628211ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  int64_t r = int64_t(h >> 1);
  if (r == -1) r = -2;
  s->hash = r;
  return r;
}

} // namespace mahou::runtime

extern "C" {

MahouMemInfo *mahou_rt_str_from_utf8(const char *text, int64_t bytes) try {
  std::vector<uint32_t> cps = decodeUtf8(text, bytes);
  return stringFromCodePoints(cps.data(), int64_t(cps.size()));
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_const(const char *text, int64_t bytes) try {
  // String literals are interned and immortal: an object holding one (a dict key)
  // never points into the module that was compiled with it.
  static std::mutex lock;
  static auto *table = new std::unordered_map<std::string, MahouMemInfo *>();
  std::string key(text, size_t(bytes));
  std::lock_guard<std::mutex> guard(lock);
  auto it = table->find(key);
  if (it != table->end()) return it->second;
  MahouMemInfo *mi = mahou_rt_str_from_utf8(text, bytes);
  if (!mi) return nullptr;
  mi->refcount = int64_t(1) << 60; // never reaches zero
  mahou_rt_untrack_allocation();   // not a leak: interned for the process
  table->emplace(std::move(key), mi);
  return mi;
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_concat(MahouMemInfo *a, MahouMemInfo *b) {
  MahouStr *x = mahouStr(a), *y = mahouStr(b);
  int32_t kind = std::max(x->kind, y->kind);
  int64_t length;
  if (!addSize(x->length, y->length, length)) {
    mahou_rt_set_error(ExcOverflowError, "strings are too large to concat");
    return nullptr;
  }
  MahouMemInfo *out = newString(length, kind);
  if (!out) return nullptr;
  MahouStr *o = mahouStr(out);
  if (x->kind == kind) std::memcpy(mahouStrData(o), mahouStrData(x), size_t(x->length * kind));
  else
    for (int64_t i = 0; i < x->length; ++i) putChar(o, i, stringCharAt(x, i));
  if (y->kind == kind) std::memcpy(mahouStrData(o) + x->length * kind, mahouStrData(y), size_t(y->length * kind));
  else
    for (int64_t i = 0; i < y->length; ++i) putChar(o, x->length + i, stringCharAt(y, i));
  o->ascii = x->ascii && y->ascii;
  return out;
}

MahouMemInfo *mahou_rt_str_repeat(MahouMemInfo *a, int64_t times) {
  MahouStr *x = mahouStr(a);
  if (times < 0 || x->length == 0) times = 0; // "" * 2**40 is "" at once, not 2**40 empty copies
  int64_t length;
  if (!mulSize(x->length, times, length)) {
    mahou_rt_set_error(ExcOverflowError, "repeated string is too long");
    return nullptr;
  }
  MahouMemInfo *out = newString(length, x->kind);
  if (!out) return nullptr;
  MahouStr *o = mahouStr(out);
  size_t n = size_t(x->length * x->kind);
  for (int64_t k = 0; k < times; ++k) std::memcpy(mahouStrData(o) + size_t(k) * n, mahouStrData(x), n);
  o->ascii = x->ascii || o->length == 0;
  return out;
}

bool mahou_rt_str_equal(MahouMemInfo *a, MahouMemInfo *b) { return stringsEqual(a, b); }
int32_t mahou_rt_str_compare(MahouMemInfo *a, MahouMemInfo *b) { return compareStrings(a, b); }
int64_t mahou_rt_str_hash(MahouMemInfo *a) { return hashString(a); }

// s[i] as a one-character string (IndexError out of range).
MahouMemInfo *mahou_rt_str_getitem(MahouMemInfo *a, int64_t i) {
  MahouStr *s = mahouStr(a);
  if (i < 0) i += s->length;
  if (i < 0 || i >= s->length) {
    mahou_rt_set_error(ExcIndexError, "string index out of range");
    return nullptr;
  }
  return substring(s, i, 1, 1);
}

MahouMemInfo *mahou_rt_str_slice(MahouMemInfo *a, int64_t start, int64_t stop, int64_t step, int32_t flags) {
  if (step == 0) {
    mahou_rt_set_error(ExcValueError, "slice step cannot be zero");
    return nullptr;
  }
  MahouStr *s = mahouStr(a);
  int64_t length = s->length;
  bool noStart = flags & 1, noStop = flags & 2;
  auto clamp = [&](int64_t v, bool missing, bool isStart) {
    if (missing) return step < 0 ? (isStart ? length - 1 : -1) : (isStart ? 0 : length);
    if (v < 0) {
      v += length;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) v = step < 0 ? length - 1 : length;
    return v;
  };
  start = clamp(start, noStart, true);
  stop = clamp(stop, noStop, false);
  int64_t n = step < 0 ? (stop < start ? (start - stop - 1) / (-step) + 1 : 0)
                       : (start < stop ? (stop - start - 1) / step + 1 : 0);
  return substring(s, start, n, step);
}

// Code point index of the first occurrence of `needle` in s[start:end], or -1.
int64_t mahou_rt_str_find(MahouMemInfo *hay, MahouMemInfo *needle, int64_t start, int64_t end, int32_t reverse) {
  MahouStr *h = mahouStr(hay), *n = mahouStr(needle);
  if (start < 0) start = std::max<int64_t>(start + h->length, 0);
  if (end < 0) end = std::max<int64_t>(end + h->length, 0);
  end = std::min(end, h->length);
  if (end - start < n->length) return -1;
  auto matchAt = [&](int64_t i) {
    for (int64_t k = 0; k < n->length; ++k)
      if (stringCharAt(h, i + k) != stringCharAt(n, k)) return false;
    return true;
  };
  if (reverse) {
    for (int64_t i = end - n->length; i >= start; --i)
      if (matchAt(i)) return i;
  } else {
    if (h->kind == 1 && n->kind == 1 && n->length > 0) {
      const char *hd = mahouStrData(h), *nd = mahouStrData(n);
      const void *p = memmem(hd + start, size_t(end - start), nd, size_t(n->length));
      return p ? static_cast<const char *>(p) - hd : -1;
    }
    for (int64_t i = start; i + n->length <= end; ++i)
      if (matchAt(i)) return i;
  }
  return -1;
}

int32_t mahou_rt_str_ord(MahouMemInfo *a, int64_t *out) {
  MahouStr *s = mahouStr(a);
  if (s->length != 1) {
    mahou_rt_set_error_i64(ExcTypeError, "ord() expected a character, but string of length %lld found", s->length);
    return 1;
  }
  *out = stringCharAt(s, 0);
  return 0;
}

MahouMemInfo *mahou_rt_str_chr(int64_t c) {
  if (c < 0 || c > 0x10FFFF) {
    mahou_rt_set_error(ExcValueError, "chr() arg not in range(0x110000)");
    return nullptr;
  }
  uint32_t cp = uint32_t(c);
  return stringFromCodePoints(&cp, 1);
}

void mahou_rt_print_unicode(MahouMemInfo *a) {
  MahouStr *s = mahouStr(a);
  std::string utf8;
  utf8.reserve(size_t(s->length));
  for (int64_t i = 0; i < s->length; ++i) appendUtf8(utf8, stringCharAt(s, i));
  mahou_rt_print_str(utf8.c_str());
}

} // extern "C"
