// Unit tests of the memory spans a kernel launch checks before it runs the noalias form
// of a kernel (cpp/lib/cuda/memory_spans.cpp): strided, reversed and empty arrays, and
// the pairwise and sorted overlap tests.
#include "mahou/memory_spans.h"

#include <gtest/gtest.h>

#include <vector>

namespace cu = mahou::cuda;

TEST(MemorySpans, ContiguousAndStrided) {
  int64_t shape[] = {4, 3}, strides[] = {24, 8};
  cu::MemorySpan s = cu::stridedSpan(1000, 2, shape, strides, 8);
  EXPECT_EQ(s.lo, 1000u);
  EXPECT_EQ(s.hi, 1096u);
  int64_t every2[] = {16}; // a[::2] of 8 float64: items at 0, 16, 32, 48
  int64_t four[] = {4};
  s = cu::stridedSpan(1000, 1, four, every2, 8);
  EXPECT_EQ(s.hi, 1056u);
}

TEST(MemorySpans, NegativeStridesReachBelowData) {
  int64_t shape[] = {5}, strides[] = {-8}; // a[::-1]: data points at the last item
  cu::MemorySpan s = cu::stridedSpan(1032, 1, shape, strides, 8);
  EXPECT_EQ(s.lo, 1000u);
  EXPECT_EQ(s.hi, 1040u);
}

TEST(MemorySpans, EmptyArraysOverlapNothing) {
  int64_t shape[] = {3, 0}, strides[] = {8, 8};
  cu::MemorySpan e = cu::stridedSpan(1000, 2, shape, strides, 8);
  EXPECT_TRUE(e.empty());
  cu::MemorySpan spans[] = {e, {1000, 1024}};
  EXPECT_FALSE(cu::anyOverlap(spans, 2));
}

TEST(MemorySpans, OverlapPairwise) {
  cu::MemorySpan apart[] = {{0, 100}, {100, 200}, {300, 301}};
  EXPECT_FALSE(cu::anyOverlap(apart, 3));
  cu::MemorySpan sharing[] = {{0, 100}, {200, 300}, {99, 150}};
  EXPECT_TRUE(cu::anyOverlap(sharing, 3));
  cu::MemorySpan same[] = {{0, 8}, {0, 8}}; // one array passed twice
  EXPECT_TRUE(cu::anyOverlap(same, 2));
}

TEST(MemorySpans, OverlapSortedForManyArrays) {
  std::vector<cu::MemorySpan> spans;
  for (uint64_t i = 0; i < 40; ++i)
    spans.push_back({1000 + 100 * i, 1000 + 100 * i + 100});
  EXPECT_FALSE(cu::anyOverlap(spans.data(), spans.size()));
  spans.push_back({0, 5000}); // one wide span over all: not next to its neighbour only
  EXPECT_TRUE(cu::anyOverlap(spans.data(), spans.size()));
  spans.pop_back();
  spans.push_back({1, 2});
  spans.push_back({0, 1200}); // overlaps an earlier span that is not the previous one
  EXPECT_TRUE(cu::anyOverlap(spans.data(), spans.size()));
}
