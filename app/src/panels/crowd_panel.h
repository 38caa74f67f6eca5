#pragma once
// Crowd panel: how many agents and from which seed (Spawn, Clear), the path
// solver's budget per frame and the walking speed, Pause; what the agents are
// doing, the requests and paths so far, and the solver's time per frame as
// last, mean and max with a plot of the recent frames.
#include <chrono>

#include "nav/crowd.h"

namespace nav::app {

class CrowdPanel {
 public:
  /// haveGraph: a graph is shown (Spawn places agents at once, not with the next build).
  void draw(Crowd& crowd, bool haveGraph);

  /// What --crowd asked for: the count Spawn uses.
  void setCount(uint32_t count);
  uint32_t count() const { return uint32_t(m_count); }
  uint64_t seed() const { return uint64_t(m_seed); }
  /// Solver time the crowd may spend per frame. [microseconds, >= 1]
  std::chrono::microseconds budget() const { return std::chrono::microseconds(m_budget); }
  bool paused() const { return m_paused; }

 private:
  int m_count = int(kDefaultCrowdAgents);
  int m_seed = 1;
  int m_budget = 1000;
  bool m_paused = false;
};

}  // namespace nav::app
