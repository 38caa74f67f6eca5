#pragma once
// The retained part of the picture: level mesh, cells, sectors, portals, and
// the current path's corridor and search trace. Each layer is recorded through
// the shared nav_draw.h functions into its own GPU batch, only when what it
// shows changed (or when it is first switched on), and drawn every frame.
#include <array>
#include <cstdint>
#include <memory>

#include "gpu_batch.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_draw.h"
#include "path_tool.h"
#include "renderer.h"

namespace nav::app {

/// What the scene shows, with a revision per source so layers know when to re-record.
struct SceneContent {
  const Level* level = nullptr;
  uint64_t levelRevision = 0;
  const NavBuild* build = nullptr;
  uint64_t buildRevision = 0;
  const PathAnswer* path = nullptr;
  uint64_t pathRevision = 0;
  /// The search is being stepped through: its whole trace is not drawn.
  bool searchStepping = false;
};

class SceneView {
 public:
  /// Needs a current GL context.
  SceneView();

  void draw(Renderer& renderer, const SceneContent& content, const DrawOptions& options);

 private:
  enum Layer {
    kMesh,
    kCells,
    kSectors,
    kRegions,
    kCorridor,
    kPortals,
    kSearchTrace,
    kDevices,
    kLayerCount
  };

  struct Retained {
    std::unique_ptr<GpuBatch> batch;
    /// What the batch was recorded from; re-recorded when the key changes.
    uint64_t key = ~0ull;
  };

  /// Records the layer into its batch if its key changed; false when it has nothing to show.
  bool refresh(Layer layer, const SceneContent& content, const DrawOptions& options);

  std::array<Retained, kLayerCount> m_layers;
  DrawList m_scratch;
};

}  // namespace nav::app
