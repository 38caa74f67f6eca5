#pragma once
// Shared between a build running on a worker thread and whoever watches it:
// progress to show, and a flag to cancel.
#include <atomic>
#include <cstdint>

namespace nav {

enum class BuildStage : int { Idle, FloodFill, Compress, Done };

struct BuildControl {
  std::atomic<bool> cancelRequested{false};
  std::atomic<BuildStage> stage{BuildStage::Idle};
  /// Cells found so far.
  std::atomic<uint64_t> cellsFound{0};
  /// The fill's estimate of its total (walkable surface area over the cell area).
  std::atomic<uint64_t> estimatedCells{0};
  /// How much of the current stage is done. [0, 1]
  std::atomic<float> stageFraction{0.0f};
};

}  // namespace nav
