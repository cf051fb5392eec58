// Parser for the type syntax of signatures: "float64(float64[:, ::1], int64)".
#include "mahou/range_type.h"
#include "mahou/types.h"
#include "mahou/datetime_units.h"

#include <cctype>

namespace mahou::types {

namespace {

class TypeParser {
public:
  explicit TypeParser(const std::string &text) : s_(text) {}

  std::optional<Type> parseWhole() {
    auto t = parseType();
    if (!t) return std::nullopt;
    skipSpace();
    if (pos_ != s_.size()) return fail("unexpected '" + s_.substr(pos_) + "'");
    return t;
  }

  std::optional<Signature> parseSignature() {
    Signature sig;
    skipSpace();
    if (peek() != '(') {
      auto ret = parseType();
      if (!ret) return std::nullopt;
      sig.ret = *ret;
    }
    if (!eat('(')) return failSig("expected '(' after the return type");
    if (!eat(')')) {
      do {
        if (peek() == ')') break; // trailing comma
        auto t = parseType();
        if (!t) return std::nullopt;
        sig.args.push_back(*t);
      } while (eat(','));
      if (!eat(')')) return failSig("expected ')' or ','");
    }
    skipSpace();
    if (pos_ != s_.size()) return failSig("unexpected '" + s_.substr(pos_) + "'");
    return sig;
  }

  std::string error;

private:
  std::optional<Type> fail(const std::string &msg) {
    if (error.empty()) error = "invalid type '" + s_ + "': " + msg;
    return std::nullopt;
  }
  std::optional<Signature> failSig(const std::string &msg) {
    fail(msg);
    return std::nullopt;
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() {
    skipSpace();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool eat(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool eatWord(const char *w) {
    skipSpace();
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(pos_, n, w) != 0) return false;
    pos_ += n;
    return true;
  }
  std::string ident() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    return s_.substr(start, pos_ - start);
  }

  static std::optional<Type> scalarByName(const std::string &n) {
    static const std::pair<const char *, DType> aliases[] = {
        {"bool_", DType::Bool},     {"boolean", DType::Bool},   {"b1", DType::Bool},
        {"int_", DType::Int64},     {"intp", DType::Int64},     {"intc", DType::Int32},
        {"i1", DType::Int8},        {"i2", DType::Int16},       {"i4", DType::Int32},
        {"i8", DType::Int64},       {"u1", DType::UInt8},       {"u2", DType::UInt16},
        {"u4", DType::UInt32},      {"u8", DType::UInt64},      {"uintp", DType::UInt64},
        {"float_", DType::Float64}, {"double", DType::Float64}, {"f4", DType::Float32},
        {"f8", DType::Float64},     {"float", DType::Float64},  {"int", DType::Int64},
        {"c8", DType::Complex64},   {"c16", DType::Complex128}, {"complex", DType::Complex128},
        {"byte", DType::Int8},      {"uint", DType::UInt64},    {"single", DType::Float32},
        {"f2", DType::Float16},     {"half", DType::Float16},
    };
    if (auto d = dtypeFromName(n)) return Type::scalar(*d);
    for (auto &[name, d] : aliases)
      if (n == name) return Type::scalar(d);
    return std::nullopt;
  }

  // A scalar type by name; datetime64[D] / timedelta64[ns] (also M8[D], m8[ns]) read their unit.
  std::optional<Type> namedScalar(const std::string &n) {
    if (n == "datetime64" || n == "timedelta64" || n == "M8" || n == "m8") {
      size_t save = pos_;
      std::string unit;
      if (eat('[')) {
        while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) unit += s_[pos_++];
        if (!eat(']')) { // not a unit: an array suffix follows (datetime64[:] is not a type)
          pos_ = save;
          unit.clear();
        }
      }
      if (auto d = datetimeFromName(n + (unit.empty() ? "" : "[" + unit + "]"))) return Type::scalar(*d);
      return std::nullopt;
    }
    return scalarByName(n);
  }

  // After a dtype: [:], [:, :], [::1], [:, ::1], [::1, :]
  std::optional<Type> parseArraySuffix(DType d) {
    int ndim = 0;
    int contiguousAt = -1;
    do {
      if (!eat(':')) return fail("expected ':' in array dimensions");
      if (eat(':')) {
        skipSpace();
        if (!eatWord("1")) return fail("only '::1' marks a contiguous dimension");
        if (contiguousAt >= 0) return fail("more than one '::1'");
        contiguousAt = ndim;
      }
      ++ndim;
    } while (eat(','));
    if (!eat(']')) return fail("expected ']'");
    Layout layout = Layout::A;
    if (contiguousAt == ndim - 1) layout = Layout::C;
    else if (contiguousAt == 0) layout = Layout::F;
    else if (contiguousAt > 0) return fail("'::1' must be on the first or last dimension");
    return Type::array(d, ndim, layout);
  }

  std::optional<Type> parseType() {
    if (atCharSeq()) return parseCharSeq(); // [unichr x 5]: an S/U item (a string dtype's)
    if (eat('(')) { // (a, b) tuple
      std::vector<Type> elems;
      if (!eat(')')) {
        do {
          if (peek() == ')') break;
          auto t = parseType();
          if (!t) return std::nullopt;
          elems.push_back(*t);
        } while (eat(','));
        if (!eat(')')) return fail("expected ')'");
      }
      return Type::tuple(std::move(elems));
    }
    std::string name = ident();
    if (name.empty()) return fail("expected a type name");
    if (name == "none" || name == "void" || name == "None") return Type::none();
    if (name == "unicode_type" || name == "str" || name == "string") return Type::unicode();
    if (name == "range_state64") return rangeType(); // a range object (Type::str's spelling)
    // Containers as Type::str() spells them: ListType[T] / list(T), DictType[K, V], SetType[T] / set(T),
    // OptionalType(T); Numba's optional(T) and Optional(T) too.
    if (name == "ListType" || name == "DictType" || name == "SetType" || name == "list" || name == "set" || name == "OptionalType" ||
        name == "Optional" || name == "optional") {
      char open = peek();
      char close = open == '[' ? ']' : ')';
      if (!eat(open) || (open != '[' && open != '(')) return fail("expected '[' or '(' after " + name);
      std::vector<Type> items;
      do {
        auto t = parseType();
        if (!t) return std::nullopt;
        items.push_back(*t);
      } while (eat(','));
      if (!eat(close)) return fail(std::string("expected '") + close + "'");
      size_t want = name == "DictType" ? 2 : 1;
      if (items.size() != want) return fail(name + " takes " + std::to_string(want) + " type(s)");
      if (name == "ListType") return Type::list(items[0], true);
      if (name == "list") return Type::list(items[0]);
      if (name == "set") return Type::set(items[0]);
      if (name == "SetType") return Type::set(items[0], true);
      if (name == "DictType") return Type::dict(items[0], items[1]);
      return Type::optional(items[0]);
    }
    if (name == "voidptr") return Type::cpointer(std::nullopt);
    if (name == "CPointer") { // CPointer(float64)
      if (!eat('(')) return fail("expected '(' after CPointer");
      auto pointee = parseType();
      if (!pointee) return std::nullopt;
      if (!pointee->isNumber()) return fail("CPointer needs a scalar type");
      if (!eat(')')) return fail("expected ')'");
      return Type::cpointer(pointee->dtype);
    }
    if (name == "UniTuple") {
      if (!eat('(')) return fail("expected '(' after UniTuple");
      auto elem = parseType();
      if (!elem) return std::nullopt;
      if (!eat(',') && !eat('x')) return fail("expected ',' in UniTuple");
      skipSpace();
      size_t start = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (start == pos_) return fail("expected a count in UniTuple");
      int n = std::stoi(s_.substr(start, pos_ - start));
      if (!eat(')')) return fail("expected ')'");
      return Type::tuple(std::vector<Type>(n, *elem));
    }
    if (name == "Tuple") {
      if (!eat('(')) return fail("expected '(' after Tuple");
      std::vector<Type> elems;
      bool bracketed = false; // Numba's spelling: Tuple((a, b)), the types as one tuple
      if (!eat(')')) {
        skipSpace();
        bracketed = peek() == '(';
        do {
          auto t = parseType();
          if (!t) return std::nullopt;
          elems.push_back(*t);
        } while (eat(','));
        if (!eat(')')) return fail("expected ')'");
      }
      if (bracketed && elems.size() == 1) return elems[0];
      return Type::tuple(std::move(elems));
    }
    if (name == "Record") return parseRecord();
    if (name == "dtype") { // dtype(float32), dtype(Record(...)): a dtype as a value
      if (!eat('(')) return fail("expected '(' after dtype");
      std::optional<Type> d = parseItemType();
      if (!d) return fail("unknown dtype in dtype(...)");
      if (!eat(')')) return fail("expected ')'");
      bool item = d->isRecord() || d->isCharSeq();
      Type t = Type::dtypeObj(item ? DType::UInt8 : d->dtype);
      if (item) t.elems.push_back(*d);
      return t;
    }
    // array(float64, 2d, C); array(Record(...), 1d, C); a buffer object's: bytes(uint8, 1d, C, readonly)
    BufferKind buffer = name == "bytes" ? BufferKind::Bytes : name == "bytearray" ? BufferKind::ByteArray
                        : name == "memoryview" ? BufferKind::MemoryView : name == "pyarray" ? BufferKind::PyArray
                        : BufferKind::None;
    if (name == "array" || (buffer != BufferKind::None && pos_ < s_.size() && s_[pos_] == '(')) {
      if (!eat('(')) return fail("expected '(' after array");
      std::optional<Type> d = parseItemType();
      if (!d) return fail("unknown dtype in array(...)");
      if (!eat(',')) return fail("expected ','");
      skipSpace();
      size_t start = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (start == pos_) return fail("expected ndim");
      int nd = std::stoi(s_.substr(start, pos_ - start));
      eatWord("d");
      Layout layout = Layout::A;
      bool readonly = false;
      while (eat(',')) {
        std::string w = ident();
        if (w == "C") layout = Layout::C;
        else if (w == "F") layout = Layout::F;
        else if (w == "A") layout = Layout::A;
        else if (w == "readonly") readonly = true;
        else return fail("unknown array flag '" + w + "'");
      }
      if (!eat(')')) return fail("expected ')'");
      if (d->isRecord() || d->isCharSeq()) return Type::recordArray(*d, nd, layout, readonly);
      Type t = Type::array(d->dtype, nd, layout, readonly);
      t.buffer = buffer;
      return t;
    }
    if (name == "instance" && eatWord(".jitclass.")) return parseInstance();
    auto scalar = namedScalar(name);
    if (!scalar) return fail("unknown type name '" + name + "'");
    if (eat('[')) return parseArraySuffix(scalar->dtype);
    return scalar;
  }

  int64_t integer() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return start == pos_ ? -1 : std::stoll(s_.substr(start, pos_ - start));
  }

  // A record as Type::str() spells it (Numba's spelling, after "Record"):
  // (a[type=int32;offset=0],b[type=float64;offset=8];16;False[;readonly])
  std::optional<Type> parseRecord() {
    if (!eat('(')) return fail("expected '(' after Record");
    std::vector<std::string> names;
    std::vector<Type> fields;
    std::vector<int64_t> offsets;
    do {
      skipSpace();
      size_t open = s_.find('[', pos_);
      if (open == std::string::npos || open == pos_) return fail("expected a field: name[type=...;offset=...]");
      names.push_back(s_.substr(pos_, open - pos_));
      pos_ = open + 1;
      if (!eatWord("type=")) return fail("expected 'type=' in a record field");
      auto ft = atCharSeq() ? parseCharSeq() : scalarByName(ident());
      if (!ft) return fail("a record field's type must be a scalar or a character sequence");
      fields.push_back(*ft);
      if (!eat(';') || !eatWord("offset=")) return fail("expected ';offset=' in a record field");
      int64_t off = integer();
      if (off < 0 || !eat(']')) return fail("expected the field's offset and ']'");
      offsets.push_back(off);
    } while (eat(','));
    if (!eat(';')) return fail("expected ';' and the record's size");
    int64_t size = integer();
    if (size < 0 || !eat(';')) return fail("expected the record's size and ';'");
    std::string flag = ident();
    if (flag != "True" && flag != "False") return fail("expected True or False (aligned)");
    bool readonly = eat(';') && ident() == "readonly";
    if (!eat(')')) return fail("expected ')' after a record");
    Type rec = Type::record(std::move(names), std::move(fields), std::move(offsets), size, flag == "True");
    rec.readonly = readonly;
    return rec;
  }

  // A character sequence as Type::str() spells it: [char x 5] (S5), [unichr x 5] (U5).
  bool atCharSeq() {
    skipSpace();
    return pos_ < s_.size() && s_[pos_] == '[';
  }
  std::optional<Type> parseCharSeq() {
    if (!eat('[')) return fail("expected '['");
    std::string unit = ident();
    if (unit != "char" && unit != "unichr") return fail("expected [char x N] or [unichr x N]");
    if (!eatWord("x")) return fail("expected 'x' in [" + unit + " x N]");
    int64_t n = integer();
    if (n <= 0 || !eat(']')) return fail("expected a width and ']' in [" + unit + " x N]");
    return Type::charSeq(unit == "unichr", n);
  }

  // The items of array(...) and dtype(...): a character sequence, a record or a scalar.
  std::optional<Type> parseItemType() {
    if (atCharSeq()) return parseCharSeq();
    std::string dname = ident();
    return dname == "Record" ? parseRecord() : namedScalar(dname);
  }

  // A jitclass instance as Type::str() spells it: instance.jitclass.<name>#<class handle in hex>
  // (the name may hold any character but '#').
  std::optional<Type> parseInstance() {
    size_t hash = s_.find('#', pos_);
    if (hash == std::string::npos || hash == pos_) return fail("expected instance.jitclass.<name>#<id>");
    std::string className = s_.substr(pos_, hash - pos_);
    pos_ = hash + 1;
    size_t start = pos_;
    while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (start == pos_) return fail("expected the class id after '#'");
    return Type::instance(std::stoull(s_.substr(start, pos_ - start), nullptr, 16), className);
  }

  const std::string &s_;
  size_t pos_ = 0;
};

} // namespace

std::optional<Type> parseType(const std::string &text, std::string *error) {
  TypeParser p(text);
  auto t = p.parseWhole();
  if (!t && error) *error = p.error;
  return t;
}

std::optional<Signature> parseSignature(const std::string &text, std::string *error) {
  TypeParser p(text);
  auto s = p.parseSignature();
  if (!s && error) *error = p.error;
  return s;
}

} // namespace mahou::types
