// print() inside kernels on the CUDA emulator: formats the same vprintf format and
// argument slots the GPU gets, and writes each call's line to stdout in one piece.
#include "mahou/runtime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

namespace {

std::mutex &printMutex() {
  static auto *m = new std::mutex(); // never freed: kernels may print at exit
  return *m;
}

} // namespace

extern "C" void mahou_rt_sim_print(const char *format, const int64_t *args) {
  std::string line;
  char buf[64];
  for (const char *p = format; *p; ++p) {
    if (*p != '%') {
      line += *p;
      continue;
    }
    if (std::strncmp(p, "%lld", 4) == 0) {
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(*args++));
      line += buf;
      p += 3;
    } else if (std::strncmp(p, "%llu", 4) == 0) {
      std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(*args++));
      line += buf;
      p += 3;
    } else if (p[1] == 'f') {
      double v;
      std::memcpy(&v, args++, sizeof v);
      std::snprintf(buf, sizeof buf, "%f", v);
      line += buf;
      p += 1;
    } else if (p[1] == 's') {
      const char *s;
      std::memcpy(&s, args++, sizeof s);
      line += s ? s : "(null)";
      p += 1;
    } else if (p[1] == '%') {
      line += '%';
      p += 1;
    } else {
      line += *p;
    }
  }
  std::lock_guard<std::mutex> lock(printMutex());
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}
