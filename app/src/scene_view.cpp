#include "scene_view.h"

namespace nav::app {
namespace {

struct LayerSpec {
  bool DrawOptions::*enabled;
  LayerStyle style;
};

// Drawing order and depth behaviour. Translucent layers do not write depth so
// the layers under them stay visible.
constexpr LayerSpec kLayerSpecs[] = {
    {&DrawOptions::levelMesh, {}},
    {&DrawOptions::cells, {.nudge = 0.01f}},
    {&DrawOptions::sectors, {.nudge = 0.02f, .depthWrite = false}},
    {&DrawOptions::searchRegions, {.nudge = 0.025f, .depthWrite = false}},
    // The corridor's own alpha is lost among the translucent sectors under it.
    {&DrawOptions::corridor, {.nudge = 0.03f, .depthWrite = false, .alphaScale = 1.4f}},
    {&DrawOptions::portals, {.nudge = 0.04f}},
    {&DrawOptions::searchTrace, {.nudge = 0.05f}},
    {&DrawOptions::devices, {.nudge = 0.05f}},
};

uint64_t combine(uint64_t a, uint64_t b) {
  return a * 1'000'003ull + b;
}

}  // namespace

SceneView::SceneView() {
  for (Retained& layer : m_layers)
    layer.batch = std::make_unique<GpuBatch>();
}

void SceneView::draw(Renderer& renderer, const SceneContent& content, const DrawOptions& options) {
  for (int layer = 0; layer < kLayerCount; ++layer) {
    const LayerSpec& spec = kLayerSpecs[layer];
    if (!(options.*spec.enabled)) continue;
    if (!refresh(Layer(layer), content, options)) continue;
    LayerStyle style = spec.style;
    if (layer == kMesh) style.cullBackFaces = !options.levelBackFaces;
    renderer.drawBatch(*m_layers[layer].batch, style);
  }
}

bool SceneView::refresh(Layer layer, const SceneContent& content, const DrawOptions& options) {
  const NavBuild* build = content.build;
  const PathAnswer* path = content.path;
  const bool hasPath =
      build != nullptr && path != nullptr && !path->search.corridor.sectors.empty();
  uint64_t key = 0;
  switch (layer) {
    case kMesh:
      if (content.level == nullptr) return false;
      key = content.levelRevision;
      break;
    case kCells:
      if (build == nullptr || !build->cells) return false;
      key = content.buildRevision;
      break;
    case kSectors:
      if (build == nullptr) return false;
      key = combine(content.buildRevision,
                    (options.sectorOutlines ? 1 : 0) + (options.sectorsBySurface ? 2 : 0));
      break;
    case kPortals:
    case kRegions:
      if (build == nullptr) return false;
      key = content.buildRevision;
      break;
    case kCorridor:
      if (!hasPath) return false;
      key = combine(content.buildRevision, content.pathRevision);
      break;
    case kSearchTrace:
      if (build == nullptr || path == nullptr || path->trace.events.empty() ||
          content.searchStepping)
        return false;
      key = combine(content.buildRevision, content.pathRevision);
      break;
    case kDevices:
      if (build == nullptr) return false;
      key = content.buildRevision;
      break;
    case kLayerCount:
      return false;
  }
  Retained& retained = m_layers[layer];
  if (retained.key == key) return true;
  m_scratch.clear();
  switch (layer) {
    case kMesh:
      drawLevelMesh(m_scratch, *content.level);
      break;
    case kCells:
      drawCells(m_scratch, *build->cells, build->overhangingCells);
      break;
    case kSectors:
      drawSectors(m_scratch, build->graph, options.sectorOutlines, options.sectorsBySurface);
      break;
    case kPortals:
      m_scratch.setLineWidth(2.0f);
      drawPortals(m_scratch, build->graph);
      break;
    case kRegions:
      m_scratch.setLineWidth(3.0f);
      drawSearchRegions(m_scratch, build->graph);
      break;
    case kCorridor:
      m_scratch.setLineWidth(2.0f);
      drawCorridor(m_scratch, build->graph, path->search.corridor);
      drawLeftOutSectors(m_scratch, build->graph, path->sectorsLeftOut);
      break;
    case kSearchTrace:
      m_scratch.setLineWidth(2.0f);
      drawSearchTrace(m_scratch, path->trace);
      break;
    case kDevices:
      m_scratch.setLineWidth(2.0f);
      drawDevicesAndWaypaths(m_scratch, build->graph);
      break;
    case kLayerCount:
      break;
  }
  retained.batch->upload(m_scratch, GL_STATIC_DRAW);
  retained.key = key;
  return true;
}

}  // namespace nav::app
