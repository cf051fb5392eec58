// Where compiled code finds the fields of np.random's per-thread MT19937 state
// (runtime/random_state.h) for the draws codegen emits inline (random_inline.cpp).
#pragma once

namespace mahou::random::state_layout {
constexpr int kWords = 624;          // uint32_t key[624] at offset 0
constexpr unsigned kPos = 2496;      // int pos: the next word of key (kWords: refill first)
constexpr unsigned kHasGauss = 2501; // bool hasGauss: the polar method's second value is cached
constexpr unsigned kGauss = 2504;    // double gauss: that value
} // namespace mahou::random::state_layout
