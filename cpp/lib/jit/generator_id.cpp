// The identity of the code generator that runs (cache.h generatorId): what machine
// code kept outside the process — cache entries, pickled dispatchers — is keyed by,
// so that code made by another build, another LLVM or for another CPU never runs.
#include "mahou/cache.h"

#include "mahou/jit.h"

#include <llvm/Config/llvm-config.h>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>

namespace mahou::cache {

namespace {

constexpr const char *kVersion = "mahou 0.1.0";

struct BuildIdSearch {
  uintptr_t address; // an address inside the library we look for
  std::string id;    // its NT_GNU_BUILD_ID in hex, once found
};

// The GNU build ID note of one PT_NOTE segment, or "".
std::string buildIdInNotes(const char *p, size_t size) {
  static const char *digits = "0123456789abcdef";
  size_t pos = 0;
  auto align4 = [](size_t n) { return (n + 3) & ~size_t(3); };
  while (pos + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) note;
    std::memcpy(&note, p + pos, sizeof note);
    size_t nameAt = pos + sizeof note, descAt = nameAt + align4(note.n_namesz);
    if (descAt + note.n_descsz > size) break;
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(p + nameAt, "GNU", 4) == 0) {
      std::string hex;
      for (size_t i = 0; i < note.n_descsz; ++i) {
        auto byte = static_cast<unsigned char>(p[descAt + i]);
        hex += digits[byte >> 4];
        hex += digits[byte & 15];
      }
      return hex;
    }
    pos = descAt + align4(note.n_descsz);
  }
  return "";
}

int findBuildId(struct dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum && !holds; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    holds = ph.p_type == PT_LOAD && search->address >= start && search->address < start + ph.p_memsz;
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    std::string id = buildIdInNotes(reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr), ph.p_memsz);
    if (!id.empty()) {
      search->id = id;
      break;
    }
  }
  return 1; // the library holding the address was found: stop
}

} // namespace

const std::string &generatorId() {
  static const std::string id = [] {
    std::string s = kVersion;
    BuildIdSearch search{reinterpret_cast<uintptr_t>(&generatorId), ""};
    dl_iterate_phdr(findBuildId, &search);
    if (!search.id.empty()) return s + "|build-id " + search.id;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&generatorId), &info) && info.dli_fname) {
      struct stat st{};
      if (stat(info.dli_fname, &st) == 0)
        s += std::string("|") + info.dli_fname + "|" + std::to_string(st.st_size) + "|" +
             std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    }
    return s;
  }();
  return id;
}

std::string objectCompatibilityKey() {
  return generatorId() + "|LLVM " + LLVM_VERSION_STRING + "|" + jit::Engine::instance().targetId();
}

} // namespace mahou::cache
