#include "nav/nav_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/constants.hpp>
#include <numbers>
#include <string>

namespace nav {
namespace {

// Everything navigational floats a little above the ground it describes so it
// does not z-fight with the level mesh.
constexpr float kCellLift = 0.03f;
constexpr float kSectorLift = 0.05f;
constexpr float kPortalLift = 0.08f;
constexpr float kPathLift = 0.12f;

Color scaled(Color c, float factor) {
  auto channel = [factor](uint8_t v) {
    return uint8_t(std::clamp(float(v) * factor, 0.0f, 255.0f));
  };
  return {channel(c.r), channel(c.g), channel(c.b), c.a};
}

// A stable, well-spread colour per integer (golden-ratio hue walk).
Color paletteColor(uint32_t i, uint8_t alpha) {
  const float hue = std::fmod(float(i) * 0.618034f, 1.0f) * 6.0f;
  const float x = 1.0f - std::abs(std::fmod(hue, 2.0f) - 1.0f);
  glm::vec3 rgb = hue < 1   ? glm::vec3(1, x, 0)
                  : hue < 2 ? glm::vec3(x, 1, 0)
                  : hue < 3 ? glm::vec3(0, 1, x)
                  : hue < 4 ? glm::vec3(0, x, 1)
                  : hue < 5 ? glm::vec3(x, 0, 1)
                            : glm::vec3(1, 0, x);
  rgb = glm::mix(glm::vec3(1.0f), rgb, 0.55f) * 235.0f;  // pastel
  return {uint8_t(rgb.r), uint8_t(rgb.g), uint8_t(rgb.b), alpha};
}

glm::vec3 lifted(const glm::vec3& p, float lift) {
  return {p.x, p.y + lift, p.z};
}

// Pieces a sector's ground is drawn in along x and z: one for a planar sector,
// else one per cell, up to 16 a side.
glm::ivec2 surfacePieces(const Sector& sector) {
  if (sector.firstHeight == kNoHeights) return {1, 1};
  const glm::ivec2 cells = sector.lastColumn - sector.firstColumn + 1;
  return glm::min(cells, glm::ivec2(16));
}

// A point of the sector's ground at fraction (u, v) across its box, lifted.
glm::vec3 groundPoint(const NavGraph& graph, const Sector& sector, float u, float v, float lift) {
  const Aabb& b = sector.bounds;
  const float x = glm::mix(b.min.x, b.max.x, u), z = glm::mix(b.min.z, b.max.z, v);
  return {x, graph.heightAt(sector, x, z) + lift, z};
}

void sectorQuad(DebugDraw& draw, const NavGraph& graph, const Sector& sector, float lift,
                Color color) {
  if (sector.polygonal()) {
    const std::span<const glm::vec3> corners = graph.cornersOf(sector);
    for (size_t k = 1; k + 1 < corners.size(); ++k)
      draw.triangle(lifted(corners[0], lift), lifted(corners[k], lift),
                    lifted(corners[k + 1], lift), color);
    return;
  }
  const glm::ivec2 pieces = surfacePieces(sector);
  for (int j = 0; j < pieces.y; ++j) {
    for (int i = 0; i < pieces.x; ++i) {
      const auto at = [&](int a, int c) {
        return groundPoint(graph, sector, float(a) / float(pieces.x), float(c) / float(pieces.y),
                           lift);
      };
      const glm::vec3 p0 = at(i, j), p1 = at(i, j + 1), p2 = at(i + 1, j + 1), p3 = at(i + 1, j);
      draw.triangle(p0, p1, p2, color);
      draw.triangle(p0, p2, p3, color);
    }
  }
}

void arrow(DebugDraw& draw, const glm::vec3& from, const glm::vec3& to, float headSize,
           Color color) {
  draw.line(from, to, color);
  glm::vec3 dir = to - from;
  dir.y = 0.0f;
  const float length = glm::length(dir);
  if (length <= 0.0f) return;
  dir /= length;
  const glm::vec3 side(-dir.z, 0.0f, dir.x);
  draw.line(to, to - dir * headSize + side * headSize * 0.6f, color);
  draw.line(to, to - dir * headSize - side * headSize * 0.6f, color);
}

}  // namespace

void drawLevelMesh(DebugDraw& draw, const Level& level) {
  const glm::vec3 light = glm::normalize(glm::vec3(0.4f, 1.0f, 0.25f));
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
    const glm::vec3 n = glm::cross(b - a, c - a);
    const float length = glm::length(n);
    if (!(length > 0.0f)) continue;
    // Lit alike from either side: its back shows when DrawOptions::levelBackFaces asks.
    const float lambert = std::abs(glm::dot(n / length, light));
    const Color tint = scaled(paletteColor(level.triangles[t].material, 255), 0.25f);
    Color base = colors::kMesh;
    base = {uint8_t(base.r * 3 / 4 + tint.r), uint8_t(base.g * 3 / 4 + tint.g),
            uint8_t(base.b * 3 / 4 + tint.b), 255};
    draw.triangle(a, b, c, scaled(base, 0.45f + 0.55f * lambert));
  }
}

void drawCells(DebugDraw& draw, const CellGrid& cells, const std::vector<bool>& overhanging) {
  const float half = cells.cellSize() * 0.4f;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    const glm::vec3 c = lifted(cells.center(i), kCellLift);
    const glm::vec3 p0{c.x - half, c.y, c.z - half}, p1{c.x - half, c.y, c.z + half};
    const glm::vec3 p2{c.x + half, c.y, c.z + half}, p3{c.x + half, c.y, c.z - half};
    const Color color =
        i < overhanging.size() && overhanging[i] ? colors::kOverhangingCell : colors::kCell;
    draw.triangle(p0, p1, p2, color);
    draw.triangle(p0, p2, p3, color);
    // One-way links only: two-way links are implied by adjacency and would clutter.
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = cells.neighbor(i, Direction(d));
      if (next == kNoCell) continue;
      if (cells[next].canStep(opposite(Direction(d)))) continue;
      arrow(draw, c, lifted(cells.center(next), kCellLift), cells.cellSize() * 0.3f,
            colors::kOneWayPortal);
    }
  }
  for (const FallLink& fall : cells.falls()) {
    arrow(draw, lifted(cells.center(fall.from), kCellLift),
          lifted(cells.center(fall.to), kCellLift), cells.cellSize() * 0.3f, colors::kOneWayPortal);
  }
}

Color surfaceColor(const NavGraph& graph, uint16_t surface) {
  const std::string& name = surface < graph.surfaces.size() ? graph.surfaces[surface].name : "";
  if (name == "default") return {150, 190, 215, 150};
  if (name == "sidewalk") return {205, 200, 190, 150};
  if (name == "road") return {95, 100, 120, 170};
  if (name == "grass") return {110, 200, 90, 150};
  if (name == "water") return {60, 130, 230, 150};
  if (name == "lava") return {255, 90, 20, 180};
  return paletteColor(surface, 150);
}

void drawSectors(DebugDraw& draw, const NavGraph& graph, bool outlines, bool bySurface) {
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    // The air a fall crosses, at the ledge's height.
    if (sector.kind == SectorKind::Fall)
      sectorQuad(draw, graph, sector, kSectorLift, colors::kFall);
    if (sector.kind != SectorKind::Ground) continue;
    // Neighbours on one surface stay apart by shade: a few steps of brightness by index.
    const Color color = bySurface ? scaled(surfaceColor(graph, sector.surface),
                                           0.82f + 0.09f * float((s * 7u) % 5u))
                                  : paletteColor(s, 150);
    sectorQuad(draw, graph, sector, kSectorLift, color);
    if (!outlines) continue;
    if (sector.polygonal()) {
      const std::span<const glm::vec3> corners = graph.cornersOf(sector);
      for (size_t k = 0; k < corners.size(); ++k)
        draw.line(lifted(corners[k], kSectorLift + 0.005f),
                  lifted(corners[(k + 1) % corners.size()], kSectorLift + 0.005f),
                  colors::kSectorOutline);
      continue;
    }
    // Round the box's edge, through the ground: (u, v) from corner to corner.
    const glm::ivec2 pieces = surfacePieces(sector);
    const glm::vec2 corners[5] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (int edge = 0; edge < 4; ++edge) {
      const glm::vec2 from = corners[edge], to = corners[edge + 1];
      const int steps = from.x == to.x ? pieces.y : pieces.x;
      for (int k = 0; k < steps; ++k) {
        const glm::vec2 a = glm::mix(from, to, float(k) / float(steps));
        const glm::vec2 c = glm::mix(from, to, float(k + 1) / float(steps));
        draw.line(groundPoint(graph, sector, a.x, a.y, kSectorLift + 0.005f),
                  groundPoint(graph, sector, c.x, c.y, kSectorLift + 0.005f),
                  colors::kSectorOutline);
      }
    }
  }
}

void drawSearchRegions(DebugDraw& draw, const NavGraph& graph) {
  const SearchRegions& regions = graph.regions;
  if (regions.empty()) return;
  for (uint32_t r = 0; r < regions.count(); ++r) {
    for (uint32_t s : regions.sectors(r)) {
      const Sector& sector = graph.sectors[s];
      if (sector.kind == SectorKind::Ground)
        sectorQuad(draw, graph, sector, kSectorLift, paletteColor(r, 170));
    }
  }
  for (const RegionPortal& portal : regions.portals()) {
    if (graph.portals[regions.members(portal)[0]].kind != PortalKind::Walk) continue;
    draw.line(lifted(portal.left, kPortalLift), lifted(portal.right, kPortalLift),
              colors::kRegionPortal);
  }
}

Color deviceColor(const DeviceSpec& device) {
  if (device.locked) return colors::kLocked;
  switch (device.kind) {
    case DeviceKind::Door:
      return colors::kDoor;
    case DeviceKind::Elevator:
      return colors::kElevator;
    case DeviceKind::Ladder:
      return colors::kLadder;
  }
  return colors::kDoor;
}

void drawPortals(DebugDraw& draw, const NavGraph& graph) {
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind == PortalKind::Waypath) continue;  // drawn with their waypath
    if (portal.kind == PortalKind::Device) {
      // An arc from where the device is used to where it lets out.
      const DeviceLink& link = graph.deviceLinks[portal.link];
      const Color color = deviceColor(graph.devices[link.device]);
      const glm::vec3 a = lifted(link.entryPoint, kPortalLift),
                      b = lifted(link.exitPoint, kPortalLift);
      const float rise = 0.5f + 0.25f * glm::distance(a, b);
      constexpr int kSegments = 12;
      glm::vec3 previous = a;
      for (int i = 1; i <= kSegments; ++i) {
        const float t = float(i) / kSegments;
        const glm::vec3 at =
            glm::mix(a, b, t) + glm::vec3(0.0f, rise * 4.0f * t * (1.0f - t), 0.0f);
        if (i == kSegments) {
          arrow(draw, previous, at, graph.cellSize * 0.6f, color);
        } else {
          draw.line(previous, at, color);
        }
        previous = at;
      }
      draw.point(a, 6.0f, color);
      continue;
    }
    const glm::vec3 left = lifted(portal.left, kPortalLift);
    const glm::vec3 right = lifted(portal.right, kPortalLift);
    if (!portal.oneWay()) {
      draw.line(left, right, colors::kPortal);
      // How far a path may move each end out (corner_reach.h); once per pair.
      if (p > portal.reverse || graph.reach.size() != graph.portals.size() * 2) continue;
      for (const bool atLeft : {true, false}) {
        const PortalEndReach& reach = graph.reach[portalEndIndex(p, atLeft)];
        if (reach.reaches())
          draw.line(atLeft ? left : right, lifted(reach.point, kPortalLift), colors::kPortalReach);
      }
      continue;
    }
    draw.line(left, right, colors::kOneWayPortal);
    const glm::vec3 mid = (left + right) * 0.5f;
    const glm::vec3 step(kDirectionDx[int(portal.direction)] * graph.cellSize, 0.0f,
                         kDirectionDz[int(portal.direction)] * graph.cellSize);
    arrow(draw, mid - step, mid + step, graph.cellSize * 0.5f, colors::kOneWayPortal);
  }
}

// A zone's outline: its box, or its turned box (corners) between the box's heights.
void wireZone(DebugDraw& draw, const Aabb& box, const std::optional<ZoneCorners>& corners,
              Color color) {
  const glm::vec3 lo = box.min, hi = box.max;
  const ZoneCorners ground = groundCorners(box, corners);
  glm::vec3 p[8];
  for (int i = 0; i < 4; ++i) {
    p[i] = {ground[size_t(i)].x, lo.y, ground[size_t(i)].y};
    p[4 + i] = {ground[size_t(i)].x, hi.y, ground[size_t(i)].y};
  }
  for (int i = 0; i < 4; ++i) {
    draw.line(p[i], p[(i + 1) % 4], color);
    draw.line(p[4 + i], p[4 + (i + 1) % 4], color);
    draw.line(p[i], p[4 + i], color);
  }
}

void drawDevicesAndWaypaths(DebugDraw& draw, const NavGraph& graph) {
  for (const DeviceSpec& device : graph.devices) {
    const Color color = deviceColor(device);
    wireZone(draw, device.entry, device.entryCorners, color);
    wireZone(draw, device.exit, device.exitCorners, color.withAlpha(160));
    std::string label = std::string(toString(device.kind)) + " " + device.id;
    if (device.locked) label += " (key " + device.key + ")";
    draw.text(glm::vec3(device.entry.center().x, device.entry.max.y, device.entry.center().z),
              label, color);
  }
  for (const WaypathSpec& waypath : graph.waypaths) {
    for (size_t i = 0; i + 1 < waypath.points.size(); ++i) {
      const glm::vec3 a = lifted(waypath.points[i], kPathLift),
                      b = lifted(waypath.points[i + 1], kPathLift);
      if (waypath.oneWay) {
        arrow(draw, a, b, graph.cellSize * 1.5f, colors::kWaypath);
      } else {
        draw.line(a, b, colors::kWaypath);
      }
    }
    for (const glm::vec3& p : waypath.points)
      draw.point(lifted(p, kPathLift), 6.0f, colors::kWaypath);
    std::string label = "waypath " + waypath.id;
    if (waypath.unitKind) label += std::string(" (") + toString(*waypath.unitKind) + ")";
    draw.text(lifted(waypath.points.front(), kPathLift + 0.3f), label, colors::kWaypath);
  }
}

void drawCorridor(DebugDraw& draw, const NavGraph& graph, const Corridor& corridor) {
  for (uint32_t s : corridor.sectors) {
    if (s < graph.sectors.size() && graph.sectors[s].kind != SectorKind::Waypath)
      sectorQuad(draw, graph, graph.sectors[s], kSectorLift + 0.01f, colors::kCorridor);
  }
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    if (!corridor.knows(graph, corridor.portals[i])) continue;
    const Portal& portal = corridor.portal(graph, i);
    if (portal.kind == PortalKind::Jump) continue;  // its arc is drawn with the jumps
    draw.line(lifted(portal.left, kPortalLift + 0.01f), lifted(portal.right, kPortalLift + 0.01f),
              colors::kCorridor.withAlpha(255));
  }
}

void drawLeftOutSectors(DebugDraw& draw, const NavGraph& graph, std::span<const uint32_t> sectors) {
  for (const uint32_t s : sectors) {
    if (s < graph.sectors.size())
      sectorQuad(draw, graph, graph.sectors[s], kSectorLift + 0.01f, colors::kLeftOutSector);
  }
}

void drawSearchTrace(DebugDraw& draw, const SearchTrace& trace) {
  for (const SearchEvent& event : trace.events) {
    const bool closed =
        event.kind == SearchEvent::Kind::Close || event.kind == SearchEvent::Kind::Drop;
    const Color color = closed ? colors::kClosedNode : colors::kOpenNode;
    // The exact search's nodes are intervals of portals: drawn as such, with their middles.
    if (glm::distance(event.from, event.to) > 1e-4f) {
      draw.line(lifted(event.from, kPortalLift + 0.02f), lifted(event.to, kPortalLift + 0.02f),
                color);
    }
    draw.point(lifted(0.5f * (event.from + event.to), kPortalLift), closed ? 7.0f : 5.0f, color);
  }
}

void drawSearchStep(DebugDraw& draw, const SearchReplay& replay) {
  const std::span<const ReplayNode> nodes = replay.nodes();
  const auto at = [](const ReplayNode& node) { return lifted(node.middle(), kPortalLift); };
  for (const ReplayNode& node : nodes) {
    const Color color = node.dropped  ? colors::kDroppedNode
                        : node.closed ? colors::kClosedNode
                                      : colors::kOpenNode;
    if (glm::distance(node.from, node.to) > 1e-4f) {
      draw.line(lifted(node.from, kPortalLift + 0.02f), lifted(node.to, kPortalLift + 0.02f),
                color);
    }
    draw.point(at(node), node.closed ? 6.0f : 8.0f, color);
    if (node.parent != ReplayNode::kNoParent)
      arrow(draw, at(node), at(nodes[node.parent]), 0.25f, colors::kParentLink);
  }
  const std::vector<uint32_t> open = replay.openByEstimate();
  if (!open.empty()) {
    // A ring of dots round the node taken next.
    const glm::vec3 centre = at(nodes[open.front()]);
    constexpr int kRingDots = 12;
    constexpr float kRingRadius = 0.35f;
    for (int k = 0; k < kRingDots; ++k) {
      const float angle = 2.0f * std::numbers::pi_v<float> * float(k) / float(kRingDots);
      draw.point(centre + kRingRadius * glm::vec3(std::cos(angle), 0.0f, std::sin(angle)), 5.0f,
                 colors::kNextNode);
    }
  }
  if (const std::optional<uint32_t> expanding = replay.expanding()) {
    const glm::vec3 from = at(nodes[*expanding]);
    for (const uint32_t successor : replay.successors())
      arrow(draw, from, at(nodes[successor]), 0.35f, colors::kExpandingNode);
    draw.point(from, 16.0f, colors::kExpandingNode);
  }
}

void drawJumps(DebugDraw& draw, std::span<const JumpPortal> jumps, Color color) {
  constexpr float kGravity = 9.81f;  // [m/s^2]
  constexpr int kSegments = 16;
  for (const JumpPortal& jump : jumps) {
    const glm::vec3 from = lifted(jump.portal.left, kPathLift),
                    to = lifted(jump.portal.right, kPathLift);
    // A ballistic arc: rising as high as the air time allows above the straight line.
    const float rise = kGravity * jump.spec.airTime * jump.spec.airTime / 8.0f;
    glm::vec3 previous = from;
    for (int k = 1; k <= kSegments; ++k) {
      const float t = float(k) / kSegments;
      glm::vec3 p = glm::mix(from, to, t);
      p.y += 4.0f * rise * t * (1.0f - t);
      if (k == kSegments) {
        arrow(draw, previous, p, 0.35f, color);
      } else {
        draw.line(previous, p, color);
      }
      previous = p;
    }
    // Which way the unit faces as it leaves the ground.
    const glm::vec3 facing{std::cos(jump.spec.heading), 0.0f, std::sin(jump.spec.heading)};
    draw.line(from, from + facing * 0.6f, color);
    draw.point(from, 7.0f, color);
    draw.point(to, 7.0f, color);
    draw.text(from + glm::vec3(0.0f, 0.3f, 0.0f), "jump " + std::to_string(jump.id), color);
  }
}

void drawPath(DebugDraw& draw, std::span<const glm::vec3> points,
              std::span<const glm::vec3> corners, Color color) {
  for (size_t i = 0; i + 1 < points.size(); ++i)
    draw.line(lifted(points[i], kPathLift), lifted(points[i + 1], kPathLift), color);
  for (const glm::vec3& c : corners)
    draw.point(lifted(c, kPathLift), 6.0f, color);
}

void drawFunnelStep(DebugDraw& draw, std::span<const FunnelPortal> portals,
                    const FunnelStep& step) {
  const float lift = kPathLift + 0.02f;
  if (step.portal < portals.size()) {
    const FunnelPortal& current = portals[step.portal];
    draw.line(lifted(current.left, lift), lifted(current.right, lift),
              colors::kCorridor.withAlpha(255));
  }
  draw.line(lifted(step.apex, lift), lifted(step.left, lift), colors::kFunnelLeft);
  draw.line(lifted(step.apex, lift), lifted(step.right, lift), colors::kFunnelRight);
  draw.point(lifted(step.left, lift), 8.0f, colors::kFunnelLeft);
  draw.point(lifted(step.right, lift), 8.0f, colors::kFunnelRight);
  draw.point(lifted(step.apex, lift), 11.0f, colors::kApex);
}

void drawMarker(DebugDraw& draw, const glm::vec3& p, float height, Color color) {
  draw.line(p, p + glm::vec3(0.0f, height, 0.0f), color);
  draw.point(p + glm::vec3(0.0f, height, 0.0f), 10.0f, color);
  draw.point(lifted(p, kPathLift), 8.0f, color);
}

void drawPathClearance(DebugDraw& draw, const UnitProfile& unit,
                       std::span<const StretchClearance> clearance) {
  // Just over the path; the path itself stays as it is drawn.
  const float lift = kPathLift + 0.03f;
  const float half = unit.footprint() * 0.5f;
  constexpr int kRimSegments = 24;
  for (const StretchClearance& stretch : clearance) {
    if (!(stretch.depth > 0.0f)) continue;
    const glm::vec3 at = lifted(stretch.deepestAt, lift);
    const auto rim = [&](int k) {
      const float angle = float(k) * 2.0f * glm::pi<float>() / float(kRimSegments);
      return at + glm::vec3(std::cos(angle), 0.0f, std::sin(angle)) * half;
    };
    if (unit.shape == UnitShape::Round) {
      for (int k = 0; k < kRimSegments; ++k)
        draw.line(rim(k), rim(k + 1), colors::kClearanceTouch);
    } else {
      const glm::vec3 square[4] = {at + glm::vec3(-half, 0, -half), at + glm::vec3(half, 0, -half),
                                   at + glm::vec3(half, 0, half), at + glm::vec3(-half, 0, half)};
      for (int k = 0; k < 4; ++k)
        draw.line(square[k], square[(k + 1) % 4], colors::kClearanceTouch);
    }
    draw.point(at, 8.0f, colors::kClearanceTouch);
    char depth[32];
    std::snprintf(depth, sizeof depth, "%.1f cm", stretch.depth * 100.0f);
    draw.text(at + glm::vec3(0.0f, unit.height * 0.5f, 0.0f), depth, colors::kClearanceTouch);
  }
}

void drawSmoothedPath(DebugDraw& draw, std::span<const glm::vec3> samples, Color color) {
  // Just under the funnel's path, which stays in front where the two meet.
  constexpr float kSmoothedLift = kPathLift - 0.04f;
  for (size_t i = 0; i + 1 < samples.size(); ++i)
    draw.line(lifted(samples[i], kSmoothedLift), lifted(samples[i + 1], kSmoothedLift), color);
}

void drawVehicleCurve(DebugDraw& draw, std::span<const CurvePiece> pieces, float y, Color color) {
  const float height = y + kPathLift;
  auto at = [height](const glm::vec2& p) { return glm::vec3(p.x, height, p.y); };
  const std::vector<glm::vec3> samples = sampleCurve(pieces, {}, 0.25f);
  for (size_t i = 0; i + 1 < samples.size(); ++i)
    draw.line(at(groundOf(samples[i])), at(groundOf(samples[i + 1])), color);
  // Each turn circle once: an exit arc and the next entry arc often share one.
  constexpr int kCircleSegments = 48;
  const Color faint = color.withAlpha(uint8_t(color.a / 4));
  const CurvePiece* lastArc = nullptr;
  for (const CurvePiece& piece : pieces) {
    draw.point(at(piece.start), 5.0f, color);
    if (piece.kind != CurvePiece::Arc ||
        (lastArc && lastArc->center == piece.center && lastArc->radius == piece.radius))
      continue;
    lastArc = &piece;
    auto around = [&](int i) {
      const float angle = 6.2831853f * float(i) / float(kCircleSegments);
      return at(piece.center + piece.radius * glm::vec2(std::cos(angle), std::sin(angle)));
    };
    for (int i = 0; i < kCircleSegments; ++i)
      draw.line(around(i), around(i + 1), faint);
    draw.point(at(piece.center), 4.0f, faint);
  }
  if (!pieces.empty()) draw.point(at(pieces.back().end), 5.0f, color);
}

}  // namespace nav
