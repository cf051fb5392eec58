// Lists of compiled code: one implementation for every item type, driven by the
// item's descriptor (size, references, fields). Reads and writes of single items are
// inlined by codegen; growing, inserting, slicing, searching and sorting are here.
#include "mahou/objects.h"
#include "checked_size.h"
#include "out_of_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

using namespace mahou::runtime;

namespace {

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

void listDestructor(MahouMemInfo *mi) {
  MahouList *l = mahouList(mi);
  if (l->desc->nrefs)
    for (int64_t i = 0; i < l->size; ++i) decrefItem(l->desc, l->items + i * l->itemSize);
  std::free(l->items);
}

char *itemAt(MahouList *l, int64_t i) { return l->items + i * l->itemSize; }

// memcpy and memmove of a run of items, nothing for no items: an empty list's items
// may be null, which the C functions' pointers must not be even for zero bytes.
void copyItems(void *dst, const void *src, size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
}
void moveItems(void *dst, const void *src, size_t bytes) {
  if (bytes) std::memmove(dst, src, bytes);
}

bool reserve(MahouList *l, int64_t capacity) {
  if (capacity <= l->capacity) return true;
  // Grow by 1/8 plus a constant as CPython does, at least to `capacity`.
  int64_t grown = l->capacity + (l->capacity >> 3) + (l->capacity < 9 ? 3 : 6);
  int64_t n = std::max(capacity, grown), bytes;
  char *p = nullptr;
  if (mulSize(n, std::max<int64_t>(l->itemSize, 1), bytes)) p = static_cast<char *>(std::realloc(l->items, size_t(bytes)));
  if (!p) {
    mahou_rt_set_error(ExcMemoryError, "out of memory growing a list");
    return false;
  }
  l->items = p;
  l->capacity = n;
  return true;
}

// Python's slice.indices(): clamps start/stop for `length` and counts the items.
// flags: bit 0 start missing, bit 1 stop missing.
int64_t adjustSlice(int64_t length, int64_t &start, int64_t &stop, int64_t step, int32_t flags) {
  bool noStart = flags & 1, noStop = flags & 2;
  if (noStart) start = step < 0 ? length - 1 : 0;
  else {
    if (start < 0) {
      start += length;
      if (start < 0) start = step < 0 ? -1 : 0;
    } else if (start >= length) start = step < 0 ? length - 1 : length;
  }
  if (noStop) stop = step < 0 ? -1 : length;
  else {
    if (stop < 0) {
      stop += length;
      if (stop < 0) stop = step < 0 ? -1 : 0;
    } else if (stop >= length) stop = step < 0 ? length - 1 : length;
  }
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

MahouMemInfo *newList(const MahouTypeDesc *desc, int64_t capacity) {
  MahouMemInfo *mi = mahou_rt_alloc_object(sizeof(MahouList), listDestructor);
  if (!mi) return nullptr;
  MahouList *l = mahouList(mi);
  l->size = 0;
  l->capacity = 0;
  l->items = nullptr;
  l->itemSize = desc->size;
  l->desc = desc;
  l->dirty = 0;
  if (capacity > 0 && !reserve(l, capacity)) {
    mahou_rt_decref(mi);
    return nullptr;
  }
  return mi;
}

} // namespace

extern "C" {

MahouMemInfo *mahou_rt_list_new(const MahouTypeDesc *desc, int64_t capacity) { return newList(desc, capacity); }

int32_t mahou_rt_list_reserve(MahouMemInfo *mi, int64_t capacity) { return reserve(mahouList(mi), capacity) ? 0 : 1; }

void mahou_rt_list_reserve_range(MahouMemInfo *mi, int64_t start, int64_t stop, int64_t step) {
  // range()'s length, unsigned (a span may exceed 2**63), capped: a hint for the appends
  // to come, so a failed allocation is no error (the appends grow the list as usual).
  if (step == 0 || (step > 0 ? start >= stop : start <= stop)) return;
  uint64_t span = step > 0 ? uint64_t(stop) - uint64_t(start) : uint64_t(start) - uint64_t(stop);
  uint64_t mag = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
  uint64_t count = std::min<uint64_t>((span - 1) / mag + 1, uint64_t(1) << 20);
  MahouList *l = mahouList(mi);
  int64_t want = l->size + int64_t(count), bytes;
  if (want <= l->capacity || !mulSize(want, std::max<int64_t>(l->itemSize, 1), bytes)) return;
  if (auto *p = static_cast<char *>(std::realloc(l->items, size_t(bytes)))) {
    l->items = p;
    l->capacity = want;
  }
}

int32_t mahou_rt_list_append(MahouMemInfo *mi, const void *item) {
  MahouList *l = mahouList(mi);
  if (l->size == l->capacity && !reserve(l, l->size + 1)) {
    decrefItem(l->desc, static_cast<const char *>(item));
    return 1;
  }
  std::memcpy(itemAt(l, l->size), item, size_t(l->itemSize));
  ++l->size;
  l->dirty = 1;
  return 0;
}

int32_t mahou_rt_list_insert(MahouMemInfo *mi, int64_t index, const void *item) {
  MahouList *l = mahouList(mi);
  if (l->size == l->capacity && !reserve(l, l->size + 1)) {
    decrefItem(l->desc, static_cast<const char *>(item));
    return 1;
  }
  if (index < 0) index = std::max<int64_t>(index + l->size, 0);
  if (index > l->size) index = l->size;
  moveItems(itemAt(l, index + 1), itemAt(l, index), size_t((l->size - index) * l->itemSize));
  std::memcpy(itemAt(l, index), item, size_t(l->itemSize));
  ++l->size;
  l->dirty = 1;
  return 0;
}

int32_t mahou_rt_list_pop(MahouMemInfo *mi, int64_t index, void *out) {
  MahouList *l = mahouList(mi);
  if (l->size == 0) {
    mahou_rt_set_error(ExcIndexError, "pop from empty list");
    return 1;
  }
  if (index < 0) index += l->size;
  if (index < 0 || index >= l->size) {
    mahou_rt_set_error(ExcIndexError, "pop index out of range");
    return 1;
  }
  std::memcpy(out, itemAt(l, index), size_t(l->itemSize));
  moveItems(itemAt(l, index), itemAt(l, index + 1), size_t((l->size - index - 1) * l->itemSize));
  --l->size;
  l->dirty = 1;
  return 0;
}

int32_t mahou_rt_list_delitem(MahouMemInfo *mi, int64_t index) {
  MahouList *l = mahouList(mi);
  if (index < 0) index += l->size;
  if (index < 0 || index >= l->size) {
    mahou_rt_set_error(ExcIndexError, "list assignment index out of range");
    return 1;
  }
  decrefItem(l->desc, itemAt(l, index));
  moveItems(itemAt(l, index), itemAt(l, index + 1), size_t((l->size - index - 1) * l->itemSize));
  --l->size;
  l->dirty = 1;
  return 0;
}

void mahou_rt_list_clear(MahouMemInfo *mi) {
  MahouList *l = mahouList(mi);
  int64_t n = l->size;
  l->size = 0; // first: a destructor run below may look at this list again
  l->dirty = 1;
  for (int64_t i = 0; i < n; ++i) decrefItem(l->desc, itemAt(l, i));
}

int32_t mahou_rt_list_extend(MahouMemInfo *mi, MahouMemInfo *other) {
  MahouList *l = mahouList(mi), *o = mahouList(other);
  int64_t n = o->size, total; // l.extend(l) appends the items once
  if (!addSize(l->size, n, total)) {
    mahou_rt_set_error(ExcMemoryError, "out of memory growing a list");
    return 1;
  }
  if (!reserve(l, total)) return 1;
  copyItems(itemAt(l, l->size), o->items, size_t(n * l->itemSize));
  for (int64_t i = 0; i < n; ++i) increfItem(l->desc, itemAt(l, l->size + i));
  l->size += n;
  l->dirty = 1;
  return 0;
}

MahouMemInfo *mahou_rt_list_copy(MahouMemInfo *mi) {
  MahouList *l = mahouList(mi);
  MahouMemInfo *out = newList(l->desc, l->size);
  if (!out) return nullptr;
  mahou_rt_list_extend(out, mi);
  mahouList(out)->dirty = 0;
  return out;
}

MahouMemInfo *mahou_rt_list_slice(MahouMemInfo *mi, int64_t start, int64_t stop, int64_t step, int32_t flags) {
  if (step == 0) {
    mahou_rt_set_error(ExcValueError, "slice step cannot be zero");
    return nullptr;
  }
  MahouList *l = mahouList(mi);
  int64_t n = adjustSlice(l->size, start, stop, step, flags);
  MahouMemInfo *out = newList(l->desc, n);
  if (!out) return nullptr;
  MahouList *o = mahouList(out);
  for (int64_t k = 0; k < n; ++k) {
    const char *src = itemAt(l, start + k * step);
    std::memcpy(itemAt(o, k), src, size_t(l->itemSize));
    increfItem(l->desc, src);
  }
  o->size = n;
  return out;
}

int32_t mahou_rt_list_setslice(MahouMemInfo *mi, int64_t start, int64_t stop, int64_t step, int32_t flags,
                               MahouMemInfo *src) try {
  if (step == 0) {
    mahou_rt_set_error(ExcValueError, "slice step cannot be zero");
    return 1;
  }
  MahouList *l = mahouList(mi);
  int64_t n = adjustSlice(l->size, start, stop, step, flags);
  if (step == 1 && stop < start) stop = start;
  // The items replaced, kept until the new ones are in (allocated before anything changes).
  std::vector<char> old(step == 1 ? size_t((stop - start) * l->itemSize) : 0);
  // A copy of the source first: l[a:b] = l is allowed.
  MahouMemInfo *copy = mahou_rt_list_copy(src);
  if (!copy) return 1;
  MahouList *s = mahouList(copy);
  if (step == 1) {
    int64_t removed = stop - start, added = s->size;
    if (!reserve(l, l->size - removed + added)) {
      mahou_rt_decref(copy);
      return 1;
    }
    if (removed) std::memcpy(old.data(), itemAt(l, start), old.size());
    moveItems(itemAt(l, start + added), itemAt(l, stop), size_t((l->size - stop) * l->itemSize));
    copyItems(itemAt(l, start), s->items, size_t(added * l->itemSize));
    l->size += added - removed;
    s->size = 0; // the items moved into l with their references
    for (int64_t i = 0; i < removed; ++i) decrefItem(l->desc, old.data() + i * l->itemSize);
  } else {
    if (s->size != n) {
      int64_t given = s->size; // read before the copy is released
      mahou_rt_decref(copy);
      mahou_rt_set_error_i64(ExcValueError, "attempt to assign sequence of size %lld to extended slice", given);
      return 1;
    }
    for (int64_t k = 0; k < n; ++k) {
      char *dst = itemAt(l, start + k * step);
      decrefItem(l->desc, dst);
      std::memcpy(dst, itemAt(s, k), size_t(l->itemSize));
    }
    s->size = 0;
  }
  l->dirty = 1;
  mahou_rt_decref(copy);
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

int32_t mahou_rt_list_delslice(MahouMemInfo *mi, int64_t start, int64_t stop, int64_t step, int32_t flags) try {
  if (step == 0) {
    mahou_rt_set_error(ExcValueError, "slice step cannot be zero");
    return 1;
  }
  MahouList *l = mahouList(mi);
  int64_t n = adjustSlice(l->size, start, stop, step, flags);
  if (n == 0) return 0;
  std::vector<char> keep(size_t(l->size * l->itemSize));
  std::vector<char> removed(size_t(n * l->itemSize));
  int64_t kept = 0, gone = 0;
  for (int64_t i = 0; i < l->size; ++i) {
    bool inSlice = step > 0 ? (i >= start && i < stop && (i - start) % step == 0)
                            : (i <= start && i > stop && (start - i) % (-step) == 0);
    char *dst = inSlice ? removed.data() + gone++ * l->itemSize : keep.data() + kept++ * l->itemSize;
    std::memcpy(dst, itemAt(l, i), size_t(l->itemSize));
  }
  copyItems(l->items, keep.data(), size_t(kept * l->itemSize));
  l->size = kept;
  l->dirty = 1;
  for (int64_t i = 0; i < gone; ++i) decrefItem(l->desc, removed.data() + i * l->itemSize);
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

void mahou_rt_list_reverse(MahouMemInfo *mi) {
  MahouList *l = mahouList(mi);
  for (int64_t i = 0, j = l->size - 1; i < j; ++i, --j) // byte by byte: nothing to allocate
    std::swap_ranges(itemAt(l, i), itemAt(l, i) + l->itemSize, itemAt(l, j));
  l->dirty = 1;
}

int64_t mahou_rt_list_find(MahouMemInfo *mi, const void *item, int64_t start, int64_t stop) {
  MahouList *l = mahouList(mi);
  if (start < 0) start = std::max<int64_t>(start + l->size, 0);
  if (stop < 0) stop = std::max<int64_t>(stop + l->size, 0);
  // The size is read every step: an item's equality never changes the list, but stay safe.
  for (int64_t i = start; i < stop && i < l->size; ++i)
    if (itemsEqual(l->desc, itemAt(l, i), static_cast<const char *>(item))) return i;
  return -1;
}

int64_t mahou_rt_list_count(MahouMemInfo *mi, const void *item) {
  MahouList *l = mahouList(mi);
  int64_t n = 0;
  for (int64_t i = 0; i < l->size; ++i) n += itemsEqual(l->desc, itemAt(l, i), static_cast<const char *>(item));
  return n;
}

// list.index(x) found nothing: ValueError('x is not in list') with repr(x), as CPython.
void mahou_rt_list_index_error(MahouMemInfo *mi, const void *item) try {
  std::string text = itemRepr(mahouList(mi)->desc, static_cast<const char *>(item)) + " is not in list";
  mahou_rt_set_error(ExcValueError, text.c_str());
} catch (const std::bad_alloc &) {
  mahou_rt_set_error(ExcMemoryError, "");
}

int32_t mahou_rt_list_remove(MahouMemInfo *mi, const void *item) {
  int64_t i = mahou_rt_list_find(mi, item, 0, INT64_MAX);
  if (i < 0) {
    mahou_rt_set_error(ExcValueError, "list.remove(x): x not in list");
    return 1;
  }
  return mahou_rt_list_delitem(mi, i);
}

bool mahou_rt_list_equal(MahouMemInfo *a, MahouMemInfo *b) {
  if (a == b) return true;
  MahouList *x = mahouList(a), *y = mahouList(b);
  if (x->size != y->size) return false;
  for (int64_t i = 0; i < x->size; ++i)
    if (!itemsEqual(x->desc, itemAt(x, i), itemAt(y, i))) return false;
  return true;
}

int32_t mahou_rt_list_compare(MahouMemInfo *a, MahouMemInfo *b) {
  MahouList *x = mahouList(a), *y = mahouList(b);
  int64_t n = std::min(x->size, y->size);
  for (int64_t i = 0; i < n; ++i)
    if (!itemsEqual(x->desc, itemAt(x, i), itemAt(y, i))) return compareItems(x->desc, itemAt(x, i), itemAt(y, i));
  return x->size < y->size ? -1 : x->size > y->size ? 1 : 0;
}

MahouMemInfo *mahou_rt_list_concat(MahouMemInfo *a, MahouMemInfo *b) {
  MahouList *x = mahouList(a), *y = mahouList(b);
  int64_t total;
  if (!addSize(x->size, y->size, total)) {
    mahou_rt_set_error(ExcMemoryError, "out of memory growing a list");
    return nullptr;
  }
  MahouMemInfo *out = newList(x->desc, total);
  if (!out) return nullptr;
  mahou_rt_list_extend(out, a);
  mahou_rt_list_extend(out, b);
  mahouList(out)->dirty = 0;
  return out;
}

MahouMemInfo *mahou_rt_list_repeat(MahouMemInfo *a, int64_t times) {
  MahouList *x = mahouList(a);
  if (times < 0 || x->size == 0) times = 0; // [] * 2**40 is [] at once
  int64_t total;
  if (!mulSize(x->size, times, total)) { // CPython's list repeat: MemoryError
    mahou_rt_set_error(ExcMemoryError, "out of memory repeating a list");
    return nullptr;
  }
  MahouMemInfo *out = newList(x->desc, total);
  if (!out) return nullptr;
  for (int64_t k = 0; k < times; ++k) mahou_rt_list_extend(out, a);
  mahouList(out)->dirty = 0;
  return out;
}

int32_t mahou_rt_list_sort(MahouMemInfo *mi, int32_t reverse) try {
  // Stable, as Python's sort; reverse keeps equal items in their original order.
  MahouList *l = mahouList(mi);
  std::vector<int64_t> order(size_t(l->size));
  std::iota(order.begin(), order.end(), 0);
  const MahouTypeDesc *d = l->desc;
  std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
    int c = compareItems(d, itemAt(l, i), itemAt(l, j));
    return reverse ? c > 0 : c < 0;
  });
  std::vector<char> sorted(size_t(l->size * l->itemSize));
  for (size_t k = 0; k < order.size(); ++k)
    std::memcpy(sorted.data() + k * size_t(l->itemSize), itemAt(l, order[k]), size_t(l->itemSize));
  if (!sorted.empty()) std::memcpy(l->items, sorted.data(), sorted.size());
  l->dirty = 1;
  return 0;
} MAHOU_RT_CATCH_ALLOC(1)

// The permutation that sorts the list (stable), for sort(key=...): keys are sorted and
// the items reordered by the caller.
void mahou_rt_list_argsort(MahouMemInfo *mi, int32_t reverse, int64_t *out) {
  MahouList *l = mahouList(mi);
  std::iota(out, out + l->size, 0);
  const MahouTypeDesc *d = l->desc;
  std::stable_sort(out, out + l->size, [&](int64_t i, int64_t j) {
    int c = compareItems(d, itemAt(l, i), itemAt(l, j));
    return reverse ? c > 0 : c < 0;
  });
}

} // extern "C"
