// The runtime ABI of heap objects (lists, strings, dicts, sets) shared by compiled
// code, the runtime library and the binding. Every object is one MahouMemInfo block
// whose payload follows the header; the header's destructor releases what the
// payload holds. Item types are described by data (MahouTypeDesc), not by code, so an
// object never points into compiled code and outlives the module that made it.
#pragma once

#include "mahou/runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {

// ---------------------------------------------------------------- item types
// How one field of an item is compared and hashed.
enum MahouFieldKind : uint8_t {
  MAHOU_FIELD_INT = 1,  // signed integer of `size` bytes
  MAHOU_FIELD_UINT,     // unsigned integer
  MAHOU_FIELD_FLOAT,    // float32 / float64
  MAHOU_FIELD_COMPLEX,  // complex64 / complex128 ({re, im})
  MAHOU_FIELD_BOOL,     // one byte, 0 or 1
  MAHOU_FIELD_STR,      // MahouMemInfo* of a string
  MAHOU_FIELD_LIST,     // MahouMemInfo* of a list (compared by its own item type; not hashable)
  MAHOU_FIELD_OPAQUE,   // anything else (arrays, dicts, sets): neither compared nor hashed
  MAHOU_FIELD_NONE,     // no data: equal to itself
  MAHOU_FIELD_OPTIONAL, // a presence byte at offset + size, then the value's fields follow (one field)
  MAHOU_FIELD_BYTES,    // a bytes value: a 1-D uint8 array head (meminfo, parent, data, shape, stride)
};
struct MahouField {
  uint32_t offset;
  uint8_t kind;
  uint8_t size;
  uint16_t reserved;
};
// The native form of an item type as codegen lays it out (mahou/layout.h): its size,
// the offsets of the references it holds (each a MahouMemInfo*, possibly null,
// released with mahou_rt_decref) and its fields in order (equality, ordering, hash).
// A descriptor is followed in memory by uint32_t refOffsets[nrefs] and then by
// MahouField fields[nfields]. Interned descriptors (mahou_rt_intern_typedesc) live as
// long as the process.
struct MahouTypeDesc {
  uint32_t size;
  uint16_t nrefs;
  uint16_t nfields;
  uint32_t flags; // MAHOU_DESC_*
  uint32_t reserved;
};
enum : uint32_t {
  MAHOU_DESC_HASHABLE = 1,   // every field is a number, bool, string, none or optional of these
  MAHOU_DESC_COMPARABLE = 2, // every field can be compared for equality (also lists)
  MAHOU_DESC_ORDERED = 4,    // every field can be ordered (no complex, none, optional)
  MAHOU_DESC_TUPLE = 8,      // the item is a tuple (hashed as CPython hashes tuples)
  MAHOU_DESC_FLAT_TUPLE = 16, // a tuple whose items are its fields (none is a tuple itself)
};

// ---------------------------------------------------------------- objects
// Object headers are MahouMemInfo blocks whose payload starts right after the header
// (at mahouObjectPayload); mi->data points at it too.
constexpr size_t kMahouObjectHeader = sizeof(MahouMemInfo);
inline void *mahouObjectPayload(MahouMemInfo *mi) { return reinterpret_cast<char *>(mi) + kMahouObjectHeader; }

// A list: `size` items of desc->size bytes each in `items` (malloc'd, `capacity` of them).
struct MahouList {
  int64_t size;
  int64_t capacity;
  char *items;
  int64_t itemSize;
  const MahouTypeDesc *desc;
  int64_t dirty; // nonzero once mutated (a list unboxed from Python is written back then)
};

// A dict (or, without values, a set): CPython's compact layout. `entries` holds
// `used` entries in insertion order (deleted ones marked dead), each {int64 hash; int64
// live; key at keyOffset; value at valueOffset}; `index` has indexMask + 1 slots, each
// an entry number, -1 (empty) or -2 (deleted). One malloc'd block holds the index and,
// after it, the entries (freeing `index` frees both).
struct MahouDict {
  int64_t size; // live entries
  int64_t used; // entries written (live and dead)
  int64_t capacity;
  int64_t indexMask;
  int64_t *index;
  char *entries;
  const MahouTypeDesc *keyDesc;
  const MahouTypeDesc *valueDesc; // null: a set
  int64_t entrySize, keyOffset, valueOffset;
  int64_t keyKind; // MAHOU_KEY_*: keys compared and hashed without the descriptor
};
// MAHOU_KEY_BY_CODE: keys the descriptor cannot hash (@jitclass instances); compiled
// code hashes and compares them (mahou_rt_dict_probe_next) and the table keeps the hashes.
enum : int64_t { MAHOU_KEY_GENERIC = 0, MAHOU_KEY_INT64 = 1, MAHOU_KEY_STR = 2, MAHOU_KEY_BY_CODE = 3 };

// A string in CPython's PEP 393 form: `length` code points of `kind` bytes each (the
// smallest kind that holds them all), followed by a NUL of `kind` bytes.
struct MahouStr {
  int64_t length;
  int64_t hash; // -1 until computed
  int32_t kind; // 1, 2 or 4
  int32_t ascii;
  // char data[] follows
};
inline char *mahouStrData(MahouStr *s) { return reinterpret_cast<char *>(s + 1); }
inline MahouStr *mahouStr(MahouMemInfo *mi) { return static_cast<MahouStr *>(mahouObjectPayload(mi)); }
inline MahouList *mahouList(MahouMemInfo *mi) { return static_cast<MahouList *>(mahouObjectPayload(mi)); }
inline MahouDict *mahouDict(MahouMemInfo *mi) { return static_cast<MahouDict *>(mahouObjectPayload(mi)); }

} // extern "C"

namespace mahou::runtime {
// Descriptor accessors.
inline const uint32_t *descRefOffsets(const MahouTypeDesc *d) { return reinterpret_cast<const uint32_t *>(d + 1); }
inline const MahouField *descFields(const MahouTypeDesc *d) {
  return reinterpret_cast<const MahouField *>(descRefOffsets(d) + d->nrefs);
}
inline size_t descBytes(uint16_t nrefs, uint16_t nfields) {
  return sizeof(MahouTypeDesc) + 4 * size_t(nrefs) + sizeof(MahouField) * size_t(nfields);
}
// Item operations by descriptor (objects.cpp).
void increfItem(const MahouTypeDesc *d, const char *item);
void decrefItem(const MahouTypeDesc *d, const char *item);
bool itemsEqual(const MahouTypeDesc *d, const char *a, const char *b);
// -1, 0 or 1 (descriptor must be MAHOU_DESC_ORDERED).
int compareItems(const MahouTypeDesc *d, const char *a, const char *b);
int64_t hashItem(const MahouTypeDesc *d, const char *item);
// An item as Python shows it (item_values.cpp): its repr (numbers, bools, strings, None,
// flat tuples of these; other items by kind), and packed as one argument of the pending
// error (mahou_rt_error_begin), false when it has no such form.
std::string itemRepr(const MahouTypeDesc *d, const char *item);
bool packItemArgument(const MahouTypeDesc *d, const char *item);
// Strings (unicode.cpp).
MahouMemInfo *newString(int64_t length, int32_t kind);         // uninitialised data, refcount 1
MahouMemInfo *stringFromCodePoints(const uint32_t *cps, int64_t n); // canonical kind
uint32_t stringCharAt(const MahouStr *s, int64_t i);
bool stringsEqual(MahouMemInfo *a, MahouMemInfo *b);
int compareStrings(MahouMemInfo *a, MahouMemInfo *b);
int64_t hashString(MahouMemInfo *s);
// Python's hashes of numbers (so hash(x) and set/dict order of numbers match CPython).
int64_t hashInt(int64_t v);
int64_t hashUInt(uint64_t v);
int64_t hashDouble(double v);
// The interpreter's hash of a string's canonical bytes (hashing.cpp; installed by the
// binding, absent without an interpreter: strings then hash with FNV-1a).
// Bytes values (bytes_values.cpp): n bytes from data, `stride` apart. The hash is CPython's
// hash(bytes) (the interpreter's, through the string hook); the order is Python's
// (unsigned bytes, a prefix first).
int64_t hashBytes(const uint8_t *data, int64_t n, int64_t stride);
int compareBytes(const uint8_t *a, int64_t an, int64_t as, const uint8_t *b, int64_t bn, int64_t bs);
bool bytesEqual(const uint8_t *a, int64_t an, int64_t as, const uint8_t *b, int64_t bn, int64_t bs);
std::string bytesRepr(const uint8_t *data, int64_t n, int64_t stride); // b'...' as Python shows it
void errorArgBytes(const uint8_t *data, int64_t n, int64_t stride);    // packed as an exception's argument
using StringHashHook = int64_t (*)(const void *data, int64_t bytes);
void setStringHashHook(StringHashHook hook);
StringHashHook stringHashHook();
void setNoneHash(int64_t h); // hash(None) in this process
} // namespace mahou::runtime
