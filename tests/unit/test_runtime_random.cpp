// Unit tests of the runtime's random state: MT19937 against the reference implementation's
// published outputs (init_genrand and init_by_array), the per-thread states (each thread
// its own, seeding one leaves the others), and the parameter checks' NumPy messages.
#include "runtime/random_state.h"

#include "mahou/random_distributions.h"
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

namespace {

using mahou::runtime::random_state::MT19937;

TEST(RuntimeRandom, InitGenrandMatchesTheReference) {
  MT19937 g{};
  g.seed(5489U); // the reference's default seed
  EXPECT_EQ(g.next32(), 3499211612U);
  EXPECT_EQ(g.next32(), 581869302U);
  EXPECT_EQ(g.next32(), 3890346734U);
}

TEST(RuntimeRandom, InitByArrayMatchesTheReference) {
  const uint32_t key[4] = {0x123, 0x234, 0x345, 0x456}; // mt19937ar.out
  MT19937 g{};
  g.seedByArray(key, 4);
  EXPECT_EQ(g.next32(), 1067595299U);
  EXPECT_EQ(g.next32(), 955945823U);
  EXPECT_EQ(g.next32(), 477289528U);
  for (int i = 3; i < 1000; ++i) g.next32();
  EXPECT_EQ(g.next32(), 3276005344U); // the 1001st output (CPython's), past a second generate()
}

TEST(RuntimeRandom, ThreadsHaveStatesOfTheirOwn) {
  ASSERT_EQ(mahou_rt_np_seed(7), 0);
  double first = mahou_rt_np_random();
  double other = -1;
  std::thread t([&] {
    mahou_rt_np_seed(7);
    other = mahou_rt_np_random();
    mahou_rt_np_seed(8); // does not move the main thread's state
  });
  t.join();
  EXPECT_EQ(other, first);
  ASSERT_EQ(mahou_rt_np_seed(7), 0);
  mahou_rt_np_random();
  double second = mahou_rt_np_random();
  ASSERT_EQ(mahou_rt_np_seed(7), 0);
  mahou_rt_np_random();
  EXPECT_EQ(mahou_rt_np_random(), second);
}

TEST(RuntimeRandom, ChecksWordNumpysMessages) {
  EXPECT_EQ(mahou_rt_random_check(MAHOU_RANDOM_NON_NEGATIVE, 1.0, "scale"), 0);
  EXPECT_EQ(mahou_rt_random_check(MAHOU_RANDOM_NON_NEGATIVE, -0.0, "scale"), 1);
  MahouError e = mahou_rt_take_error();
  EXPECT_TRUE(e.set);
  EXPECT_STREQ(e.message, "scale < 0");
  EXPECT_EQ(mahou_rt_random_check(MAHOU_RANDOM_BOUNDED_0_1, 1.5, "p"), 1);
  e = mahou_rt_take_error();
  EXPECT_STREQ(e.message, "p < 0, p > 1 or p is NaN");
  EXPECT_EQ(mahou_rt_np_seed(-1), 1);
  e = mahou_rt_take_error();
  EXPECT_STREQ(e.message, "Seed must be between 0 and 2**32 - 1");
}

} // namespace
