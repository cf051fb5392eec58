// Dicts and sets of compiled code: one insertion-ordered open-addressing table (the
// layout of CPython's compact dict: an index of slots into a dense array of entries)
// for every key and value type, driven by their descriptors. A set is a table whose
// values have no bytes.
#include "mahou/objects.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mahou::runtime;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

constexpr int64_t kEmpty = -1, kDeleted = -2;

size_t round8(size_t n) { return (n + 7) & ~size_t(7); }

char *entryAt(MahouDict *d, int64_t i) { return d->entries + i * d->entrySize; }
int64_t &entryHash(char *e) { return *reinterpret_cast<int64_t *>(e); }
int64_t &entryLive(char *e) { return *reinterpret_cast<int64_t *>(e + 8); }
char *entryKey(MahouDict *d, char *e) { return e + d->keyOffset; }
char *entryValue(MahouDict *d, char *e) { return e + d->valueOffset; }

void releaseEntry(MahouDict *d, char *e) {
  decrefItem(d->keyDesc, entryKey(d, e));
  if (d->valueDesc) decrefItem(d->valueDesc, entryValue(d, e));
}

void dictDestructor(MahouMemInfo *mi) {
  MahouDict *d = mahouDict(mi);
  for (int64_t i = 0; i < d->used; ++i)
    if (entryLive(entryAt(d, i))) releaseEntry(d, entryAt(d, i));
  std::free(d->index); // the entries share its block
}

// Keys of one 8-byte integer or one string: compared and hashed directly.
bool sameKey(MahouDict *d, const char *a, const char *b) {
  switch (d->keyKind) {
  case MAHOU_KEY_INT64: return *reinterpret_cast<const int64_t *>(a) == *reinterpret_cast<const int64_t *>(b);
  case MAHOU_KEY_STR:
    return stringsEqual(*reinterpret_cast<MahouMemInfo *const *>(a), *reinterpret_cast<MahouMemInfo *const *>(b));
  default: return itemsEqual(d->keyDesc, a, b);
  }
}

int64_t keyHash(MahouDict *d, const char *key) {
  switch (d->keyKind) {
  case MAHOU_KEY_INT64: return hashInt(*reinterpret_cast<const int64_t *>(key));
  case MAHOU_KEY_STR: return hashString(*reinterpret_cast<MahouMemInfo *const *>(key));
  default: return hashItem(d->keyDesc, key);
  }
}

// The index slot of `key` (found: *slot holds its entry), or of the first free slot.
int64_t probe(MahouDict *d, const char *key, int64_t hash, bool &found) {
  uint64_t mask = uint64_t(d->indexMask), perturb = uint64_t(hash);
  uint64_t i = uint64_t(hash) & mask;
  int64_t firstDeleted = -1;
  while (true) {
    int64_t ix = d->index[i];
    if (ix == kEmpty) {
      found = false;
      return firstDeleted >= 0 ? firstDeleted : int64_t(i);
    }
    if (ix == kDeleted) {
      if (firstDeleted < 0) firstDeleted = int64_t(i);
    } else {
      char *e = entryAt(d, ix);
      if (entryHash(e) == hash && sameKey(d, entryKey(d, e), key)) {
        found = true;
        return int64_t(i);
      }
    }
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
}

// The first free index slot (empty or deleted) on the probe sequence of `hash`: where a
// key known to be absent goes, found without comparing keys.
int64_t freeSlot(MahouDict *d, int64_t hash) {
  uint64_t mask = uint64_t(d->indexMask), perturb = uint64_t(hash);
  uint64_t i = uint64_t(hash) & mask;
  while (d->index[i] >= 0) {
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
  return int64_t(i);
}

// Removes the entry of index slot `slot`; its key and value are moved to the outputs
// (either may be null: released).
void removeAt(MahouDict *d, int64_t slot, void *keyOut, void *valueOut) {
  char *e = entryAt(d, d->index[slot]);
  d->index[slot] = kDeleted;
  entryLive(e) = 0;
  --d->size;
  if (keyOut) std::memcpy(keyOut, entryKey(d, e), d->keyDesc->size);
  else decrefItem(d->keyDesc, entryKey(d, e));
  if (d->valueDesc) {
    if (valueOut) std::memcpy(valueOut, entryValue(d, e), d->valueDesc->size);
    else decrefItem(d->valueDesc, entryValue(d, e));
  }
}

// Removes live entry `ix`, its index slot found by its stored hash (no key compared).
void removeEntry(MahouDict *d, int64_t ix, void *keyOut, void *valueOut) {
  int64_t hash = entryHash(entryAt(d, ix));
  uint64_t mask = uint64_t(d->indexMask), perturb = uint64_t(hash);
  uint64_t i = uint64_t(hash) & mask;
  while (d->index[i] != ix) {
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
  removeAt(d, int64_t(i), keyOut, valueOut);
}

// Index slots for `cap` entries, a power of two: a dict's index is at least 3/2 of its
// entries (CPython's dict), a set's at least 3 times (at most a third full, as sparse as
// CPython's and Numba's sets: a membership test that misses meets an empty slot at its
// first probe more often; the index costs 8 bytes a slot, an int64 entry 24).
int64_t indexSlots(const MahouDict *d, int64_t cap) {
  int64_t slots = 8;
  if (d->valueDesc)
    while (slots * 2 < cap * 3) slots *= 2;
  else
    while (slots < cap * 3) slots *= 2;
  return slots;
}

bool resize(MahouDict *d, int64_t minEntries) {
  // Entries: the live ones compacted; index: indexSlots. One block holds both: the
  // index, then the entries.
  int64_t cap = std::max<int64_t>(8, minEntries);
  int64_t slots = indexSlots(d, cap);
  size_t indexBytes = size_t(slots) * sizeof(int64_t);
  auto *block = static_cast<char *>(std::malloc(indexBytes + size_t(cap) * size_t(d->entrySize)));
  if (!block) {
    mahou_rt_set_error(ExcMemoryError, "out of memory growing a dict");
    return false;
  }
  auto *index = reinterpret_cast<int64_t *>(block);
  char *entries = block + indexBytes;
  std::fill(index, index + slots, kEmpty);
  int64_t n = 0;
  for (int64_t i = 0; i < d->used; ++i) {
    char *e = entryAt(d, i);
    if (!entryLive(e)) continue;
    std::memcpy(entries + n * d->entrySize, e, size_t(d->entrySize));
    uint64_t mask = uint64_t(slots - 1), perturb = uint64_t(entryHash(e)), j = uint64_t(entryHash(e)) & mask;
    while (index[j] != kEmpty) {
      perturb >>= 5;
      j = (j * 5 + perturb + 1) & mask;
    }
    index[j] = n++;
  }
  std::free(d->index); // and the old entries with it
  d->index = index;
  d->entries = entries;
  d->indexMask = slots - 1;
  d->capacity = cap;
  d->used = n;
  return true;
}

// Appends an entry for a key known to be absent; takes the references of key and value.
bool insertNew(MahouDict *d, const char *key, const char *value, int64_t hash) {
  if (d->used == d->capacity && !resize(d, std::max<int64_t>(d->size * 2, d->size + 8))) return false;
  int64_t slot = freeSlot(d, hash);
  char *e = entryAt(d, d->used);
  entryHash(e) = hash;
  entryLive(e) = 1;
  std::memcpy(entryKey(d, e), key, d->keyDesc->size);
  if (d->valueDesc) std::memcpy(entryValue(d, e), value, d->valueDesc->size);
  d->index[slot] = d->used++;
  ++d->size;
  return true;
}

// KeyError(key), as Python raises it: the key itself is the exception's argument
// (numbers, bools, strings, None and flat tuples of these; other keys by their repr).
void keyError(MahouDict *d, const char *key) {
  mahou_rt_error_begin(ExcKeyError);
  if (!packItemArgument(d->keyDesc, key)) mahou_rt_set_error(ExcKeyError, itemRepr(d->keyDesc, key).c_str());
}

MahouMemInfo *newTable(const MahouTypeDesc *keyDesc, const MahouTypeDesc *valueDesc) {
  MahouMemInfo *mi = mahou_rt_alloc_object(sizeof(MahouDict), dictDestructor);
  if (!mi) return nullptr;
  MahouDict *d = mahouDict(mi);
  std::memset(d, 0, sizeof *d);
  d->keyDesc = keyDesc;
  d->valueDesc = valueDesc;
  d->keyOffset = 16;
  d->valueOffset = 16 + int64_t(round8(keyDesc->size));
  d->entrySize = d->valueOffset + int64_t(valueDesc ? round8(valueDesc->size) : 0);
  const MahouField *f = descFields(keyDesc);
  if (!(keyDesc->flags & MAHOU_DESC_HASHABLE)) d->keyKind = MAHOU_KEY_BY_CODE;
  else if (keyDesc->nfields == 1 && !(keyDesc->flags & MAHOU_DESC_TUPLE) && f[0].offset == 0) {
    if (f[0].kind == MAHOU_FIELD_INT && f[0].size == 8) d->keyKind = MAHOU_KEY_INT64;
    if (f[0].kind == MAHOU_FIELD_STR) d->keyKind = MAHOU_KEY_STR;
  }
  if (!resize(d, 8)) {
    mahou_rt_decref(mi);
    return nullptr;
  }
  return mi;
}

} // namespace

extern "C" {

// valueDesc null: a set.
MahouMemInfo *mahou_rt_dict_new(const MahouTypeDesc *keyDesc, const MahouTypeDesc *valueDesc) {
  return newTable(keyDesc, valueDesc);
}

// The address of the value of `key`, or null when absent (no error set).
void *mahou_rt_dict_find(MahouMemInfo *mi, const void *key) {
  MahouDict *d = mahouDict(mi);
  const char *k = static_cast<const char *>(key);
  bool found;
  int64_t slot = probe(d, k, keyHash(d, k), found);
  if (!found) return nullptr;
  return entryValue(d, entryAt(d, d->index[slot]));
}

// d[key]: the address of the value, or null with a KeyError.
void *mahou_rt_dict_getitem(MahouMemInfo *mi, const void *key) {
  void *v = mahou_rt_dict_find(mi, key);
  if (!v) keyError(mahouDict(mi), static_cast<const char *>(key));
  return v;
}

// d[key] = value, taking the references of key and value (a key already present keeps
// its first object, as in Python, and the new one is released).
int32_t mahou_rt_dict_setitem(MahouMemInfo *mi, const void *key, const void *value) {
  MahouDict *d = mahouDict(mi);
  const char *k = static_cast<const char *>(key);
  int64_t hash = keyHash(d, k);
  bool found;
  int64_t slot = probe(d, k, hash, found);
  if (found) {
    char *e = entryAt(d, d->index[slot]);
    decrefItem(d->keyDesc, k);
    if (d->valueDesc) {
      std::vector<char> old(entryValue(d, e), entryValue(d, e) + d->valueDesc->size);
      std::memcpy(entryValue(d, e), value, d->valueDesc->size);
      decrefItem(d->valueDesc, old.data());
    }
    return 0;
  }
  if (!insertNew(d, k, static_cast<const char *>(value), hash)) {
    decrefItem(d->keyDesc, k);
    if (d->valueDesc) decrefItem(d->valueDesc, static_cast<const char *>(value));
    return 1;
  }
  return 0;
}

// Removes key; its key and value are moved to the outputs (either may be null: released).
// Returns 0, or 1 when absent (no error set).
int32_t mahou_rt_dict_remove(MahouMemInfo *mi, const void *key, void *keyOut, void *valueOut) {
  MahouDict *d = mahouDict(mi);
  const char *k = static_cast<const char *>(key);
  bool found;
  int64_t slot = probe(d, k, keyHash(d, k), found);
  if (!found) return 1;
  removeAt(d, slot, keyOut, valueOut);
  return 0;
}

int32_t mahou_rt_dict_delitem(MahouMemInfo *mi, const void *key) {
  if (mahou_rt_dict_remove(mi, key, nullptr, nullptr) == 0) return 0;
  keyError(mahouDict(mi), static_cast<const char *>(key));
  return 1;
}

// popitem(): the last entry (LIFO, as Python); KeyError when empty.
int32_t mahou_rt_dict_popitem(MahouMemInfo *mi, void *keyOut, void *valueOut, int32_t isSet) {
  MahouDict *d = mahouDict(mi);
  int64_t i = d->used - 1;
  while (i >= 0 && !entryLive(entryAt(d, i))) --i;
  if (i < 0) {
    mahou_rt_set_error(ExcKeyError, isSet ? "pop from an empty set" : "popitem(): dictionary is empty");
    return 1;
  }
  removeEntry(d, i, keyOut, valueOut);
  return 0;
}

void mahou_rt_dict_clear(MahouMemInfo *mi) {
  MahouDict *d = mahouDict(mi);
  int64_t used = d->used;
  char *entries = d->entries;
  int64_t *block = d->index; // holds the entries too
  d->entries = nullptr;
  d->used = d->size = d->capacity = 0;
  d->index = nullptr;
  resize(d, 8);
  MahouDict old = *d;
  old.entries = entries;
  old.used = used;
  for (int64_t i = 0; i < used; ++i)
    if (entryLive(entryAt(&old, i))) releaseEntry(&old, entryAt(&old, i));
  std::free(block);
}

// Entry i (0 <= i < used) when live: its key's address, else null.
void *mahou_rt_dict_entry_key(MahouMemInfo *mi, int64_t i) {
  MahouDict *d = mahouDict(mi);
  if (i < 0 || i >= d->used) return nullptr;
  char *e = entryAt(d, i);
  return entryLive(e) ? entryKey(d, e) : nullptr;
}

// The address of the value stored after the key at `key` (an entry of the dict).
void *mahou_rt_dict_value_of_key(MahouMemInfo *mi, void *key) {
  MahouDict *d = mahouDict(mi);
  return static_cast<char *>(key) + (d->valueOffset - d->keyOffset);
}

MahouMemInfo *mahou_rt_dict_copy(MahouMemInfo *mi) {
  MahouDict *d = mahouDict(mi);
  MahouMemInfo *out = newTable(d->keyDesc, d->valueDesc);
  if (!out) return nullptr;
  MahouDict *o = mahouDict(out);
  if (!resize(o, d->size)) {
    mahou_rt_decref(out);
    return nullptr;
  }
  for (int64_t i = 0; i < d->used; ++i) {
    char *e = entryAt(d, i);
    if (!entryLive(e)) continue;
    increfItem(d->keyDesc, entryKey(d, e));
    if (d->valueDesc) increfItem(d->valueDesc, entryValue(d, e));
    insertNew(o, entryKey(d, e), entryValue(d, e), entryHash(e));
  }
  return out;
}

// d.update(other) / s |= other: every entry of other set into d (values replaced).
int32_t mahou_rt_dict_update(MahouMemInfo *mi, MahouMemInfo *other) {
  MahouDict *o = mahouDict(other);
  int64_t used = o->used; // other may be d itself: its entries are not added to
  for (int64_t i = 0; i < used; ++i) {
    char *e = entryAt(o, i);
    if (!entryLive(e)) continue;
    increfItem(o->keyDesc, entryKey(o, e));
    if (o->valueDesc) increfItem(o->valueDesc, entryValue(o, e));
    if (mahou_rt_dict_setitem(mi, entryKey(o, e), entryValue(o, e)) != 0) return 1;
  }
  return 0;
}

// Tables keyed by compiled code (MAHOU_KEY_BY_CODE): compiled code hashes the key,
// walks the probe sequence of the hash with these, compares each candidate itself, and
// inserts or removes by entry. state: two int64 the walk keeps ({slot, perturb}).
void mahou_rt_dict_probe_begin(MahouMemInfo *mi, int64_t hash, int64_t *state) {
  (void)mi;
  state[0] = -1;
  state[1] = hash;
}

// The next live entry on the probe sequence whose stored hash is `hash`, or -1 at its end
// (an empty slot). The table may have changed between calls (a key's __eq__ may change
// it): the walk stays within the current index, and stops at an empty slot.
int64_t mahou_rt_dict_probe_next(MahouMemInfo *mi, int64_t hash, int64_t *state) {
  MahouDict *d = mahouDict(mi);
  uint64_t mask = uint64_t(d->indexMask);
  while (true) {
    uint64_t i;
    if (state[0] < 0) {
      i = uint64_t(hash) & mask;
    } else {
      uint64_t perturb = uint64_t(state[1]) >> 5;
      state[1] = int64_t(perturb);
      i = (uint64_t(state[0]) * 5 + perturb + 1) & mask;
    }
    state[0] = int64_t(i);
    int64_t ix = d->index[i];
    if (ix == kEmpty) return -1;
    if (ix >= 0 && ix < d->used) {
      char *e = entryAt(d, ix);
      if (entryLive(e) && entryHash(e) == hash) return ix;
    }
  }
}

// The stored hash of entry i (0 <= i < used).
int64_t mahou_rt_dict_entry_hash(MahouMemInfo *mi, int64_t i) { return entryHash(entryAt(mahouDict(mi), i)); }

// Adds a key known to be absent with its hash, taking the references of key and value.
int32_t mahou_rt_dict_insert_hashed(MahouMemInfo *mi, const void *key, const void *value, int64_t hash) {
  MahouDict *d = mahouDict(mi);
  if (insertNew(d, static_cast<const char *>(key), static_cast<const char *>(value), hash)) return 0;
  decrefItem(d->keyDesc, static_cast<const char *>(key));
  if (d->valueDesc) decrefItem(d->valueDesc, static_cast<const char *>(value));
  return 1;
}

// Removes live entry `entry` (from mahou_rt_dict_probe_next); outputs as mahou_rt_dict_remove.
void mahou_rt_dict_remove_entry(MahouMemInfo *mi, int64_t entry, void *keyOut, void *valueOut) {
  removeEntry(mahouDict(mi), entry, keyOut, valueOut);
}

bool mahou_rt_dict_equal(MahouMemInfo *a, MahouMemInfo *b) {
  MahouDict *x = mahouDict(a), *y = mahouDict(b);
  if (x->size != y->size) return false;
  for (int64_t i = 0; i < x->used; ++i) {
    char *e = entryAt(x, i);
    if (!entryLive(e)) continue;
    void *v = mahou_rt_dict_find(b, entryKey(x, e));
    if (!v) return false;
    if (x->valueDesc && !itemsEqual(x->valueDesc, entryValue(x, e), static_cast<char *>(v))) return false;
  }
  return true;
}

// Set algebra into a new set: op 0 union, 1 intersection, 2 difference, 3 symmetric difference.
MahouMemInfo *mahou_rt_set_combine(MahouMemInfo *a, MahouMemInfo *b, int32_t op) {
  MahouDict *x = mahouDict(a), *y = mahouDict(b);
  MahouMemInfo *out = newTable(x->keyDesc, nullptr);
  if (!out) return nullptr;
  MahouDict *o = mahouDict(out);
  auto add = [&](MahouDict *src, char *e) {
    if (mahou_rt_dict_find(out, entryKey(src, e))) return true;
    increfItem(src->keyDesc, entryKey(src, e));
    return insertNew(o, entryKey(src, e), nullptr, entryHash(e));
  };
  bool ok = true;
  for (int64_t i = 0; ok && i < x->used; ++i) {
    char *e = entryAt(x, i);
    if (!entryLive(e)) continue;
    bool inB = mahou_rt_dict_find(b, entryKey(x, e)) != nullptr;
    if (op == 0 || (op == 1 && inB) || ((op == 2 || op == 3) && !inB)) ok = add(x, e);
  }
  for (int64_t i = 0; ok && (op == 0 || op == 3) && i < y->used; ++i) {
    char *e = entryAt(y, i);
    if (!entryLive(e)) continue;
    if (op == 0 || !mahou_rt_dict_find(a, entryKey(y, e))) ok = add(y, e);
  }
  if (!ok) {
    mahou_rt_decref(out);
    return nullptr;
  }
  return out;
}

// a <= b (every key of a in b).
bool mahou_rt_set_subset(MahouMemInfo *a, MahouMemInfo *b) {
  MahouDict *x = mahouDict(a);
  if (x->size > mahouDict(b)->size) return false;
  for (int64_t i = 0; i < x->used; ++i) {
    char *e = entryAt(x, i);
    if (entryLive(e) && !mahou_rt_dict_find(b, entryKey(x, e))) return false;
  }
  return true;
}

} // extern "C"
