// The methods of str in compiled code (split, join, strip, case mapping, replace,
// the is* predicates, padding, partition) and conversions between numbers and
// strings (str(int), repr of floats, int(s), float(s), format specs of f-strings).
// Text beyond ASCII uses tables generated from Python's own str methods.
#include "mahou/objects.h"
#include "checked_size.h"
#include "mahou/utf8.h"
#include "mahou/layout.h"
#include "out_of_memory.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

using namespace mahou::runtime;
using mahou::appendUtf8;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

struct CodeRange {
  uint32_t first, last;
};
struct CaseMapping {
  uint32_t from, to;
};
struct SpecialCase {
  uint32_t from;
  uint32_t to[3];
};
#include "unicode_tables.inc"

template <size_t N> bool inRanges(const CodeRange (&table)[N], uint32_t c) {
  auto it = std::upper_bound(table, table + N, c, [](uint32_t v, const CodeRange &r) { return v < r.first; });
  return it != table && c <= (it - 1)->last;
}

// Appends the full case mapping of c (one to three code points): the special mappings
// first (sorted by code point), then the simple ones.
template <size_t N, size_t M>
void mapCase(const CaseMapping (&simple)[N], const SpecialCase (&special)[M], uint32_t c, std::vector<uint32_t> &out) {
  auto sp = std::lower_bound(special, special + M, c, [](const SpecialCase &m, uint32_t v) { return m.from < v; });
  if (sp != special + M && sp->from == c) {
    for (uint32_t x : sp->to)
      if (x) out.push_back(x);
    return;
  }
  auto it = std::lower_bound(simple, simple + N, c, [](const CaseMapping &m, uint32_t v) { return m.from < v; });
  out.push_back(it != simple + N && it->from == c ? it->to : c);
}

bool isSpace(uint32_t c) { return c < 128 ? (c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31)) : inRanges(kSpace, c); }
bool isAlpha(uint32_t c) { return c < 128 ? ((c | 32) >= 'a' && (c | 32) <= 'z') : inRanges(kAlpha, c); }
bool isDecimal(uint32_t c) { return c < 128 ? (c >= '0' && c <= '9') : inRanges(kDecimal, c); }
bool isDigit(uint32_t c) { return c < 128 ? (c >= '0' && c <= '9') : inRanges(kDigit, c); }
bool isNumeric(uint32_t c) { return c < 128 ? (c >= '0' && c <= '9') : inRanges(kNumeric, c); }
bool isLower(uint32_t c) { return c < 128 ? (c >= 'a' && c <= 'z') : inRanges(kLower, c); }
bool isUpper(uint32_t c) { return c < 128 ? (c >= 'A' && c <= 'Z') : inRanges(kUpper, c); }
bool isTitle(uint32_t c) { return c >= 128 && inRanges(kTitle, c); } // Lt: ǅ ǈ ǋ ...
bool isCased(uint32_t c) { return c < 128 ? isAlpha(c) : inRanges(kCased, c); }
bool isCaseIgnorable(uint32_t c) { return inRanges(kCaseIgnorable, c); }
// Python's line boundaries (str.splitlines).
bool isLineBreak(uint32_t c) {
  return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E || c == 0x85 ||
         c == 0x2028 || c == 0x2029;
}

// Capital sigma lowers to final sigma after a cased letter (case-ignorable ones
// between) when no cased letter follows (CPython's handle_capital_sigma).
uint32_t lowerSigma(const std::vector<uint32_t> &h, size_t i) {
  size_t j = i;
  while (j > 0 && isCaseIgnorable(h[j - 1])) --j;
  bool final = j > 0 && isCased(h[j - 1]);
  if (final) {
    size_t k = i + 1;
    while (k < h.size() && isCaseIgnorable(h[k])) ++k;
    final = k == h.size() || !isCased(h[k]);
  }
  return final ? 0x3C2 : 0x3C3;
}

// The full lower-case mapping of h[i] in its context.
void lowerAt(const std::vector<uint32_t> &h, size_t i, std::vector<uint32_t> &out) {
  if (h[i] == 0x3A3) out.push_back(lowerSigma(h, i));
  else mapCase(kToLower, kToLowerSpecial, h[i], out);
}

std::vector<uint32_t> codePoints(MahouMemInfo *mi) {
  MahouStr *s = mahouStr(mi);
  std::vector<uint32_t> out(size_t(s->length));
  for (int64_t i = 0; i < s->length; ++i) out[size_t(i)] = stringCharAt(s, i);
  return out;
}

// The code points of a string read in place: for the predicates, whose result cannot
// report an allocation failure (out_of_memory.h).
class CodePointView {
public:
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint32_t;
    using difference_type = int64_t;
    using pointer = const uint32_t *;
    using reference = uint32_t;
    iterator(const MahouStr *s, int64_t i) : s_(s), i_(i) {}
    uint32_t operator*() const { return stringCharAt(s_, i_); }
    iterator &operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) { return {s_, i_++}; }
    iterator operator+(int64_t k) const { return {s_, i_ + k}; }
    bool operator==(const iterator &o) const { return i_ == o.i_; }
    bool operator!=(const iterator &o) const { return i_ != o.i_; }

  private:
    const MahouStr *s_;
    int64_t i_;
  };
  explicit CodePointView(MahouMemInfo *mi) : s_(mahouStr(mi)) {}
  iterator begin() const { return {s_, 0}; }
  iterator end() const { return {s_, s_->length}; }
  bool empty() const { return s_->length == 0; }
  int64_t size() const { return s_->length; }
  uint32_t operator[](int64_t i) const { return stringCharAt(s_, i); }

private:
  const MahouStr *s_;
};

MahouMemInfo *fromVector(const std::vector<uint32_t> &cps) { return stringFromCodePoints(cps.data(), int64_t(cps.size())); }

// A string made of: `a` fill characters, an ASCII prefix, `b` fill characters, the
// `length` characters at(0..length), `c` fill characters. Its size is computed with
// overflow checks and allocated once by the runtime (a width no machine holds is a
// MemoryError from malloc, not first a vector of four-byte code points).
template <class At>
MahouMemInfo *padded(uint32_t fill, int64_t a, const std::string &prefix, int64_t b, int64_t length, At at, int64_t c) {
  int64_t total = 0;
  for (int64_t part : {a, int64_t(prefix.size()), b, length, c})
    if (!addSize(total, part, total)) {
      mahou_rt_set_error(ExcMemoryError, "out of memory");
      return nullptr;
    }
  uint32_t maxChar = a + b + c > 0 ? fill : 0;
  for (char ch : prefix) maxChar = std::max<uint32_t>(maxChar, uint8_t(ch));
  for (int64_t i = 0; i < length; ++i) maxChar = std::max(maxChar, at(i));
  MahouMemInfo *out = newString(total, maxChar < 256 ? 1 : maxChar < 65536 ? 2 : 4); // (kinds are canonical)
  if (!out) return nullptr;
  MahouStr *o = mahouStr(out);
  char *data = mahouStrData(o);
  int64_t k = 0;
  auto put = [&](uint32_t ch) {
    switch (o->kind) {
    case 1: reinterpret_cast<uint8_t *>(data)[k++] = uint8_t(ch); break;
    case 2: reinterpret_cast<uint16_t *>(data)[k++] = uint16_t(ch); break;
    default: reinterpret_cast<uint32_t *>(data)[k++] = ch; break;
    }
  };
  for (int64_t i = 0; i < a; ++i) put(fill);
  for (char ch : prefix) put(uint8_t(ch));
  for (int64_t i = 0; i < b; ++i) put(fill);
  for (int64_t i = 0; i < length; ++i) put(at(i));
  for (int64_t i = 0; i < c; ++i) put(fill);
  o->ascii = maxChar < 128;
  return out;
}

MahouMemInfo *fromAscii(const std::string &text) {
  std::vector<uint32_t> cps(text.begin(), text.end());
  return fromVector(cps);
}

std::string toUtf8(const std::vector<uint32_t> &cps) {
  std::string out;
  for (uint32_t c : cps) appendUtf8(out, c);
  return out;
}

// repr() of a string, as Python writes it (quotes chosen, escapes of control characters).
std::vector<uint32_t> reprOf(MahouMemInfo *mi) {
  std::vector<uint32_t> cps = codePoints(mi);
  bool hasSingle = std::find(cps.begin(), cps.end(), uint32_t('\'')) != cps.end();
  bool hasDouble = std::find(cps.begin(), cps.end(), uint32_t('"')) != cps.end();
  uint32_t quote = hasSingle && !hasDouble ? '"' : '\'';
  std::vector<uint32_t> out{quote};
  auto hex = [&](uint32_t c, int digits, char lead) {
    out.push_back('\\');
    out.push_back(uint32_t(lead));
    for (int k = digits - 1; k >= 0; --k) out.push_back(uint32_t("0123456789abcdef"[(c >> (4 * k)) & 15]));
  };
  for (uint32_t c : cps) {
    if (c == quote || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out.push_back('\\');
      out.push_back('n');
    } else if (c == '\r') {
      out.push_back('\\');
      out.push_back('r');
    } else if (c == '\t') {
      out.push_back('\\');
      out.push_back('t');
    } else if (c < 0x20 || c == 0x7F) hex(c, 2, 'x');
    else if (c < 0x7F) out.push_back(c);
    else if (c < 0x100 && !inRanges(kPrintable, c)) hex(c, 2, 'x');
    else if (!inRanges(kPrintable, c)) hex(c, c < 0x10000 ? 4 : 8, c < 0x10000 ? 'u' : 'U');
    else out.push_back(c);
  }
  out.push_back(quote);
  return out;
}

const MahouTypeDesc *unicodeItemDesc() {
  static const MahouTypeDesc *desc = [] {
    std::string blob = mahou::types::typeDescriptor(mahou::types::Type::unicode());
    return mahou_rt_intern_typedesc(blob.data(), int64_t(blob.size()));
  }();
  return desc;
}

// A new list of strings (the references of `parts` move into it).
MahouMemInfo *listOfStrings(std::vector<MahouMemInfo *> &parts) {
  MahouMemInfo *list = mahou_rt_list_new(unicodeItemDesc(), int64_t(parts.size()));
  if (!list) {
    for (auto *p : parts) mahou_rt_decref(p);
    return nullptr;
  }
  for (auto *p : parts) mahou_rt_list_append(list, &p);
  mahouList(list)->dirty = 0;
  return list;
}

MahouMemInfo *slice(const std::vector<uint32_t> &cps, size_t a, size_t b) {
  return stringFromCodePoints(cps.data() + a, int64_t(b - a));
}

// CPython's ADJUST_INDICES: negative bounds count from the end (not below 0), the end
// is cut to the length, the start is not (a start past the end finds nothing).
void adjustIndices(int64_t &start, int64_t &end, int64_t n) {
  if (end > n) end = n;
  else if (end < 0) end = std::max<int64_t>(end + n, 0);
  if (start < 0) start = std::max<int64_t>(start + n, 0);
}

bool matchesAt(const std::vector<uint32_t> &hay, const std::vector<uint32_t> &needle, size_t at) {
  if (at + needle.size() > hay.size()) return false;
  return std::equal(needle.begin(), needle.end(), hay.begin() + long(at));
}

// ---- numbers as text

std::string shortestDigits(double v, int &decpt) {
  // The shortest digits that read back as v (Python's repr), and the decimal point
  // position: v = 0.DIGITS * 10**decpt.
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  size_t e = s.find('e');
  int exp10 = std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i];
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  decpt = exp10 + 1;
  return digits;
}

std::string floatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  std::string sign = v < 0 ? "-" : "";
  int decpt;
  std::string d = shortestDigits(std::fabs(v), decpt);
  if (decpt > 16 || decpt < -3) {
    std::string mant = d.substr(0, 1);
    if (d.size() > 1) mant += "." + d.substr(1);
    int exp10 = decpt - 1;
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    return sign + mant + eb;
  }
  std::string out;
  if (decpt <= 0) out = "0." + std::string(size_t(-decpt), '0') + d;
  else if (size_t(decpt) >= d.size()) out = d + std::string(size_t(decpt) - d.size(), '0') + ".0";
  else out = d.substr(0, size_t(decpt)) + "." + d.substr(size_t(decpt));
  return sign + out;
}

// A parsed format spec: [[fill]align][sign][#][0][width][,|_][.precision][type]
struct FormatSpec {
  uint32_t fill = ' ';
  char align = 0, sign = '-', type = 0, grouping = 0;
  bool alternate = false, zero = false;
  int64_t width = -1, precision = -1;
};

bool parseSpec(MahouMemInfo *specStr, FormatSpec &f) {
  std::vector<uint32_t> s = codePoints(specStr);
  size_t i = 0;
  auto isAlign = [](uint32_t c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && isAlign(s[1])) {
    f.fill = s[0];
    f.align = char(s[1]);
    i = 2;
  } else if (!s.empty() && isAlign(s[0])) {
    f.align = char(s[0]);
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) f.sign = char(s[i++]);
  if (i < s.size() && s[i] == '#') {
    f.alternate = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    f.zero = true;
    ++i;
  }
  auto number = [&](int64_t &out) {
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    out = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') out = out * 10 + (s[i++] - '0');
    return true;
  };
  number(f.width);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) f.grouping = char(s[i++]);
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!number(f.precision)) return false;
  }
  if (i < s.size()) f.type = char(s[i++]);
  return i == s.size();
}

std::string group(const std::string &digits, char sep) {
  std::string out;
  int n = int(digits.size());
  for (int k = 0; k < n; ++k) {
    out += digits[size_t(k)];
    if (sep && (n - k - 1) % 3 == 0 && k != n - 1) out += sep;
  }
  return out;
}

// Pads `body` (sign separate so '=' and zero padding go between) to the spec's width.
MahouMemInfo *pad(const FormatSpec &f, const std::string &sign, const std::vector<uint32_t> &body, char defaultAlign) {
  char align = f.align ? f.align : (f.zero ? '=' : defaultAlign);
  uint32_t fill = f.align ? f.fill : (f.zero ? '0' : ' ');
  int64_t len = int64_t(sign.size() + body.size());
  int64_t padding = f.width > len ? f.width - len : 0;
  int64_t n = int64_t(body.size());
  auto at = [&](int64_t i) { return body[size_t(i)]; };
  if (align == '<') return padded(fill, 0, sign, 0, n, at, padding);
  if (align == '^') return padded(fill, padding / 2, sign, 0, n, at, padding - padding / 2);
  if (align == '=') return padded(fill, 0, sign, padding, n, at, 0);
  return padded(fill, padding, sign, 0, n, at, 0);
}

std::vector<uint32_t> ascii(const std::string &s) { return std::vector<uint32_t>(s.begin(), s.end()); }

bool badSpec(const char *what) {
  mahou_rt_set_error(ExcValueError, what);
  return false;
}

MahouMemInfo *formatDouble(double v, const FormatSpec &f, bool fromInt) {
  char type = f.type;
  if (type && !std::strchr("eEfFgG%n", type)) {
    badSpec("Unknown format code for a float");
    return nullptr;
  }
  std::string sign = std::signbit(v) && !std::isnan(v) ? "-" : (f.sign == '+' ? "+" : f.sign == ' ' ? " " : "");
  double a = std::fabs(v);
  std::string body;
  if (!type && f.precision < 0) body = fromInt ? std::to_string(int64_t(a)) : floatRepr(a);
  else {
    int prec = f.precision < 0 ? 6 : int(f.precision);
    char t = type ? type : 'g';
    if (t == 'n') t = 'g';
    double x = a;
    if (t == '%') {
      x *= 100;
      t = 'f';
    }
    char fmt[16];
    std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", f.alternate ? "#" : "", prec, t);
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, x);
    body = buf;
    if (!type && body.find_first_of(".eEn") == std::string::npos) body += ".0"; // no type: like str()
    if (type == '%') body += "%";
  }
  if (f.grouping) {
    size_t end = body.find_first_not_of("0123456789");
    if (end == std::string::npos) end = body.size();
    body = group(body.substr(0, end), f.grouping) + body.substr(end);
  }
  return pad(f, sign, ascii(body), '>');
}

} // namespace

extern "C" {

int32_t mahou_rt_str_startswith(MahouMemInfo *s, MahouMemInfo *prefix, int64_t start, int64_t end, int32_t atEnd) {
  CodePointView h(s), p(prefix);
  adjustIndices(start, end, h.size());
  if (end - start < p.size()) return 0;
  int64_t at = atEnd ? end - p.size() : start;
  for (int64_t k = 0; k < p.size(); ++k)
    if (h[at + k] != p[k]) return 0;
  return 1;
}

int32_t mahou_rt_str_count(MahouMemInfo *s, MahouMemInfo *sub, int64_t start, int64_t end, int64_t *out) try {
  std::vector<uint32_t> h = codePoints(s), p = codePoints(sub);
  adjustIndices(start, end, int64_t(h.size()));
  int64_t count = 0;
  if (p.empty()) count = end >= start ? end - start + 1 : 0;
  else
    for (int64_t i = start; i + int64_t(p.size()) <= end;)
      if (std::equal(p.begin(), p.end(), h.begin() + i)) {
        ++count;
        i += int64_t(p.size());
      } else {
        ++i;
      }
  *out = count;
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

MahouMemInfo *mahou_rt_str_split(MahouMemInfo *s, MahouMemInfo *sep, int64_t maxsplit, int32_t fromRight) try {
  std::vector<uint32_t> h = codePoints(s), p = codePoints(sep);
  if (p.empty()) {
    mahou_rt_set_error(ExcValueError, "empty separator");
    return nullptr;
  }
  std::vector<std::pair<size_t, size_t>> pieces;
  if (!fromRight) {
    size_t begin = 0;
    for (size_t i = 0; i + p.size() <= h.size();) {
      if ((maxsplit < 0 || int64_t(pieces.size()) < maxsplit) && matchesAt(h, p, i)) {
        pieces.push_back({begin, i});
        i += p.size();
        begin = i;
      } else {
        ++i;
      }
    }
    pieces.push_back({begin, h.size()});
  } else {
    size_t end = h.size();
    for (int64_t i = int64_t(h.size()) - int64_t(p.size()); i >= 0;) {
      if ((maxsplit < 0 || int64_t(pieces.size()) < maxsplit) && matchesAt(h, p, size_t(i))) {
        pieces.push_back({size_t(i) + p.size(), end});
        end = size_t(i);
        i -= int64_t(p.size());
      } else {
        --i;
      }
    }
    pieces.push_back({0, end});
    std::reverse(pieces.begin(), pieces.end());
  }
  std::vector<MahouMemInfo *> parts;
  for (auto [a, b] : pieces) parts.push_back(slice(h, a, b));
  return listOfStrings(parts);
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_split_ws(MahouMemInfo *s, int64_t maxsplit, int32_t fromRight) try {
  std::vector<uint32_t> h = codePoints(s);
  std::vector<std::pair<size_t, size_t>> pieces;
  if (!fromRight) {
    size_t i = 0, n = h.size();
    while (true) {
      while (i < n && isSpace(h[i])) ++i;
      if (i == n) break;
      if (maxsplit >= 0 && int64_t(pieces.size()) == maxsplit) { // the rest, as it is
        pieces.push_back({i, n});
        break;
      }
      size_t j = i;
      while (j < n && !isSpace(h[j])) ++j;
      pieces.push_back({i, j});
      i = j;
    }
  } else {
    int64_t i = int64_t(h.size());
    while (true) {
      while (i > 0 && isSpace(h[size_t(i - 1)])) --i;
      if (i == 0) break;
      if (maxsplit >= 0 && int64_t(pieces.size()) == maxsplit) { // the rest, as it is
        pieces.push_back({0, size_t(i)});
        break;
      }
      int64_t j = i;
      while (j > 0 && !isSpace(h[size_t(j - 1)])) --j;
      pieces.push_back({size_t(j), size_t(i)});
      i = j;
    }
    std::reverse(pieces.begin(), pieces.end());
  }
  std::vector<MahouMemInfo *> parts;
  for (auto [a, b] : pieces) parts.push_back(slice(h, a, b));
  return listOfStrings(parts);
} MAHOU_RT_CATCH_ALLOC(nullptr)

// Lines at Python's line boundaries (\r\n is one), with or without their ends; no empty
// line after a final boundary.
MahouMemInfo *mahou_rt_str_splitlines(MahouMemInfo *s, int32_t keepends) try {
  std::vector<uint32_t> h = codePoints(s);
  std::vector<MahouMemInfo *> parts;
  size_t i = 0, n = h.size();
  while (i < n) {
    size_t j = i;
    while (i < n && !isLineBreak(h[i])) ++i;
    size_t eol = i;
    if (i < n) {
      i += h[i] == '\r' && i + 1 < n && h[i + 1] == '\n' ? 2 : 1;
      if (keepends) eol = i;
    }
    parts.push_back(slice(h, j, eol));
  }
  return listOfStrings(parts);
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_expandtabs(MahouMemInfo *s, int64_t tabsize) try {
  std::vector<uint32_t> h = codePoints(s), out;
  int64_t column = 0;
  for (uint32_t c : h) {
    if (c == '\t') {
      if (tabsize > 0) {
        int64_t fill = tabsize - column % tabsize;
        column += fill;
        out.insert(out.end(), size_t(fill), uint32_t(' '));
      }
      continue;
    }
    out.push_back(c);
    column = c == '\n' || c == '\r' ? 0 : column + 1;
  }
  return fromVector(out);
} MAHOU_RT_CATCH_ALLOC(nullptr)

// One pass for the length and the widest kind, one to copy: nothing beyond the result
// is held (through code point vectors a join held four bytes a character, twice over).
MahouMemInfo *mahou_rt_str_join(MahouMemInfo *sep, MahouMemInfo *list) {
  MahouList *l = mahouList(list);
  MahouStr *s = mahouStr(sep);
  auto item = [&](int64_t i) {
    MahouMemInfo *mi;
    std::memcpy(&mi, l->items + i * l->itemSize, sizeof mi);
    return mahouStr(mi);
  };
  int64_t length = 0;
  if (l->size > 1 && !mulSize(s->length, l->size - 1, length)) length = -1;
  int32_t kind = 1; // kinds are canonical: the widest piece's is the result's
  bool ascii = l->size < 2 || s->ascii;
  if (l->size > 1 && s->length) kind = s->kind;
  for (int64_t i = 0; i < l->size && length >= 0; ++i) {
    MahouStr *x = item(i);
    if (!addSize(length, x->length, length)) length = -1;
    if (x->length) kind = std::max(kind, x->kind);
    ascii = ascii && x->ascii;
  }
  if (length < 0) {
    mahou_rt_set_error(ExcOverflowError, "join() result is too long for a Python string");
    return nullptr;
  }
  MahouMemInfo *out = newString(length, kind);
  if (!out) return nullptr;
  MahouStr *o = mahouStr(out);
  int64_t at = 0;
  auto append = [&](MahouStr *x) {
    char *d = mahouStrData(o) + at * kind;
    if (x->kind == kind) std::memcpy(d, mahouStrData(x), size_t(x->length * kind));
    else if (kind == 2)
      for (int64_t k = 0; k < x->length; ++k) reinterpret_cast<uint16_t *>(d)[k] = uint16_t(stringCharAt(x, k));
    else
      for (int64_t k = 0; k < x->length; ++k) reinterpret_cast<uint32_t *>(d)[k] = stringCharAt(x, k);
    at += x->length;
  };
  for (int64_t i = 0; i < l->size; ++i) {
    if (i) append(s);
    append(item(i));
  }
  o->ascii = ascii;
  return out;
}

// mode: 0 both ends, 1 left, 2 right. chars null: whitespace.
MahouMemInfo *mahou_rt_str_strip(MahouMemInfo *s, MahouMemInfo *chars, int64_t mode) try {
  std::vector<uint32_t> h = codePoints(s), c;
  if (chars) c = codePoints(chars);
  auto strip = [&](uint32_t x) { return chars ? std::find(c.begin(), c.end(), x) != c.end() : isSpace(x); };
  size_t a = 0, b = h.size();
  if (mode != 2)
    while (a < b && strip(h[a])) ++a;
  if (mode != 1)
    while (b > a && strip(h[b - 1])) --b;
  return slice(h, a, b);
} MAHOU_RT_CATCH_ALLOC(nullptr)

// mode: 0 lower, 1 upper, 2 swapcase, 3 capitalize, 4 title, 5 casefold: CPython's
// algorithms (unicodeobject.c) over full case mappings.
MahouMemInfo *mahou_rt_str_case(MahouMemInfo *s, int64_t mode) try {
  std::vector<uint32_t> h = codePoints(s), out;
  out.reserve(h.size());
  bool previousCased = false;
  for (size_t i = 0; i < h.size(); ++i) {
    uint32_t c = h[i];
    switch (mode) {
    case 1: mapCase(kToUpper, kToUpperSpecial, c, out); break;
    case 2:
      if (isUpper(c)) lowerAt(h, i, out);
      else if (isLower(c)) mapCase(kToUpper, kToUpperSpecial, c, out);
      else out.push_back(c);
      break;
    case 3:
      if (i == 0) mapCase(kToTitle, kToTitleSpecial, c, out);
      else lowerAt(h, i, out);
      break;
    case 4:
      if (previousCased) lowerAt(h, i, out);
      else mapCase(kToTitle, kToTitleSpecial, c, out);
      previousCased = isCased(c);
      break;
    case 5: mapCase(kToFold, kToFoldSpecial, c, out); break;
    default: lowerAt(h, i, out); break;
    }
  }
  return fromVector(out);
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_replace(MahouMemInfo *s, MahouMemInfo *old, MahouMemInfo *repl, int64_t count) try {
  std::vector<uint32_t> h = codePoints(s), o = codePoints(old), r = codePoints(repl), out;
  int64_t done = 0;
  if (o.empty()) {
    // Python inserts the replacement before every character and at the end.
    for (size_t i = 0; i <= h.size(); ++i) {
      if (count < 0 || done < count) {
        out.insert(out.end(), r.begin(), r.end());
        ++done;
      }
      if (i < h.size()) out.push_back(h[i]);
    }
    return fromVector(out);
  }
  for (size_t i = 0; i < h.size();) {
    if ((count < 0 || done < count) && matchesAt(h, o, i)) {
      out.insert(out.end(), r.begin(), r.end());
      i += o.size();
      ++done;
    } else {
      out.push_back(h[i++]);
    }
  }
  return fromVector(out);
} MAHOU_RT_CATCH_ALLOC(nullptr)

// kind: 0 isdigit 1 isalpha 2 isspace 3 isalnum 4 isdecimal 5 isnumeric 6 islower
// 7 isupper 8 istitle 9 isascii 10 isidentifier 11 isprintable
int32_t mahou_rt_str_is(MahouMemInfo *s, int64_t kind) {
  CodePointView h(s);
  if (kind == 9) return std::all_of(h.begin(), h.end(), [](uint32_t c) { return c < 128; });
  if (kind == 11) return std::all_of(h.begin(), h.end(), [](uint32_t c) { return c == ' ' || inRanges(kPrintable, c); });
  if (h.empty()) return 0;
  switch (kind) {
  case 0: return std::all_of(h.begin(), h.end(), isDigit);
  case 1: return std::all_of(h.begin(), h.end(), isAlpha);
  case 2: return std::all_of(h.begin(), h.end(), isSpace);
  case 3: return std::all_of(h.begin(), h.end(), [](uint32_t c) { return isAlpha(c) || isNumeric(c); });
  case 4: return std::all_of(h.begin(), h.end(), isDecimal);
  case 5: return std::all_of(h.begin(), h.end(), isNumeric);
  case 6:
  case 7: { // islower / isupper: no character of the other case or title case, one of this case
    bool anyCased = false;
    for (uint32_t c : h) {
      if (isTitle(c) || (kind == 6 ? isUpper(c) : isLower(c))) return 0;
      if (kind == 6 ? isLower(c) : isUpper(c)) anyCased = true;
    }
    return anyCased;
  }
  case 8: {
    bool previousCased = false, anyCased = false;
    for (uint32_t c : h) {
      if (isUpper(c) || isTitle(c)) {
        if (previousCased) return 0;
        previousCased = anyCased = true;
      } else if (isLower(c)) {
        if (!previousCased) return 0;
        previousCased = anyCased = true;
      } else {
        previousCased = false;
      }
    }
    return anyCased;
  }
  case 10: { // XID_Start or '_', then XID_Continue
    if (!inRanges(kXidStart, h[0])) return 0;
    return std::all_of(h.begin() + 1, h.end(), [](uint32_t c) { return inRanges(kXidContinue, c); });
  }
  default: return 0;
  }
}

MahouMemInfo *mahou_rt_str_zfill(MahouMemInfo *s, int64_t width) {
  MahouStr *x = mahouStr(s);
  int64_t n = x->length, fill = width > n ? width - n : 0; // (width - n may not fit: width can be -2**63)
  bool signed_ = n > 0 && (stringCharAt(x, 0) == '+' || stringCharAt(x, 0) == '-');
  std::string sign = signed_ ? std::string(1, char(stringCharAt(x, 0))) : std::string();
  int64_t skip = signed_ ? 1 : 0;
  return padded('0', 0, sign, fill, n - skip, [&](int64_t i) { return stringCharAt(x, i + skip); }, 0);
}

// mode: 0 center, 1 ljust, 2 rjust; fill is a string of one character.
MahouMemInfo *mahou_rt_str_pad(MahouMemInfo *s, int64_t width, MahouMemInfo *fill, int64_t mode) {
  MahouStr *x = mahouStr(s), *f = mahouStr(fill);
  if (f->length != 1) {
    mahou_rt_set_error(ExcTypeError, "The fill character must be exactly one character long");
    return nullptr;
  }
  int64_t n = x->length, total = width > n ? width - n : 0, left;
  if (mode == 1) left = 0;
  else if (mode == 2) left = total;
  else left = total / 2 + (total & width & 1); // CPython's centering rule
  return padded(stringCharAt(f, 0), left, std::string(), 0, n, [&](int64_t i) { return stringCharAt(x, i); },
                total - left);
}

MahouMemInfo *mahou_rt_str_partition(MahouMemInfo *s, MahouMemInfo *sep, int32_t fromRight) try {
  std::vector<uint32_t> h = codePoints(s), p = codePoints(sep);
  if (p.empty()) {
    mahou_rt_set_error(ExcValueError, "empty separator");
    return nullptr;
  }
  int64_t at = mahou_rt_str_find(s, sep, 0, INT64_MAX, fromRight);
  std::vector<MahouMemInfo *> parts;
  if (at < 0) {
    // Not found: (s, '', '') or, from the right, ('', '', s).
    parts = {stringFromCodePoints(nullptr, 0), stringFromCodePoints(nullptr, 0), stringFromCodePoints(nullptr, 0)};
    mahou_rt_decref(parts[fromRight ? 2 : 0]);
    parts[fromRight ? 2 : 0] = fromVector(h);
  } else {
    parts = {slice(h, 0, size_t(at)), fromVector(p), slice(h, size_t(at) + p.size(), h.size())};
  }
  return listOfStrings(parts);
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_repr(MahouMemInfo *s) try { return fromVector(reprOf(s)); } MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_from_int(int64_t v) try { return fromAscii(std::to_string(v)); } MAHOU_RT_CATCH_ALLOC(nullptr)
MahouMemInfo *mahou_rt_str_from_uint(uint64_t v) try { return fromAscii(std::to_string(v)); } MAHOU_RT_CATCH_ALLOC(nullptr)
MahouMemInfo *mahou_rt_str_from_float(double v) try { return fromAscii(floatRepr(v)); } MAHOU_RT_CATCH_ALLOC(nullptr)

int32_t mahou_rt_str_to_int(MahouMemInfo *s, int64_t base, int64_t *out) try {
  if (base != 0 && (base < 2 || base > 36)) {
    mahou_rt_set_error(ExcValueError, "int() base must be >= 2 and <= 36, or 0");
    return 1;
  }
  std::vector<uint32_t> h = codePoints(s);
  const int64_t baseAsked = base;
  auto fail = [&] {
    std::string msg = "invalid literal for int() with base " + std::to_string(baseAsked) + ": " + toUtf8(reprOf(s));
    mahou_rt_set_error(ExcValueError, msg.c_str());
    return 1;
  };
  size_t a = 0, b = h.size();
  while (a < b && isSpace(h[a])) ++a;
  while (b > a && isSpace(h[b - 1])) --b;
  bool neg = false;
  if (a < b && (h[a] == '+' || h[a] == '-')) neg = h[a++] == '-';
  if (a == b) return fail();
  // A 0x/0o/0b prefix (its base, or base 0: it chooses), then an underscore may follow.
  bool prefixed = false;
  if (b - a >= 2 && h[a] == '0') {
    uint32_t p = h[a + 1] | 32;
    int64_t pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb && (base == 0 || base == pb)) {
      base = pb;
      a += 2;
      prefixed = true;
    }
  }
  if (base == 0) { // no prefix: decimal, where a leading zero is allowed for zero only
    base = 10;
    if (h[a] == '0')
      for (size_t i = a; i < b; ++i)
        if (h[i] != '0' && h[i] != '_') return fail();
  }
  unsigned __int128 value = 0;
  bool lastUnderscore = !prefixed;
  if (prefixed && a == b) return fail();
  for (size_t i = a; i < b; ++i) {
    uint32_t c = h[i];
    if (c == '_') {
      if (lastUnderscore) return fail();
      lastUnderscore = true;
      continue;
    }
    int d = -1;
    if (isDecimal(c)) d = c < 128 ? int(c - '0') : -1;
    if (c < 128 && std::isalpha(int(c))) d = std::tolower(int(c)) - 'a' + 10;
    if (d < 0 && c >= 128 && isDecimal(c)) {
      // Other scripts' decimal digits: the digit is the offset in its run of ten.
      uint32_t zero = c;
      while (zero > 0 && isDecimal(zero - 1) && c - zero < 9) --zero;
      d = int(c - zero);
    }
    if (d < 0 || d >= base) return fail();
    value = value * unsigned(base) + unsigned(d);
    if (value > (unsigned __int128)(uint64_t(INT64_MAX)) + 1) {
      mahou_rt_set_error(ExcOverflowError, "int() result does not fit in int64");
      return 1;
    }
    lastUnderscore = false;
  }
  if (lastUnderscore) return fail();
  if (!neg && value > uint64_t(INT64_MAX)) {
    mahou_rt_set_error(ExcOverflowError, "int() result does not fit in int64");
    return 1;
  }
  *out = neg ? int64_t(uint64_t(0) - uint64_t(value)) : int64_t(value);
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

int32_t mahou_rt_str_to_float(MahouMemInfo *s, double *out) try {
  std::vector<uint32_t> h = codePoints(s);
  size_t a = 0, b = h.size();
  while (a < b && isSpace(h[a])) ++a;
  while (b > a && isSpace(h[b - 1])) --b;
  std::string text;
  bool ok = a < b, lastUnderscore = true;
  for (size_t i = a; i < b && ok; ++i) {
    uint32_t c = h[i];
    if (c == '_') {
      ok = !lastUnderscore && i + 1 < b && std::isdigit(int(h[i + 1] < 128 ? h[i + 1] : 0));
      lastUnderscore = true;
      continue;
    }
    lastUnderscore = !(c < 128 && std::isdigit(int(c)));
    if (c >= 128) ok = false;
    else text += char(c);
  }
  std::string lower = text;
  for (auto &c : lower) c = char(std::tolower(c));
  std::string body = !lower.empty() && (lower[0] == '+' || lower[0] == '-') ? lower.substr(1) : lower;
  bool hexLike = body.find('x') != std::string::npos;
  char *end = nullptr;
  double v = 0;
  if (ok && !hexLike) {
    if (body == "inf" || body == "infinity" || body == "nan") {
      v = body == "nan" ? NAN : INFINITY;
      if (lower[0] == '-') v = -v;
      end = text.data() + text.size();
    } else if (body != "infinit" && body.find('n') == std::string::npos && body.find('i') == std::string::npos) {
      errno = 0;
      v = std::strtod(text.c_str(), &end);
    }
  }
  if (!ok || hexLike || !end || end != text.data() + text.size() || text.empty()) {
    std::string msg = "could not convert string to float: " + toUtf8(reprOf(s));
    mahou_rt_set_error(ExcValueError, msg.c_str());
    return 1;
  }
  *out = v;
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

MahouMemInfo *mahou_rt_str_format_int(int64_t v, MahouMemInfo *specStr) try {
  FormatSpec f;
  if (!parseSpec(specStr, f) && !badSpec("Invalid format specifier")) return nullptr;
  char type = f.type ? f.type : 'd';
  if (std::strchr("eEfFgG%", type)) return formatDouble(double(v), f, true);
  std::string sign = v < 0 ? "-" : (f.sign == '+' ? "+" : f.sign == ' ' ? " " : "");
  uint64_t a = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  std::string body, prefix;
  if (type == 'c') {
    uint32_t c = uint32_t(v);
    return pad(f, "", std::vector<uint32_t>{c}, '<');
  }
  int base = type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' ? 2 : 10;
  if (!std::strchr("dnxXob", type)) {
    badSpec("Unknown format code for an integer");
    return nullptr;
  }
  if (a == 0) body = "0";
  while (a) {
    body += "0123456789abcdef"[a % unsigned(base)];
    a /= unsigned(base);
  }
  std::reverse(body.begin(), body.end());
  if (type == 'X')
    for (auto &c : body) c = char(std::toupper(c));
  if (f.alternate && base != 10) prefix = std::string("0") + (base == 16 ? type : base == 8 ? 'o' : 'b');
  if (f.grouping) body = group(body, f.grouping);
  return pad(f, sign + prefix, ascii(body), '>');
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_format_float(double v, MahouMemInfo *specStr) try {
  FormatSpec f;
  if (!parseSpec(specStr, f) && !badSpec("Invalid format specifier")) return nullptr;
  return formatDouble(v, f, false);
} MAHOU_RT_CATCH_ALLOC(nullptr)

MahouMemInfo *mahou_rt_str_format_str(MahouMemInfo *s, MahouMemInfo *specStr) try {
  FormatSpec f;
  if (!parseSpec(specStr, f) && !badSpec("Invalid format specifier")) return nullptr;
  if (f.type && f.type != 's') {
    badSpec("Unknown format code for a string");
    return nullptr;
  }
  std::vector<uint32_t> h = codePoints(s);
  if (f.precision >= 0 && int64_t(h.size()) > f.precision) h.resize(size_t(f.precision));
  return pad(f, "", h, '<');
} MAHOU_RT_CATCH_ALLOC(nullptr)

} // extern "C"
