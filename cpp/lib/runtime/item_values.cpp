// Items of containers as Python shows them, for exceptions: a KeyError's argument is the
// key itself (CPython's e.args == (key,)), list.index's ValueError names repr(x).
#include "mahou/exception_args.h"
#include "mahou/objects.h"

#include <cstdio>
#include <cstring>

namespace mahou::runtime {

namespace {

template <class T> T loadAs(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

int64_t signedAt(const char *p, int size) {
  switch (size) {
  case 1: return loadAs<int8_t>(p);
  case 2: return loadAs<int16_t>(p);
  case 4: return loadAs<int32_t>(p);
  default: return loadAs<int64_t>(p);
  }
}

uint64_t unsignedAt(const char *p, int size) {
  switch (size) {
  case 1: return loadAs<uint8_t>(p);
  case 2: return loadAs<uint16_t>(p);
  case 4: return loadAs<uint32_t>(p);
  default: return loadAs<uint64_t>(p);
  }
}

// float16 fields are refused below (no shortest repr here); float32 shows as its double.
bool floatAt(const MahouField &f, const char *p, double &out) {
  if (f.size == 8) out = loadAs<double>(p);
  else if (f.size == 4) out = double(loadAs<float>(p));
  else return false;
  return true;
}

// The fields an item shows as: one, or a flat tuple's items.
bool shownFields(const MahouTypeDesc *d) {
  if (d->flags & MAHOU_DESC_TUPLE) return (d->flags & MAHOU_DESC_FLAT_TUPLE) != 0;
  return d->nfields == 1;
}

std::string ascii(MahouMemInfo *s) { // a repr's text (non-ASCII kept as UTF-8)
  std::string out;
  MahouStr *rs = mahouStr(s);
  for (int64_t k = 0; k < rs->length; ++k) {
    uint32_t c = stringCharAt(rs, k);
    if (c < 0x80) out += char(c);
    else if (c < 0x800) out += {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
    else if (c < 0x10000) out += {char(0xE0 | (c >> 12)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
    else
      out += {char(0xF0 | (c >> 18)), char(0x80 | ((c >> 12) & 0x3F)), char(0x80 | ((c >> 6) & 0x3F)),
              char(0x80 | (c & 0x3F))};
  }
  return out;
}

bool fieldRepr(const MahouField &f, const char *item, std::string &out) {
  const char *p = item + f.offset;
  char buf[32];
  switch (f.kind) {
  case MAHOU_FIELD_INT:
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(signedAt(p, f.size)));
    out += buf;
    return true;
  case MAHOU_FIELD_UINT:
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(unsignedAt(p, f.size)));
    out += buf;
    return true;
  case MAHOU_FIELD_FLOAT: {
    double v;
    if (!floatAt(f, p, v)) return false;
    MahouMemInfo *r = mahou_rt_str_from_float(v); // Python's shortest repr
    if (!r) {
      mahou_rt_clear_error();
      return false;
    }
    out += ascii(r);
    mahou_rt_decref(r);
    return true;
  }
  case MAHOU_FIELD_BOOL: out += *p ? "True" : "False"; return true;
  case MAHOU_FIELD_NONE: out += "None"; return true;
  case MAHOU_FIELD_BYTES: {
    const char *head = p;
    const uint8_t *data = loadAs<const uint8_t *>(head + 2 * sizeof(void *));
    out += bytesRepr(data, loadAs<int64_t>(head + mahouArrayBytes(0)), loadAs<int64_t>(head + mahouArrayBytes(0) + 8));
    return true;
  }
  case MAHOU_FIELD_STR: {
    MahouMemInfo *r = mahou_rt_str_repr(loadAs<MahouMemInfo *>(p));
    if (!r) {
      mahou_rt_clear_error();
      return false;
    }
    out += ascii(r);
    mahou_rt_decref(r);
    return true;
  }
  default: return false;
  }
}

bool packField(const MahouField &f, const char *item) {
  const char *p = item + f.offset;
  switch (f.kind) {
  case MAHOU_FIELD_INT: mahou_rt_error_arg_scalar(MAHOU_ERRARG_INT, signedAt(p, f.size)); return true;
  case MAHOU_FIELD_UINT:
    if (f.size < 8) mahou_rt_error_arg_scalar(MAHOU_ERRARG_INT, int64_t(unsignedAt(p, f.size)));
    else mahou_rt_error_arg_scalar(MAHOU_ERRARG_UINT, int64_t(unsignedAt(p, f.size)));
    return true;
  case MAHOU_FIELD_FLOAT: {
    double v;
    if (!floatAt(f, p, v)) return false;
    mahou_rt_error_arg_float(v);
    return true;
  }
  case MAHOU_FIELD_BOOL: mahou_rt_error_arg_scalar(MAHOU_ERRARG_BOOL, *p ? 1 : 0); return true;
  case MAHOU_FIELD_NONE: mahou_rt_error_arg_scalar(MAHOU_ERRARG_NONE, 0); return true;
  case MAHOU_FIELD_STR: mahou_rt_error_arg_str(loadAs<MahouMemInfo *>(p)); return true;
  case MAHOU_FIELD_BYTES:
    errorArgBytes(loadAs<const uint8_t *>(p + 2 * sizeof(void *)), loadAs<int64_t>(p + mahouArrayBytes(0)),
                  loadAs<int64_t>(p + mahouArrayBytes(0) + 8));
    return true;
  default: return false;
  }
}

bool packable(const MahouField &f) {
  switch (f.kind) {
  case MAHOU_FIELD_INT:
  case MAHOU_FIELD_UINT:
  case MAHOU_FIELD_BOOL:
  case MAHOU_FIELD_NONE:
  case MAHOU_FIELD_STR:
  case MAHOU_FIELD_BYTES: return true;
  case MAHOU_FIELD_FLOAT: return f.size == 4 || f.size == 8;
  default: return false;
  }
}

} // namespace

std::string itemRepr(const MahouTypeDesc *d, const char *item) {
  const MahouField *f = descFields(d);
  bool tuple = (d->flags & MAHOU_DESC_TUPLE) != 0;
  std::string out;
  if (shownFields(d)) {
    for (uint16_t i = 0; i < d->nfields; ++i) {
      if (i) out += ", ";
      if (!fieldRepr(f[i], item, out)) return tuple ? "<tuple>" : "<item>";
    }
    if (tuple) out = "(" + out + (d->nfields == 1 ? ",)" : ")");
    return out;
  }
  return tuple ? "<tuple>" : "<item>";
}

bool packItemArgument(const MahouTypeDesc *d, const char *item) {
  if (!shownFields(d) || d->nfields > 255) return false;
  const MahouField *f = descFields(d);
  for (uint16_t i = 0; i < d->nfields; ++i)
    if (!packable(f[i])) return false;
  if (d->flags & MAHOU_DESC_TUPLE) mahou_rt_error_arg_tuple(d->nfields);
  for (uint16_t i = 0; i < d->nfields; ++i) packField(f[i], item);
  return true;
}

} // namespace mahou::runtime
