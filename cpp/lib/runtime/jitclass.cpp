// @jitclass instances in the runtime: allocation with zeroed fields and the destructor
// that releases the references the fields hold (found through the instance's own
// field descriptor, so an instance never points into compiled code).
#include "mahou/jitclass.h"
#include "mahou/objects.h"

#include <cstring>

#include <atomic>

namespace {

std::atomic<MahouMemInfo *(*)(void *)> adoptParentHook{nullptr};

const MahouTypeDesc *fieldsDesc(MahouMemInfo *mi) {
  const MahouTypeDesc *d;
  std::memcpy(&d, mahouObjectPayload(mi), sizeof d);
  return d;
}

void destroyInstance(MahouMemInfo *mi) {
  const MahouTypeDesc *d = fieldsDesc(mi);
  mahou::runtime::decrefItem(d, static_cast<const char *>(mahouObjectPayload(mi)) + mahou::kJitInstanceFieldsOffset);
}

} // namespace

extern "C" MahouMemInfo *mahou_rt_instance_new(const MahouTypeDesc *fields) {
  MahouMemInfo *mi = mahou_rt_alloc_object(int64_t(mahou::kJitInstanceFieldsOffset + fields->size), destroyInstance);
  if (!mi) return nullptr;
  char *payload = static_cast<char *>(mahouObjectPayload(mi));
  std::memcpy(payload, &fields, sizeof fields);
  std::memset(payload + mahou::kJitInstanceFieldsOffset, 0, fields->size);
  return mi;
}

extern "C" MahouMemInfo *mahou_rt_adopt_parent(void *parent) {
  auto hook = adoptParentHook.load(std::memory_order_acquire);
  MahouMemInfo *mi = hook ? hook(parent) : nullptr;
  if (!mi) mahou_rt_set_error(int32_t(mahou::types::ExcKind::MemoryError), "cannot keep an array in an object");
  return mi;
}

void mahou::runtime::setAdoptParentHook(MahouMemInfo *(*hook)(void *parent)) {
  adoptParentHook.store(hook, std::memory_order_release);
}
