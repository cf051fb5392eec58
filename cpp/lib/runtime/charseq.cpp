// NumPy's U<n> items (n UCS4 code points, NUL-padded) read into strings and written from
// them: reading stops at the trailing NULs (NumPy's rule: a NUL inside stays), writing
// truncates to the width and pads with NULs. Items may be unaligned (packed records).
#include "mahou/objects.h"

#include <algorithm>
#include <cstring>

using namespace mahou::runtime;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

uint32_t codeAt(const void *p, int64_t i) {
  uint32_t c;
  std::memcpy(&c, static_cast<const char *>(p) + i * 4, 4);
  return c;
}

} // namespace

extern "C" {

MahouMemInfo *mahou_rt_charseq_get(const void *item, int64_t count) {
  int64_t n = count;
  while (n > 0 && codeAt(item, n - 1) == 0) --n;
  uint32_t maxChar = 0;
  for (int64_t i = 0; i < n; ++i) maxChar = std::max(maxChar, codeAt(item, i));
  if (maxChar > 0x10FFFF) {
    mahou_rt_set_error(ExcValueError, "a str array item holds a code point past U+10FFFF");
    return nullptr;
  }
  MahouMemInfo *mi = newString(n, maxChar < 256 ? 1 : maxChar < 65536 ? 2 : 4);
  if (!mi) return nullptr;
  MahouStr *s = mahouStr(mi);
  char *d = mahouStrData(s);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t c = codeAt(item, i);
    switch (s->kind) {
    case 1: reinterpret_cast<uint8_t *>(d)[i] = uint8_t(c); break;
    case 2: reinterpret_cast<uint16_t *>(d)[i] = uint16_t(c); break;
    default: reinterpret_cast<uint32_t *>(d)[i] = c; break;
    }
  }
  s->ascii = maxChar < 128;
  return mi;
}

void mahou_rt_charseq_set(void *item, int64_t count, MahouMemInfo *str) {
  const MahouStr *s = mahouStr(str);
  int64_t n = std::min(count, s->length);
  char *dst = static_cast<char *>(item);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t c = stringCharAt(s, i);
    std::memcpy(dst + i * 4, &c, 4);
  }
  std::memset(dst + n * 4, 0, size_t(count - n) * 4);
}

} // extern "C"
