#pragma once
// What one step of a search over the graph ended in: the sector A*
// (portal_search.h), the search over regions (region_search.h) and the
// exact search (interval_search.h) all answer in these words.
#include <cstdint>

namespace nav {

enum class SearchStep : uint8_t {
  Searching,  ///< A node was expanded: step again.
  Reached,    ///< The goal was popped: the search holds the answer.
  NoWay,      ///< Every node that can be reached was expanded: the goal cannot be.
  Exhausted,  ///< maxExpansions were spent: a safety limit, not an answer.
};

}  // namespace nav
