// NFKC normalisation of identifiers (Unicode's algorithm: full compatibility
// decomposition, canonical ordering, canonical composition) over tables generated from
// Python's unicodedata (nfkc_tables.inc, tools/gen_nfkc_tables.py).
#include "frontend/nfkc.h"
#include "mahou/utf8.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mahou::frontend {

namespace {

struct Decomposition { uint32_t cp, offset, length; };
struct CombiningClass { uint32_t cp, ccc; };
struct Composition { uint32_t first, second, composite; };

#include "nfkc_tables.inc"

// Hangul syllables are decomposed and composed by arithmetic (Unicode 3.12).
constexpr uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr uint32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount,
                   kSCount = kLCount * kNCount;

std::vector<uint32_t> decodeUtf8(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int extra = b < 0x80 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
    uint32_t cp = extra == 0 ? b : extra == 1 ? b & 0x1F : extra == 2 ? b & 0x0F : b & 0x07;
    for (int k = 1; k <= extra && i + size_t(k) < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + size_t(k)]) & 0x3F);
    out.push_back(cp);
    i += size_t(extra) + 1;
  }
  return out;
}

unsigned combiningClass(uint32_t cp) {
  if (cp < 0x300) return 0;
  auto it = std::lower_bound(std::begin(kCombiningClasses), std::end(kCombiningClasses), cp,
                             [](const CombiningClass &c, uint32_t v) { return c.cp < v; });
  return it != std::end(kCombiningClasses) && it->cp == cp ? it->ccc : 0;
}

void decompose(uint32_t cp, std::vector<uint32_t> &out) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    uint32_t s = cp - kSBase;
    out.push_back(kLBase + s / kNCount);
    out.push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount) out.push_back(kTBase + s % kTCount);
    return;
  }
  auto it = std::lower_bound(std::begin(kDecompositions), std::end(kDecompositions), cp,
                             [](const Decomposition &d, uint32_t v) { return d.cp < v; });
  if (it == std::end(kDecompositions) || it->cp != cp) {
    out.push_back(cp);
    return;
  }
  out.insert(out.end(), kDecompPool + it->offset, kDecompPool + it->offset + it->length);
}

// The primary composite of a pair, or 0.
uint32_t compose(uint32_t first, uint32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase && second < kVBase + kVCount)
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 &&
      second > kTBase && second < kTBase + kTCount)
    return first + (second - kTBase);
  auto it = std::lower_bound(std::begin(kCompositions), std::end(kCompositions), std::make_pair(first, second),
                             [](const Composition &c, const std::pair<uint32_t, uint32_t> &v) {
                               return c.first < v.first || (c.first == v.first && c.second < v.second);
                             });
  return it != std::end(kCompositions) && it->first == first && it->second == second ? it->composite : 0;
}

} // namespace

std::string nfkcIdentifier(std::string_view utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(utf8);
  std::vector<uint32_t> cps;
  for (uint32_t cp : decodeUtf8(utf8)) decompose(cp, cps);
  // Canonical ordering: each run of combining marks stably sorted by class.
  for (size_t i = 0; i < cps.size();) {
    if (combiningClass(cps[i]) == 0) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < cps.size() && combiningClass(cps[j]) != 0) ++j;
    std::stable_sort(cps.begin() + long(i), cps.begin() + long(j),
                     [](uint32_t a, uint32_t b) { return combiningClass(a) < combiningClass(b); });
    i = j;
  }
  // Canonical composition: a mark joins the last starter unless a mark of the same or a
  // higher class (or a starter) stands between them.
  std::vector<uint32_t> out;
  size_t starter = SIZE_MAX;
  unsigned lastClass = 0;
  for (uint32_t cp : cps) {
    unsigned cls = combiningClass(cp);
    if (starter != SIZE_MAX && (lastClass < cls || (lastClass == 0 && starter + 1 == out.size()))) {
      if (uint32_t c = compose(out[starter], cp)) {
        out[starter] = c;
        continue;
      }
    }
    if (cls == 0) starter = out.size();
    lastClass = cls;
    out.push_back(cp);
  }
  std::string text;
  for (uint32_t cp : out) appendUtf8(text, cp);
  return text;
}

} // namespace mahou::frontend
