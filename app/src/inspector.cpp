#include "inspector.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "jump_tool.h"
#include "nav/islands.h"
#include "nav/locate.h"
#include "nav/query_filter.h"

namespace nav::app {
namespace {

/// A line drawn within this of the mouse is under it. [pixels]
constexpr float kNearPixels = 6.0f;
/// How far the mouse ray looks. [metres]
constexpr float kRayReach = 1.0e5f;

std::string format(const char* pattern, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

// Thousands with commas, as areas read best ("1,200").
std::string wholeNumber(float value) {
  const long long whole = std::llround(value);
  const std::string digits = std::to_string(whole < 0 ? -whole : whole);
  std::string text = whole < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

// Pixels from `p` to the window-space segment between two projected points;
// infinity when either end is behind the eye.
float pixelsToSegment(const FrameView& view, const glm::vec3& a, const glm::vec3& b, glm::vec2 p) {
  const std::optional<glm::vec2> pa = view.project(a), pb = view.project(b);
  if (!pa || !pb) return INFINITY;
  const glm::vec2 along = *pb - *pa;
  const float squared = glm::dot(along, along);
  const float t =
      squared > 0.0f ? std::clamp(glm::dot(p - *pa, along) / squared, 0.0f, 1.0f) : 0.0f;
  return glm::distance(p, *pa + t * along);
}

std::vector<std::string> describeStretch(const PathAnswer& path, size_t k) {
  const glm::vec3& a = path.funnel.corners[k];
  const glm::vec3& b = path.funnel.corners[k + 1];
  std::vector<std::string> lines{format("stretch %zu of %zu: %.2f m", k + 1,
                                        path.funnel.corners.size() - 1,
                                        double(glm::distance(a, b)))};
  if (k < path.clearance.size()) {
    const StretchClearance& clearance = path.clearance[k];
    if (!clearance.walked) {
      lines.push_back("not walked: a device, a jump or a fall");
    } else if (clearance.depth > 0.0f) {
      lines.push_back(
          format("the unit touches the level, %.1f cm deep", double(clearance.depth) * 100.0));
    } else {
      lines.push_back("the unit keeps clear of the level");
    }
  }
  return lines;
}

// Points are shown in the level file's coordinates (the graph's grid turned back).
std::vector<std::string> describePortal(const NavGraph& graph, uint32_t p) {
  const Portal& portal = graph.portals[p];
  const glm::vec3 a = graph.gridFrame.toFile(portal.left);
  const glm::vec3 b = graph.gridFrame.toFile(portal.right);
  std::vector<std::string> lines{
      format("portal %u: sector %u -> %u, %s", p, portal.fromSector, portal.toSector,
             portal.oneWay() ? "one-way" : "two-way"),
      format("ends %.2f %.2f %.2f and %.2f %.2f %.2f, %.2f m wide", double(a.x), double(a.y),
             double(a.z), double(b.x), double(b.y), double(b.z),
             double(glm::distance(portal.left, portal.right)))};
  if (portal.kind == PortalKind::Device && portal.link < graph.deviceLinks.size()) {
    const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
    lines.push_back(format("%s '%s'%s%s", toString(device.kind), device.id.c_str(),
                           device.locked ? ", locked: key " : "",
                           device.locked ? device.key.c_str() : ""));
  } else if (portal.kind == PortalKind::Waypath) {
    lines.push_back("onto or off a waypath");
  }
  if (portal.kind == PortalKind::Walk && portalEndIndex(p, true) < graph.reach.size()) {
    for (const bool left : {true, false}) {
      const PortalEndReach& reach = graph.reach[portalEndIndex(p, left)];
      if (reach.reaches()) {
        const glm::vec3 out = graph.gridFrame.toFile(reach.point);
        lines.push_back(format("%s end may move out to %.2f %.2f %.2f", left ? "left" : "right",
                               double(out.x), double(out.y), double(out.z)));
      }
    }
  }
  return lines;
}

std::vector<std::string> describeSector(const NavGraph& graph, const std::vector<float>& areas,
                                        uint32_t s, const QueryFilter& filter) {
  const Sector& sector = graph.sectors[s];
  const SurfaceSpec& surface = graph.surfaces[sector.surface];
  const auto costed = filter.surfaceCosts.find(surface.name);
  const float cost = costed != filter.surfaceCosts.end() ? costed->second : surface.cost;
  const glm::vec3 size = sector.bounds.size();
  std::vector<std::string> lines{
      sector.polygonal()
          ? format("sector %u: a polygon of %u corners, %.1f m2", s, sector.cornerCount,
                   double(graph.groundArea(sector)))
          : format("sector %u: %.1f x %.1f m, %s", s, double(size.x), double(size.z),
                   sector.kind == SectorKind::Waypath ? "a waypath" : "ground"),
      format("surface %s, cost %.2f a metre", surface.name.c_str(), double(cost)),
      format("heights %.2f to %.2f m, %u portals out", double(sector.bounds.min.y),
             double(sector.bounds.max.y), sector.portalCount)};
  if (!graph.islands.empty()) {
    const uint32_t island = graph.islands.of(s);
    lines.push_back(format("island %u of %u, %s m2", island + 1, graph.islands.count(),
                           wholeNumber(areas[island]).c_str()));
  }
  return lines;
}

std::vector<std::string> describeJump(const JumpPortal& jump, const GridFrame& frame) {
  const glm::vec3 a = frame.toFile(jump.spec.takeoff);
  const glm::vec3 b = frame.toFile(jump.spec.landing);
  return {format("jump %u: %.2f %.2f %.2f -> %.2f %.2f %.2f", jump.id, double(a.x), double(a.y),
                 double(a.z), double(b.x), double(b.y), double(b.z)),
          format("heading %.0f deg, %.1f m/s for %.2f s in the air, %.2f m over the ground",
                 double(fileHeadingDegrees(jump.spec.heading, frame)), double(jump.spec.speed),
                 double(jump.spec.airTime), double(glm::length(groundOf(b) - groundOf(a))))};
}

// The cell whose ground lies within a step of `point`, in point's column.
std::vector<std::string> describeCell(const NavBuild& build, const glm::vec3& point,
                                      const LoadedLevel* level) {
  const CellGrid& cells = *build.cells;
  const float step = build.graph.unit.stepHeight;
  const glm::ivec2 column = cells.columnOf(point);
  const uint32_t c = cells.findInColumn(column.x, column.y, point.y - step, point.y + step);
  if (c == kNoCell) return {};
  const Cell cell = cells[c];
  static constexpr const char* kDirectionNames[kDirectionCount] = {"+x", "+z", "-x", "-z"};
  std::string steps, falls;
  for (int d = 0; d < kDirectionCount; ++d) {
    if (cell.canStep(Direction(d)))
      steps += std::string(steps.empty() ? "" : " ") + kDirectionNames[d];
    if (const FallLink* fall = cells.fallFrom(c, Direction(d))) {
      falls += format("%s%s over %u columns", falls.empty() ? "" : ", ", kDirectionNames[d],
                      unsigned(fall->columns));
    }
  }
  std::vector<std::string> lines{
      format("cell %u: column %d, %d, ground at %.2f m", c, cell.x, cell.z, double(cell.y)),
      "steps to " + (steps.empty() ? std::string("nowhere") : steps)};
  if (!falls.empty()) lines.push_back("falls " + falls);
  if (level != nullptr && cell.material < level->level.materials.size()) {
    const std::string& material = level->level.materials[cell.material];
    lines.push_back("material " + (material.empty() ? std::string("(default)") : material));
  }
  if (c < build.overhangingCells.size() && build.overhangingCells[c])
    lines.push_back("its footprint hangs over a ledge");
  if (c < build.cellSectors.size() && build.cellSectors[c] != kNoSector)
    lines.push_back(format("in sector %u", build.cellSectors[c]));
  return lines;
}

}  // namespace

std::string islandNote(const NavGraph& graph, const std::vector<float>& areas,
                       const glm::vec3& start, const glm::vec3& goal) {
  if (graph.islands.empty()) return {};
  const uint32_t from = locateSector(graph, start).sector, to = locateSector(graph, goal).sector;
  if (from == kNoSector || to == kNoSector) return {};
  const uint32_t startIsland = graph.islands.of(from), goalIsland = graph.islands.of(to);
  if (startIsland == goalIsland) return {};
  return "start is on an island of " + wholeNumber(areas[startIsland]) +
         " m2; the goal's island is " + wholeNumber(areas[goalIsland]) + " m2";
}

void Inspector::noteBuild(const NavGraph& graph, uint64_t buildRevision) {
  if (buildRevision == m_areasRevision) return;
  m_areasRevision = buildRevision;
  m_islandAreas = islandAreas(graph);
  m_selected.reset();
  m_selectionNote.clear();
}

void Inspector::hover(const FrameView& view, const Scene& scene) {
  m_description.clear();
  if (scene.build == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  noteBuild(scene.build->graph, scene.buildRevision);
  const ImVec2 mouseAt = ImGui::GetMousePos();
  const glm::vec2 mouse(mouseAt.x, mouseAt.y);
  m_mouse = mouse;
  const Looked now{mouse,
                   view.view,
                   view.projection,
                   scene.buildRevision,
                   scene.pathRevision,
                   scene.jumps,
                   scene.jumps ? scene.jumps->jumps().size() : 0,
                   scene.cellsShown};
  // A ray cast and a locate each frame only when something moved.
  if (!(now == m_looked)) {
    m_looked = now;
    m_lines = describe(view, scene, mouse);
  }
  if (m_lines.empty()) return;
  ImGui::BeginTooltip();
  for (const std::string& line : m_lines) {
    ImGui::TextUnformatted(line.c_str());
    if (!m_description.empty()) m_description += "; ";
    m_description += line;
  }
  ImGui::EndTooltip();
}

std::vector<std::string> Inspector::describe(const FrameView& view, const Scene& scene,
                                             glm::vec2 mouse) {
  const NavBuild& build = *scene.build;
  const NavGraph& graph = build.graph;
  if (scene.path != nullptr) {
    const std::vector<glm::vec3>& corners = scene.path->funnel.corners;
    for (size_t k = 0; k + 1 < corners.size(); ++k) {
      if (pixelsToSegment(view, corners[k], corners[k + 1], mouse) <= kNearPixels)
        return describeStretch(*scene.path, k);
    }
  }
  if (scene.jumps != nullptr) {
    for (const JumpPortal& jump : scene.jumps->jumps()) {
      if (pixelsToSegment(view, jump.spec.takeoff, jump.spec.landing, mouse) <= kNearPixels)
        return describeJump(jump, graph.gridFrame);
    }
  }
  const Ray ray = view.rayThrough(mouse);
  const std::optional<RayHit> hit =
      scene.level ? scene.level->world.raycast(ray.origin, ray.direction, kRayReach)
                  : raycastSectors(graph, ray, kRayReach);
  const uint32_t s = hit ? locateSector(graph, hit->point).sector : kNoSector;
  std::vector<std::string> lines;
  if (s != kNoSector) {
    const Sector& sector = graph.sectors[s];
    float nearest = kNearPixels;
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
      const float pixels =
          pixelsToSegment(view, graph.portals[p].left, graph.portals[p].right, mouse);
      if (pixels <= nearest) {
        nearest = pixels;
        lines = describePortal(graph, p);
      }
    }
  }
  if (lines.empty() && hit && scene.cellsShown && build.cells)
    lines = describeCell(build, hit->point, scene.level);
  if (lines.empty() && s != kNoSector)
    lines = describeSector(graph, m_islandAreas, s, scene.filter ? *scene.filter : QueryFilter{});
  return lines;
}

void Inspector::select(const NavBuild* build, uint64_t buildRevision,
                       const std::optional<glm::vec3>& point) {
  if (build != nullptr) noteBuild(build->graph, buildRevision);
  const std::optional<uint32_t> before = m_selected;
  m_selected.reset();
  m_selectionNote.clear();
  if (build == nullptr || !point) return;
  const NavGraph& graph = build->graph;
  const uint32_t s = locateSector(graph, *point).sector;
  // Clicking the selected sector again clears the selection.
  if (s == kNoSector || before == s) return;
  m_selected = s;
  m_selectionNote = format("sector %u", s);
  if (!graph.islands.empty()) {
    const uint32_t island = graph.islands.of(s);
    m_selectionNote += format(": island %u of %u, %s m2", island + 1, graph.islands.count(),
                              wholeNumber(m_islandAreas[island]).c_str());
  }
}

void Inspector::drawSelection(DebugDraw& draw, const NavGraph& graph) const {
  if (!m_selected || *m_selected >= graph.sectors.size()) return;
  // Just above the sectors' own fill and outlines.
  const glm::vec3 lift(0.0f, 0.04f, 0.0f);
  const auto corners = [&](const Sector& sector) {
    const Aabb& b = sector.bounds;
    const auto at = [&](float x, float z) {
      return glm::vec3(x, graph.heightAt(sector, x, z), z) + lift;
    };
    return std::array<glm::vec3, 4>{at(b.min.x, b.min.z), at(b.max.x, b.min.z),
                                    at(b.max.x, b.max.z), at(b.min.x, b.max.z)};
  };
  if (!graph.islands.empty()) {
    const uint32_t island = graph.islands.of(*m_selected);
    for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
      if (graph.sectors[s].kind != SectorKind::Ground || graph.islands.of(s) != island) continue;
      const std::array<glm::vec3, 4> c = corners(graph.sectors[s]);
      draw.triangle(c[0], c[2], c[1], kIslandTint);
      draw.triangle(c[0], c[3], c[2], kIslandTint);
    }
  }
  const std::array<glm::vec3, 4> c = corners(graph.sectors[*m_selected]);
  for (int k = 0; k < 4; ++k)
    draw.line(c[size_t(k)], c[size_t((k + 1) % 4)], kSelectionColor);
}

}  // namespace nav::app
