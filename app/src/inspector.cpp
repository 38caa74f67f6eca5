#include "inspector.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

std::vector<std::string> describePortal(const NavGraph& graph, uint32_t p) {
  const Portal& portal = graph.portals[p];
  std::vector<std::string> lines{
      format("portal %u: sector %u -> %u, %s", p, portal.fromSector, portal.toSector,
             portal.oneWay() ? "one-way" : "two-way"),
      format("ends %.2f %.2f %.2f and %.2f %.2f %.2f, %.2f m wide", double(portal.left.x),
             double(portal.left.y), double(portal.left.z), double(portal.right.x),
             double(portal.right.y), double(portal.right.z),
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
        lines.push_back(format("%s end may move out to %.2f %.2f %.2f", left ? "left" : "right",
                               double(reach.point.x), double(reach.point.y),
                               double(reach.point.z)));
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
      format("sector %u: %.1f x %.1f m, %s", s, double(size.x), double(size.z),
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

void Inspector::hover(const FrameView& view, const NavBuild* build, uint64_t buildRevision,
                      const PathAnswer* path, const LoadedLevel* level, const QueryFilter& filter) {
  m_description.clear();
  if (build == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  const NavGraph& graph = build->graph;
  if (buildRevision != m_areasRevision) {
    m_areasRevision = buildRevision;
    m_islandAreas = islandAreas(graph);
  }
  const ImVec2 mouseAt = ImGui::GetMousePos();
  const glm::vec2 mouse(mouseAt.x, mouseAt.y);
  m_mouse = mouse;
  std::vector<std::string> lines;
  if (path != nullptr) {
    const std::vector<glm::vec3>& corners = path->funnel.corners;
    for (size_t k = 0; k + 1 < corners.size() && lines.empty(); ++k) {
      if (pixelsToSegment(view, corners[k], corners[k + 1], mouse) <= kNearPixels)
        lines = describeStretch(*path, k);
    }
  }
  if (lines.empty()) {
    const Ray ray = view.rayThrough(mouse);
    const std::optional<RayHit> hit =
        level ? level->world.raycast(ray.origin, ray.direction, kRayReach)
              : raycastSectors(graph, ray, kRayReach);
    const uint32_t s = hit ? locateSector(graph, hit->point).sector : kNoSector;
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
      if (lines.empty()) lines = describeSector(graph, m_islandAreas, s, filter);
    }
  }
  if (lines.empty()) return;
  ImGui::BeginTooltip();
  for (const std::string& line : lines) {
    ImGui::TextUnformatted(line.c_str());
    if (!m_description.empty()) m_description += "; ";
    m_description += line;
  }
  ImGui::EndTooltip();
}

}  // namespace nav::app
