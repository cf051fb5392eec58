// Runtime library called by compiled code: reference-counted array memory, the
// per-thread error state and the symbol table the JIT uses to find them.
#include "mahou/runtime.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int64_t kAlignment = 64;

// ExcKind values (types::ExcKind), numbered as in exceptions.def.
enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

std::atomic<int64_t> liveAllocations{0};

thread_local MahouError pendingError{0, false, {0}};

void copyMessage(const char *msg) {
  if (!msg) {
    pendingError.message[0] = '\0';
    return;
  }
  std::strncpy(pendingError.message, msg, sizeof(pendingError.message) - 1);
  pendingError.message[sizeof(pendingError.message) - 1] = '\0';
}

// Writes fmt into the error message with `value` replacing the first "%lld"
// (the only directive honoured; other '%' characters are copied as they are).
void formatMessageI64(const char *fmt, int64_t value) {
  if (!fmt) {
    std::snprintf(pendingError.message, sizeof(pendingError.message), "%lld",
                  static_cast<long long>(value));
    return;
  }
  const char *at = std::strstr(fmt, "%lld");
  if (!at) {
    copyMessage(fmt);
    return;
  }
  std::snprintf(pendingError.message, sizeof(pendingError.message), "%.*s%lld%s",
                int(at - fmt), fmt, static_cast<long long>(value), at + 4);
}

} // namespace

extern "C" {

MahouMemInfo *mahou_rt_alloc(int64_t nbytes) {
  if (nbytes < 0) {
    mahou_rt_set_error(ExcValueError,
                       "negative dimensions are not allowed");
    return nullptr;
  }
  if (nbytes > INT64_MAX - kAlignment) {
    mahou_rt_set_error(ExcMemoryError,
                       "unable to allocate array data");
    return nullptr;
  }
  // aligned_alloc needs a size that is a multiple of the alignment; keep one
  // block of 64 bytes for empty arrays so data is never null.
  int64_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0)
    rounded = kAlignment;
  auto *mi = static_cast<MahouMemInfo *>(std::malloc(sizeof(MahouMemInfo)));
  void *data = std::aligned_alloc(kAlignment, size_t(rounded));
  if (!mi || !data) {
    std::free(mi);
    std::free(data);
    mahou_rt_set_error(ExcMemoryError,
                       "unable to allocate array data");
    return nullptr;
  }
  mi->refcount = 1;
  mi->data = data;
  mi->nbytes = nbytes;
  liveAllocations.fetch_add(1, std::memory_order_relaxed);
  return mi;
}

void mahou_rt_incref(MahouMemInfo *mi) {
  if (mi)
    __atomic_fetch_add(&mi->refcount, 1, __ATOMIC_RELAXED);
}

void mahou_rt_decref(MahouMemInfo *mi) {
  if (!mi)
    return;
  if (__atomic_sub_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  std::free(mi->data);
  std::free(mi);
  liveAllocations.fetch_sub(1, std::memory_order_relaxed);
}

int64_t mahou_rt_live_allocations() { return liveAllocations.load(std::memory_order_relaxed); }

void mahou_rt_set_error(int32_t kind, const char *msg) {
  pendingError.kind = kind;
  pendingError.set = true;
  copyMessage(msg);
}

void mahou_rt_set_error_i64(int32_t kind, const char *fmt, int64_t value) {
  pendingError.kind = kind;
  pendingError.set = true;
  formatMessageI64(fmt, value);
}

MahouError mahou_rt_take_error() {
  MahouError out = pendingError;
  pendingError.set = false;
  pendingError.kind = 0;
  pendingError.message[0] = '\0';
  return out;
}

} // extern "C"

namespace mahou::runtime {

const RuntimeSymbol *runtimeSymbols(size_t *count) {
#define MAHOU_RT_SYMBOL(fn) {#fn, reinterpret_cast<void *>(&fn)}
  static const RuntimeSymbol table[] = {
      MAHOU_RT_SYMBOL(mahou_rt_alloc),
      MAHOU_RT_SYMBOL(mahou_rt_incref),
      MAHOU_RT_SYMBOL(mahou_rt_decref),
      MAHOU_RT_SYMBOL(mahou_rt_live_allocations),
      MAHOU_RT_SYMBOL(mahou_rt_set_error),
      MAHOU_RT_SYMBOL(mahou_rt_set_error_i64),
      MAHOU_RT_SYMBOL(mahou_rt_take_error),
      MAHOU_RT_SYMBOL(mahou_rt_error_matches),
      MAHOU_RT_SYMBOL(mahou_rt_clear_error),
      MAHOU_RT_SYMBOL(mahou_rt_powmod),
      MAHOU_RT_SYMBOL(mahou_rt_csqrt),
      MAHOU_RT_SYMBOL(mahou_rt_cexp),
      MAHOU_RT_SYMBOL(mahou_rt_clog),
      MAHOU_RT_SYMBOL(mahou_rt_sim_launch),
      MAHOU_RT_SYMBOL(mahou_rt_sim_sreg),
      MAHOU_RT_SYMBOL(mahou_rt_sim_shared),
      MAHOU_RT_SYMBOL(mahou_rt_sim_dynamic_shared),
      MAHOU_RT_SYMBOL(mahou_rt_sim_syncthreads),
      MAHOU_RT_SYMBOL(mahou_rt_sim_syncwarp),
      MAHOU_RT_SYMBOL(mahou_rt_sim_shfl),
      MAHOU_RT_SYMBOL(mahou_rt_sim_vote),
      MAHOU_RT_SYMBOL(mahou_rt_sim_activemask),
      MAHOU_RT_SYMBOL(mahou_rt_sort),
      MAHOU_RT_SYMBOL(mahou_rt_argsort),
      MAHOU_RT_SYMBOL(mahou_rt_unique_sorted),
      MAHOU_RT_SYMBOL(mahou_rt_random_seed),
      MAHOU_RT_SYMBOL(mahou_rt_random_double),
      MAHOU_RT_SYMBOL(mahou_rt_random_normal),
      MAHOU_RT_SYMBOL(mahou_rt_random_int),
      MAHOU_RT_SYMBOL(mahou_rt_print_i64),
      MAHOU_RT_SYMBOL(mahou_rt_print_u64),
      MAHOU_RT_SYMBOL(mahou_rt_print_f64),
      MAHOU_RT_SYMBOL(mahou_rt_print_bool),
      MAHOU_RT_SYMBOL(mahou_rt_print_str),
      MAHOU_RT_SYMBOL(mahou_rt_print_sep),
      MAHOU_RT_SYMBOL(mahou_rt_print_newline),
      MAHOU_RT_SYMBOL(mahou_rt_print_array),
  };
#undef MAHOU_RT_SYMBOL
  if (count)
    *count = sizeof(table) / sizeof(table[0]);
  return table;
}

} // namespace mahou::runtime
