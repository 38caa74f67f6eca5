#pragma once
// Funnel panel: steps through the string pulling one event at a time (Prev,
// Next, Play, a slider), naming the event and the apex/left/right portals.
#include <cstdint>
#include <optional>
#include <vector>

#include "path_tool.h"

namespace nav::app {

class FunnelPanel {
 public:
  /// Follows a new path (back to the first step) and advances while playing.
  void update(const PathAnswer* solution, uint64_t pathRevision, double now);
  void draw(const PathAnswer* solution, double now);
  /// Arrow keys step, Space plays or pauses. keys: GLFW key codes pressed this frame.
  void handleKeys(const std::vector<int>& keys, const PathAnswer* solution, double now);
  /// The step to draw; empty when there is no recorded funnel.
  std::optional<size_t> currentStep(const PathAnswer* solution) const;
  bool playing() const { return m_playing; }

 private:
  void step(const PathAnswer* solution, int delta);
  void togglePlay(const PathAnswer* solution, double now);

  size_t m_step = 0;
  bool m_playing = false;
  double m_lastAdvance = 0.0;
  uint64_t m_revision = ~0ull;
};

}  // namespace nav::app
