// Thread control of the parallel runtime (parallel.h) for mahou's Python layer:
// set_num_threads / get_num_threads / get_thread_id and the maximum (NUMBA_NUM_THREADS).
#include "binding.h"

#include "mahou/parallel.h"

namespace nb = nanobind;

namespace mahou::binding {

void registerParallel(nb::module_ &m) {
  m.def("_get_num_threads", [] { return mahou_rt_get_num_threads(); },
        "The thread count of parallel loops started from the calling thread.");
  m.def(
      "_set_num_threads", [](int n) { return mahou_rt_set_num_threads(n) == 0; }, nb::arg("n"),
      "Sets the calling thread's thread count; False when n is not in [1, the maximum].");
  m.def("_get_thread_id", [] { return mahou_rt_get_thread_id(); },
        "The calling thread's index in the parallel loop it runs (0 outside loops).");
  m.def("_max_threads", [] { return mahou_rt_max_threads(); }, "The most threads a loop may use.");
  m.def(
      "_set_max_threads", [](int n) { return mahou_rt_set_max_threads(n) == 0; }, nb::arg("n"),
      "Changes the maximum; False when n < 1 or loops already ran with another maximum.");
  m.def("_parallel_started", [] { return mahou_rt_parallel_started() != 0; },
        "Whether a parallel loop has run in this process.");
}

} // namespace mahou::binding
