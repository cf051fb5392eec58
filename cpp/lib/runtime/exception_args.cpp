// Exceptions raised with run-time arguments (`raise ValueError("bad", x)`): the
// arguments are packed into the pending error's message buffer, so that they travel
// with it wherever the error is saved, restored or handed between threads; the binding
// unpacks them into the Python exception's args (mahouUnpackErrorArgs).
#include "mahou/exception_args.h"
#include "mahou/objects.h"

#include <cstring>

namespace {

// The packed form: message[0..1] bytes used (little-endian uint16, header included),
// message[2] the number of arguments, then each one as a tag byte and its payload.
constexpr size_t kHeader = 3;
constexpr size_t kCapacity = sizeof(MahouError::message);
constexpr size_t kReserve = 32; // bytes a string leaves for later arguments

size_t usedBytes(const MahouError &e) { return size_t(uint8_t(e.message[0])) | size_t(uint8_t(e.message[1])) << 8; }
void setUsed(MahouError &e, size_t n) {
  e.message[0] = char(n & 0xff);
  e.message[1] = char(n >> 8);
}

// Room for `n` more bytes: true, else the argument is cut (strings) or marked missing.
bool append(MahouError &e, const void *data, size_t n) {
  size_t used = usedBytes(e);
  if (used + n > kCapacity) return false;
  std::memcpy(e.message + used, data, n);
  setUsed(e, used + n);
  return true;
}

// The tuples being packed (mahou_rt_error_arg_tuple): how many items each still takes.
// Only the outermost arguments are counted in the header; the error is per thread.
constexpr int kMaxTupleDepth = 16;
thread_local int tupleLeft[kMaxTupleDepth];
thread_local int tupleDepth = 0;

void countArgument(MahouError &e) {
  if (tupleDepth == 0) {
    e.message[2] = char(uint8_t(e.message[2]) + 1);
    return;
  }
  while (tupleDepth > 0 && --tupleLeft[tupleDepth - 1] == 0) --tupleDepth;
}

} // namespace

extern "C" {

void mahou_rt_error_begin(int32_t kind) {
  MahouError &e = *mahou_rt_pending_error();
  e.kind = kind;
  e.set = true;
  e.hasArgs = true;
  e.foreign = nullptr;
  std::memset(e.message, 0, kCapacity);
  setUsed(e, kHeader);
  tupleDepth = 0;
}

void mahou_rt_error_arg_tuple(int32_t count) {
  MahouError &e = *mahou_rt_pending_error();
  char head[2] = {char(MAHOU_ERRARG_TUPLE), char(uint8_t(count))};
  if (count < 0 || count > 255 || tupleDepth == kMaxTupleDepth || !append(e, head, 2)) {
    char t = MAHOU_ERRARG_CUT; // the whole tuple shows as '...'; its items are then not packed
    if (append(e, &t, 1)) countArgument(e);
    tupleLeft[tupleDepth < kMaxTupleDepth ? tupleDepth : 0] = 0;
    return;
  }
  countArgument(e);
  if (count > 0) tupleLeft[tupleDepth++] = count;
}

void mahou_rt_error_arg_scalar(int32_t tag, int64_t bits) {
  MahouError &e = *mahou_rt_pending_error();
  char t = char(tag);
  size_t used = usedBytes(e);
  size_t payload = tag == MAHOU_ERRARG_NONE ? 0 : tag == MAHOU_ERRARG_BOOL ? 1 : 8;
  if (used + 1 + payload > kCapacity) {
    t = MAHOU_ERRARG_CUT; // no room left: the argument is shown as '...'
    if (!append(e, &t, 1)) return;
    countArgument(e);
    return;
  }
  append(e, &t, 1);
  if (tag == MAHOU_ERRARG_BOOL) {
    char b = bits != 0;
    append(e, &b, 1);
  } else if (payload) {
    append(e, &bits, 8);
  }
  countArgument(e);
}

void mahou_rt_error_arg_float(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  mahou_rt_error_arg_scalar(MAHOU_ERRARG_FLOAT, bits);
}

void mahou_rt_error_arg_str(MahouMemInfo *s) {
  MahouError &e = *mahou_rt_pending_error();
  MahouStr *str = mahouStr(s);
  size_t used = usedBytes(e);
  constexpr size_t head = 1 + 1 + 4; // tag, kind, length
  if (used + head > kCapacity) {
    char t = MAHOU_ERRARG_CUT;
    if (append(e, &t, 1)) countArgument(e);
    return;
  }
  // As many code points as fit (a longer string is cut, as a long message is), leaving
  // room for the arguments after it (or their '...' marks).
  size_t kind = size_t(str->kind);
  size_t free = kCapacity - used - head;
  size_t room = (free > kReserve ? free - kReserve : 0) / kind;
  uint32_t length = uint32_t(size_t(str->length) < room ? size_t(str->length) : room);
  char t = MAHOU_ERRARG_STR, k = char(kind);
  append(e, &t, 1);
  append(e, &k, 1);
  append(e, &length, 4);
  append(e, mahouStrData(str), length * kind);
  countArgument(e);
}

} // extern "C"

namespace mahou::runtime {

// A bytes value as an exception's argument (a KeyError's key): packed as a str of kind 1
// with its own tag; a longer one is cut to what fits, as a string is.
void errorArgBytes(const uint8_t *data, int64_t n, int64_t stride) {
  MahouError &e = *mahou_rt_pending_error();
  size_t used = usedBytes(e);
  constexpr size_t head = 1 + 1 + 4; // tag, kind, length
  if (used + head > kCapacity) {
    char t = MAHOU_ERRARG_CUT;
    if (append(e, &t, 1)) countArgument(e);
    return;
  }
  size_t free = kCapacity - used - head;
  size_t room = free > kReserve ? free - kReserve : 0;
  uint32_t length = uint32_t(size_t(n) < room ? size_t(n) : room);
  char t = MAHOU_ERRARG_BYTES, k = 1;
  append(e, &t, 1);
  append(e, &k, 1);
  append(e, &length, 4);
  for (uint32_t i = 0; i < length; ++i) {
    char c = char(data[int64_t(i) * stride]);
    append(e, &c, 1);
  }
  countArgument(e);
}

} // namespace mahou::runtime

namespace {

// One packed argument at `pos` (and the items of a tuple after it), visited in order.
bool unpackOne(const MahouError &e, size_t &pos, size_t end, int depth, const MahouErrorArgVisitor &visit) {
  if (pos >= end || depth > kMaxTupleDepth) return false;
  char tag = e.message[pos++];
  MahouErrorArg a;
  a.tag = tag;
  switch (tag) {
  case MAHOU_ERRARG_NONE:
  case MAHOU_ERRARG_CUT: break;
  case MAHOU_ERRARG_BOOL:
    if (pos + 1 > end) return false;
    a.bits = e.message[pos++] != 0;
    break;
  case MAHOU_ERRARG_INT:
  case MAHOU_ERRARG_UINT:
  case MAHOU_ERRARG_FLOAT:
    if (pos + 8 > end) return false;
    std::memcpy(&a.bits, e.message + pos, 8);
    pos += 8;
    break;
  case MAHOU_ERRARG_STR:
  case MAHOU_ERRARG_BYTES: {
    if (pos + 5 > end) return false;
    a.kind = uint8_t(e.message[pos]);
    uint32_t length;
    std::memcpy(&length, e.message + pos + 1, 4);
    pos += 5;
    if (a.kind != 1 && a.kind != 2 && a.kind != 4) return false;
    if (pos + size_t(length) * a.kind > end) return false;
    a.length = length;
    a.data = e.message + pos;
    pos += size_t(length) * a.kind;
    break;
  }
  case MAHOU_ERRARG_TUPLE: {
    if (pos + 1 > end) return false;
    a.length = uint8_t(e.message[pos++]);
    if (!visit(a)) return false;
    for (uint32_t i = 0; i < a.length; ++i)
      if (!unpackOne(e, pos, end, depth + 1, visit)) return false;
    return true;
  }
  default: return false;
  }
  return visit(a);
}

} // namespace

bool mahouUnpackErrorArgs(const MahouError &e, const MahouErrorArgVisitor &visit) {
  size_t end = usedBytes(e), pos = kHeader;
  if (!e.hasArgs || end > kCapacity || end < kHeader) return false;
  size_t count = uint8_t(e.message[2]);
  for (size_t i = 0; i < count; ++i)
    if (!unpackOne(e, pos, end, 0, visit)) return false;
  return true;
}
