// Checks of an object file from outside the process (pickled machine code, a cache
// entry) before the JIT links it: LLVM's JITLink trusts the offsets an object gives
// (a relocation is applied at its offset, a symbol read at its value), so a payload
// edited consistently enough to pass the checksum must be refused here, not linked.
#include "object_check.h"

#include <llvm/BinaryFormat/ELF.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace mahou::jit {

std::string signatureSymbol(const std::string &symbol) { return symbol + ".signature"; }

std::string signatureRecord(const std::vector<types::Type> &args, const types::Type &ret) {
  std::string s = "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].str();
  return s + ") -> " + ret.str();
}

namespace {

namespace elf = llvm::ELF;

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = elf::EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = elf::EM_AARCH64;
#else
constexpr uint16_t kHostMachine = 0; // checked by size only
#endif

// Section flags of the objects the compiler makes (no thread-local, compressed or
// processor-specific sections).
constexpr uint64_t kKnownFlags = elf::SHF_WRITE | elf::SHF_ALLOC | elf::SHF_EXECINSTR | elf::SHF_MERGE | elf::SHF_STRINGS |
                                 elf::SHF_INFO_LINK | elf::SHF_LINK_ORDER | elf::SHF_GROUP | elf::SHF_GNU_RETAIN |
                                 elf::SHF_EXCLUDE;
constexpr uint64_t kMaxAlign = 1u << 16;          // sections are aligned to at most a cache line or a page
constexpr uint64_t kMaxZeroFill = uint64_t(1) << 28; // .bss of a function's object: far below this

// Bytes a relocation of this type writes (0: a type this host's objects never carry).
unsigned relocationWidth(uint32_t type) {
  if (kHostMachine == elf::EM_X86_64) {
    switch (type) {
    case elf::R_X86_64_NONE: return 1; // writes nothing; its offset must still lie inside
    case elf::R_X86_64_64:
    case elf::R_X86_64_PC64:
    case elf::R_X86_64_GOTOFF64:
    case elf::R_X86_64_GOTPC64:
    case elf::R_X86_64_GOTPCREL64:
    case elf::R_X86_64_SIZE64: return 8;
    case elf::R_X86_64_PC32:
    case elf::R_X86_64_GOT32:
    case elf::R_X86_64_PLT32:
    case elf::R_X86_64_GOTPCREL:
    case elf::R_X86_64_32:
    case elf::R_X86_64_32S:
    case elf::R_X86_64_GOTPC32:
    case elf::R_X86_64_GOTPCRELX:
    case elf::R_X86_64_REX_GOTPCRELX:
    case elf::R_X86_64_SIZE32: return 4;
    default: return 0;
    }
  }
  if (kHostMachine == elf::EM_AARCH64) {
    switch (type) {
    case elf::R_AARCH64_ABS64:
    case elf::R_AARCH64_PREL64: return 8;
    default: return 4; // instruction fields and 32-bit data
    }
  }
  return 8;
}

template <class T> bool read(const std::string &buf, uint64_t offset, T &out) {
  if (offset > buf.size() || buf.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, buf.data() + offset, sizeof(T));
  return true;
}

// [offset, offset + size) inside [0, limit).
bool inside(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

struct Checker {
  const std::string &obj;
  std::string *why;
  elf::Elf64_Ehdr eh{};
  std::vector<elf::Elf64_Shdr> sections;
  uint32_t symtab = 0; // section index of the one symbol table
  uint64_t nsyms = 0;
  struct Extent {
    uint64_t section, start, size;
    bool operator<(const Extent &o) const {
      return section != o.section ? section < o.section : start != o.start ? start < o.start : size < o.size;
    }
  };
  std::vector<Extent> extents; // functions and data, by section

  bool fail(const std::string &what) {
    if (why) *why = what;
    return false;
  }

  bool header() {
    if (!read(obj, 0, eh)) return fail("shorter than an ELF header");
    if (std::memcmp(eh.e_ident, elf::ElfMagic, 4) != 0) return fail("not an ELF file");
    if (eh.e_ident[elf::EI_CLASS] != elf::ELFCLASS64 || eh.e_ident[elf::EI_DATA] != elf::ELFDATA2LSB)
      return fail("not a 64-bit little-endian ELF file");
    if (eh.e_type != elf::ET_REL) return fail("not a relocatable object");
    if (kHostMachine && eh.e_machine != kHostMachine) return fail("made for another machine");
    if (eh.e_ehsize != sizeof(elf::Elf64_Ehdr) || eh.e_shentsize != sizeof(elf::Elf64_Shdr) || eh.e_phnum != 0)
      return fail("unexpected ELF header sizes");
    if (eh.e_shnum == 0 || eh.e_shnum >= elf::SHN_LORESERVE || eh.e_shstrndx >= eh.e_shnum)
      return fail("bad section count or section name table index");
    if (!inside(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(elf::Elf64_Shdr), obj.size()))
      return fail("section headers outside the file");
    sections.resize(eh.e_shnum);
    for (size_t i = 0; i < sections.size(); ++i) read(obj, eh.e_shoff + i * sizeof(elf::Elf64_Shdr), sections[i]);
    return true;
  }

  bool stringTable(uint32_t index) {
    const elf::Elf64_Shdr &s = sections[index];
    if (s.sh_type != elf::SHT_STRTAB) return fail("a string table index names another kind of section");
    return s.sh_size > 0 && obj[s.sh_offset + s.sh_size - 1] == '\0' ? true : fail("an unterminated string table");
  }

  bool sectionHeaders() {
    for (size_t i = 1; i < sections.size(); ++i) {
      const elf::Elf64_Shdr &s = sections[i];
      if (s.sh_type != elf::SHT_NOBITS && !inside(s.sh_offset, s.sh_size, obj.size()))
        return fail("section " + std::to_string(i) + " outside the file");
      if (s.sh_type == elf::SHT_NOBITS && s.sh_size > kMaxZeroFill) return fail("an oversized zero-filled section");
      if (s.sh_addralign > kMaxAlign || (s.sh_addralign & (s.sh_addralign - 1)) != 0)
        return fail("a bad section alignment");
      if (s.sh_link >= sections.size()) return fail("a section link out of range");
      if (s.sh_flags & ~kKnownFlags) return fail("a section of unexpected flags (thread-local, compressed or other)");
      if ((s.sh_flags & elf::SHF_MERGE) && (s.sh_entsize == 0 || s.sh_size % s.sh_entsize != 0))
        return fail("a mergeable section of a bad entry size");
      switch (s.sh_type) {
      case elf::SHT_NULL:
      case elf::SHT_PROGBITS:
      case elf::SHT_NOBITS:
      case elf::SHT_STRTAB:
      case elf::SHT_NOTE:
      case elf::SHT_SYMTAB:
      case elf::SHT_RELA:
      case elf::SHT_REL:
      case elf::SHT_GROUP:
      case elf::SHT_X86_64_UNWIND:
      case elf::SHT_LLVM_ADDRSIG: break;
      case elf::SHT_INIT_ARRAY:
      case elf::SHT_FINI_ARRAY:
      case elf::SHT_PREINIT_ARRAY: return fail("a section of initialisers (code run when linked)");
      default: return fail("a section of unexpected type " + std::to_string(s.sh_type));
      }
      if (s.sh_type == elf::SHT_SYMTAB) {
        if (symtab) return fail("two symbol tables");
        symtab = uint32_t(i);
      }
    }
    // The file's parts do not overlap: each byte is the header, the section table or
    // one section's (a section moved over another's bytes, or over the header, would
    // run or read them as what they are not).
    std::vector<std::pair<uint64_t, uint64_t>> parts{{0, sizeof(elf::Elf64_Ehdr)},
                                                     {eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(elf::Elf64_Shdr)}};
    for (size_t i = 1; i < sections.size(); ++i)
      if (sections[i].sh_type != elf::SHT_NOBITS && sections[i].sh_size > 0)
        parts.push_back({sections[i].sh_offset, sections[i].sh_size});
    std::sort(parts.begin(), parts.end());
    for (size_t i = 1; i < parts.size(); ++i)
      if (parts[i].first < parts[i - 1].first + parts[i - 1].second) return fail("overlapping sections");
    if (!stringTable(eh.e_shstrndx)) return false;
    const elf::Elf64_Shdr &names = sections[eh.e_shstrndx];
    for (size_t i = 1; i < sections.size(); ++i) {
      if (sections[i].sh_name >= names.sh_size) return fail("a section name outside its table");
      const char *name = obj.data() + names.sh_offset + sections[i].sh_name;
      for (const char *bad : {".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors", ".init", ".fini"})
        if (std::strncmp(name, bad, std::strlen(bad)) == 0 &&
            (name[std::strlen(bad)] == '\0' || name[std::strlen(bad)] == '.'))
          return fail(std::string("a section of initialisers (") + bad + ")");
    }
    return true;
  }

  bool symbols() {
    if (!symtab) return fail("no symbol table");
    const elf::Elf64_Shdr &st = sections[symtab];
    if (st.sh_entsize != sizeof(elf::Elf64_Sym) || st.sh_size % sizeof(elf::Elf64_Sym) != 0)
      return fail("a bad symbol table entry size");
    if (!stringTable(st.sh_link)) return false;
    nsyms = st.sh_size / sizeof(elf::Elf64_Sym);
    if (st.sh_info > nsyms) return fail("a bad first global symbol index");
    const elf::Elf64_Shdr &strings = sections[st.sh_link];
    for (uint64_t k = 1; k < nsyms; ++k) {
      elf::Elf64_Sym sym;
      read(obj, st.sh_offset + k * sizeof sym, sym);
      if (sym.st_name >= strings.sh_size) return fail("a symbol name outside its table");
      unsigned bind = sym.getBinding(), type = sym.getType();
      if (bind != elf::STB_LOCAL && bind != elf::STB_GLOBAL && bind != elf::STB_WEAK)
        return fail("a symbol of unexpected binding");
      if ((bind == elf::STB_LOCAL) != (k < st.sh_info)) return fail("local and global symbols out of order");
      if (type != elf::STT_NOTYPE && type != elf::STT_OBJECT && type != elf::STT_FUNC && type != elf::STT_SECTION &&
          type != elf::STT_FILE)
        return fail("a symbol of unexpected type");
      uint16_t shndx = sym.st_shndx;
      if (shndx == elf::SHN_UNDEF || shndx == elf::SHN_ABS || shndx == elf::SHN_COMMON) continue;
      if (shndx >= sections.size()) return fail("a symbol in a section that does not exist");
      const elf::Elf64_Shdr &in = sections[shndx];
      if (in.sh_type == elf::SHT_NULL) return fail("a symbol in the null section");
      // What is linked is the allocated sections: a function or datum anywhere else
      // (a string table, the symbol table) would be linked against nothing.
      if (type != elf::STT_SECTION && type != elf::STT_FILE && !(in.sh_flags & elf::SHF_ALLOC))
        return fail("a symbol in a section that is not loaded");
      if (type != elf::STT_SECTION && !inside(sym.st_value, sym.st_size, in.sh_size))
        return fail("symbol " + std::to_string(k) + " outside its section");
      if ((type == elf::STT_FUNC || type == elf::STT_OBJECT) && sym.st_size > 0)
        extents.push_back({shndx, sym.st_value, sym.st_size});
    }
    // Functions and data do not overlap (an alias has the same start and size).
    std::sort(extents.begin(), extents.end());
    for (size_t i = 1; i < extents.size(); ++i) {
      const Extent &a = extents[i - 1], &b = extents[i];
      if (a.section == b.section && b.start < a.start + a.size && !(a.start == b.start && a.size == b.size))
        return fail("overlapping symbols");
    }
    return true;
  }

  // Relocations of loaded sections must name symbols in loaded sections (or undefined
  // ones, which the JIT resolves).
  bool relocatedSymbol(uint32_t index) {
    const elf::Elf64_Shdr &st = sections[symtab];
    elf::Elf64_Sym sym;
    read(obj, st.sh_offset + uint64_t(index) * sizeof sym, sym);
    uint16_t shndx = sym.st_shndx;
    if (shndx == elf::SHN_UNDEF || shndx == elf::SHN_ABS || shndx == elf::SHN_COMMON) return true;
    return shndx < sections.size() && (sections[shndx].sh_flags & elf::SHF_ALLOC);
  }

  bool relocations() {
    for (size_t i = 1; i < sections.size(); ++i) {
      const elf::Elf64_Shdr &s = sections[i];
      bool rela = s.sh_type == elf::SHT_RELA;
      if (s.sh_type == elf::SHT_GROUP) {
        if (s.sh_link != symtab || s.sh_info >= nsyms || s.sh_entsize != 4 || s.sh_size % 4 != 0 || s.sh_size < 4)
          return fail("a bad section group");
        for (uint64_t off = 4; off < s.sh_size; off += 4) {
          uint32_t member;
          read(obj, s.sh_offset + off, member);
          if (member == 0 || member >= sections.size()) return fail("a section group member out of range");
        }
        continue;
      }
      if (!rela && s.sh_type != elf::SHT_REL) continue;
      size_t entry = rela ? sizeof(elf::Elf64_Rela) : sizeof(elf::Elf64_Rel);
      if (s.sh_entsize != entry || s.sh_size % entry != 0) return fail("a bad relocation entry size");
      if (s.sh_link != symtab) return fail("relocations against another symbol table");
      if (s.sh_info == 0 || s.sh_info >= sections.size()) return fail("relocations of a section that does not exist");
      const elf::Elf64_Shdr &target = sections[s.sh_info];
      if (target.sh_type == elf::SHT_NOBITS || target.sh_type == elf::SHT_NULL)
        return fail("relocations of a section without contents");
      for (uint64_t off = 0; off < s.sh_size; off += entry) {
        elf::Elf64_Rel r; // r_offset and r_info lead both layouts
        read(obj, s.sh_offset + off, r);
        unsigned width = relocationWidth(r.getType());
        if (width == 0) return fail("a relocation of unexpected type " + std::to_string(r.getType()));
        if (r.getSymbol() >= nsyms) return fail("a relocation against a symbol that does not exist");
        if ((target.sh_flags & elf::SHF_ALLOC) && !relocatedSymbol(r.getSymbol()))
          return fail("a relocation against a symbol of a section that is not loaded");
        if (!inside(r.r_offset, width, target.sh_size)) return fail("a relocation outside the section it patches");
      }
    }
    return true;
  }

  bool definesRecord(const std::string &name, const std::string &bytes) {
    const elf::Elf64_Shdr &st = sections[symtab];
    const elf::Elf64_Shdr &strings = sections[st.sh_link];
    for (uint64_t k = 1; k < nsyms; ++k) {
      elf::Elf64_Sym sym;
      read(obj, st.sh_offset + k * sizeof sym, sym);
      const char *text = obj.data() + strings.sh_offset + sym.st_name;
      if (std::strlen(text) != name.size() || name.compare(text) != 0) continue;
      if (sym.st_shndx == elf::SHN_UNDEF || sym.st_shndx >= sections.size()) break;
      const elf::Elf64_Shdr &in = sections[sym.st_shndx];
      if (in.sh_type != elf::SHT_PROGBITS || sym.st_size != bytes.size()) break;
      if (obj.compare(in.sh_offset + sym.st_value, bytes.size(), bytes) != 0) break;
      return true;
    }
    return fail("its signature record does not match the types it was given");
  }
};

} // namespace

bool checkObjectFile(const std::string &object, const std::string &signatureName, const std::string &signature,
                     std::string *why) {
  Checker c{object, why};
  if (!c.header() || !c.sectionHeaders() || !c.symbols() || !c.relocations()) return false;
  return signatureName.empty() || c.definesRecord(signatureName, signature);
}

} // namespace mahou::jit
