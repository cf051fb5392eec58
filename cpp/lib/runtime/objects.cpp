// Item types described by data: interning of descriptors, and the reference counting,
// equality, ordering and hashing of one item through its descriptor (CPython's hash
// functions for numbers and tuples, so hash() and the order of sets of numbers match).
#include "mahou/objects.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mahou::runtime {

namespace {

template <class T> T loadAs(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

int64_t loadInt(const char *p, int size) {
  switch (size) {
  case 1: return loadAs<int8_t>(p);
  case 2: return loadAs<int16_t>(p);
  case 4: return loadAs<int32_t>(p);
  default: return loadAs<int64_t>(p);
  }
}
uint64_t loadUInt(const char *p, int size) {
  switch (size) {
  case 1: return loadAs<uint8_t>(p);
  case 2: return loadAs<uint16_t>(p);
  case 4: return loadAs<uint32_t>(p);
  default: return loadAs<uint64_t>(p);
  }
}
// IEEE half precision bits as a double.
double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0) v = std::ldexp(double(mant), -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(double(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

double loadFloat(const char *p, int size) {
  if (size == 2) return halfToDouble(loadAs<uint16_t>(p));
  return size == 4 ? double(loadAs<float>(p)) : loadAs<double>(p);
}

MahouMemInfo *loadObject(const char *p) { return loadAs<MahouMemInfo *>(p); }

// A bytes field: its array head's data pointer, length and byte stride.
struct BytesField {
  const uint8_t *data;
  int64_t n, stride;
};
BytesField loadBytes(const char *p) {
  return {loadAs<const uint8_t *>(p + 2 * sizeof(void *)), loadAs<int64_t>(p + mahouArrayBytes(0)),
          loadAs<int64_t>(p + mahouArrayBytes(0) + 8)};
}

constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1;
constexpr int kHashBits = 61;
constexpr int64_t kHashInf = 314159;

int fieldCompare(const MahouField &f, const char *a, const char *b) {
  const char *pa = a + f.offset, *pb = b + f.offset;
  switch (f.kind) {
  case MAHOU_FIELD_INT: {
    int64_t x = loadInt(pa, f.size), y = loadInt(pb, f.size);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  case MAHOU_FIELD_UINT: {
    uint64_t x = loadUInt(pa, f.size), y = loadUInt(pb, f.size);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  case MAHOU_FIELD_BOOL: return int(uint8_t(*pa)) - int(uint8_t(*pb));
  case MAHOU_FIELD_FLOAT: {
    double x = loadFloat(pa, f.size), y = loadFloat(pb, f.size);
    return x < y ? -1 : x > y ? 1 : 0; // NaN compares as equal to everything here (as sorted() leaves it)
  }
  case MAHOU_FIELD_STR: return compareStrings(loadObject(pa), loadObject(pb));
  case MAHOU_FIELD_BYTES: {
    BytesField x = loadBytes(pa), y = loadBytes(pb);
    return compareBytes(x.data, x.n, x.stride, y.data, y.n, y.stride);
  }
  default: return 0;
  }
}

bool fieldEqual(const MahouField &f, const char *a, const char *b) {
  const char *pa = a + f.offset, *pb = b + f.offset;
  switch (f.kind) {
  case MAHOU_FIELD_INT: return loadInt(pa, f.size) == loadInt(pb, f.size);
  case MAHOU_FIELD_UINT: return loadUInt(pa, f.size) == loadUInt(pb, f.size);
  case MAHOU_FIELD_BOOL: return (*pa != 0) == (*pb != 0);
  case MAHOU_FIELD_FLOAT: return loadFloat(pa, f.size) == loadFloat(pb, f.size);
  case MAHOU_FIELD_COMPLEX: {
    int half = f.size / 2;
    return loadFloat(pa, half) == loadFloat(pb, half) && loadFloat(pa + half, half) == loadFloat(pb + half, half);
  }
  case MAHOU_FIELD_STR: return stringsEqual(loadObject(pa), loadObject(pb));
  case MAHOU_FIELD_LIST: {
    MahouMemInfo *x = loadObject(pa), *y = loadObject(pb);
    if (x == y) return true;
    MahouList *lx = mahouList(x), *ly = mahouList(y);
    if (lx->size != ly->size) return false;
    for (int64_t i = 0; i < lx->size; ++i)
      if (!itemsEqual(lx->desc, lx->items + i * lx->itemSize, ly->items + i * ly->itemSize)) return false;
    return true;
  }
  case MAHOU_FIELD_NONE: return true;
  case MAHOU_FIELD_BYTES: {
    BytesField x = loadBytes(pa), y = loadBytes(pb);
    return bytesEqual(x.data, x.n, x.stride, y.data, y.n, y.stride);
  }
  default: return false; // opaque items are never equal (refused at compile time)
  }
}

int64_t fieldHash(const MahouField &f, const char *item) {
  const char *p = item + f.offset;
  switch (f.kind) {
  case MAHOU_FIELD_INT: return hashInt(loadInt(p, f.size));
  case MAHOU_FIELD_UINT: return hashUInt(loadUInt(p, f.size));
  case MAHOU_FIELD_BOOL: return *p != 0;
  case MAHOU_FIELD_FLOAT: return hashDouble(loadFloat(p, f.size));
  case MAHOU_FIELD_COMPLEX: {
    int half = f.size / 2;
    uint64_t re = uint64_t(hashDouble(loadFloat(p, half))), im = uint64_t(hashDouble(loadFloat(p + half, half)));
    uint64_t h = re + 1000003ULL * im;
    return h == uint64_t(-1) ? -2 : int64_t(h);
  }
  case MAHOU_FIELD_STR: return hashString(loadObject(p));
  case MAHOU_FIELD_BYTES: {
    BytesField x = loadBytes(p);
    return hashBytes(x.data, x.n, x.stride);
  }
  case MAHOU_FIELD_NONE: return 0x5f3759df; // a constant (CPython hashes None by identity)
  default: return 0;
  }
}

} // namespace

int64_t hashUInt(uint64_t v) {
  uint64_t h = v % kHashModulus;
  return h == uint64_t(-1) ? -2 : int64_t(h);
}

int64_t hashInt(int64_t v) {
  // CPython: the absolute value reduced modulo 2**61 - 1, with the sign; -1 becomes -2.
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  int64_t h = int64_t(mag % kHashModulus);
  if (v < 0) h = -h;
  return h == -1 ? -2 : h;
}

int64_t hashDouble(double v) {
  // CPython's _Py_HashDouble.
  if (!std::isfinite(v)) {
    if (std::isinf(v)) return v > 0 ? kHashInf : -kHashInf;
    return 0;
  }
  int e;
  double m = std::frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m != 0) {
    x = ((x << 28) & kHashModulus) | x >> (kHashBits - 28);
    m *= 268435456.0;
    e -= 28;
    uint64_t y = uint64_t(m);
    m -= double(y);
    x += y;
    if (x >= kHashModulus) x -= kHashModulus;
  }
  e = e >= 0 ? e % kHashBits : kHashBits - 1 - ((-1 - e) % kHashBits);
  x = ((x << e) & kHashModulus) | x >> (kHashBits - e);
  x = x * uint64_t(int64_t(sign));
  if (x == uint64_t(-1)) x = uint64_t(-2);
  return int64_t(x);
}

void increfItem(const MahouTypeDesc *d, const char *item) {
  const uint32_t *offs = descRefOffsets(d);
  for (uint16_t i = 0; i < d->nrefs; ++i) mahou_rt_incref(loadObject(item + offs[i]));
}

void decrefItem(const MahouTypeDesc *d, const char *item) {
  const uint32_t *offs = descRefOffsets(d);
  for (uint16_t i = 0; i < d->nrefs; ++i) mahou_rt_decref(loadObject(item + offs[i]));
}

bool itemsEqual(const MahouTypeDesc *d, const char *a, const char *b) {
  const MahouField *f = descFields(d);
  for (uint16_t i = 0; i < d->nfields; ++i)
    if (!fieldEqual(f[i], a, b)) return false;
  return true;
}

int compareItems(const MahouTypeDesc *d, const char *a, const char *b) {
  const MahouField *f = descFields(d);
  for (uint16_t i = 0; i < d->nfields; ++i)
    if (int c = fieldCompare(f[i], a, b)) return c;
  return 0;
}

int64_t hashItem(const MahouTypeDesc *d, const char *item) {
  const MahouField *f = descFields(d);
  if (d->nfields == 1 && !(d->flags & MAHOU_DESC_TUPLE)) return fieldHash(f[0], item);
  // A tuple: CPython's xxHash-based tuple hash over its (flattened) fields.
  constexpr uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
  uint64_t acc = p5;
  for (uint16_t i = 0; i < d->nfields; ++i) {
    uint64_t lane = uint64_t(fieldHash(f[i], item));
    acc += lane * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += uint64_t(d->nfields) ^ (p5 ^ 3527539UL);
  if (acc == uint64_t(-1)) return 1546275796;
  return int64_t(acc);
}

} // namespace mahou::runtime

extern "C" {

const MahouTypeDesc *mahou_rt_intern_typedesc(const void *blob, int64_t bytes) {
  // Descriptors are few (one per item type compiled) and immortal: an object keeps a
  // pointer to its interned descriptor, never into the module that built it.
  static std::mutex lock;
  static auto *table = new std::unordered_map<std::string, MahouTypeDesc *>();
  std::string key(static_cast<const char *>(blob), size_t(bytes));
  std::lock_guard<std::mutex> guard(lock);
  auto it = table->find(key);
  if (it != table->end()) return it->second;
  auto *copy = static_cast<MahouTypeDesc *>(::operator new(size_t(bytes)));
  std::memcpy(copy, blob, size_t(bytes));
  table->emplace(std::move(key), copy);
  return copy;
}

int64_t mahou_rt_hash_item(const MahouTypeDesc *desc, const void *item) {
  return mahou::runtime::hashItem(desc, static_cast<const char *>(item));
}

} // extern "C"
