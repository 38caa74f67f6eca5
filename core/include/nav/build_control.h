#pragma once
// Shared between a build running on a worker thread and whoever watches it:
// progress to show, and a flag to cancel.
#include <atomic>

namespace nav {

enum class BuildStage : int { Idle, FloodFill, Compress, Done };

struct BuildControl {
  std::atomic<bool> cancelRequested{false};
  std::atomic<BuildStage> stage{BuildStage::Idle};
  /// Cells found so far (the fill cannot know its total in advance).
  std::atomic<uint64_t> cellsFound{0};
};

}  // namespace nav
