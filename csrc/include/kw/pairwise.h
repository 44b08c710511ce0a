// Pairwise folding of a long sequence for the CPU kernels: blocks of kBlock values are folded in
// order and the block states merged pairwise (a binary counter of partial states), so rounding
// error grows with log(n), not n: a million-long row in fp32 stays within a few ulps.
#pragma once

#include <algorithm>
#include <cstdint>

namespace kw {

// S: a state with empty() and merge(); add(r, st) folds element r into st.
template <typename S, typename Add>
S pairwise_fold(int64_t n, Add&& add) {
  constexpr int kBlock = 64;
  constexpr int kLevels = 64;
  S level[kLevels];
  bool used[kLevels] = {};
  for (int64_t begin = 0; begin < n; begin += kBlock) {
    S st = S::empty();
    const int64_t end = std::min<int64_t>(begin + kBlock, n);
    for (int64_t r = begin; r < end; ++r) add(r, st);
    int l = 0;
    for (; used[l]; ++l) {
      st.merge(level[l]);
      used[l] = false;
    }
    level[l] = st;
    used[l] = true;
  }
  S total = S::empty();
  for (int l = 0; l < kLevels; ++l)
    if (used[l]) total.merge(level[l]);
  return total;
}

}  // namespace kw
