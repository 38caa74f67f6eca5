#include "nav/graph_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "format_number.h"

namespace nav {
namespace {

// How far a reach point may stray from its portal's line and bounds: rounding. [metres]
constexpr float kReachSlack = 1e-3f;

bool finite(float v) {
  return std::isfinite(v);
}
// Points past kMaxCoordinate (geometry.h) are refused as a level's are.
bool inWorld(float v) {
  return std::abs(v) <= kMaxCoordinate;
}
bool inWorld(const glm::vec2& v) {
  return inWorld(v.x) && inWorld(v.y);
}
// Declared here too: the overloads above would hide it, and glm turns a vec3 into a vec2.
bool inWorld(const glm::vec3& v) {
  return nav::inWorld(v);
}

bool validUtf8(std::string_view s) {
  constexpr uint32_t kSmallestOfLength[4] = {0, 0x80, 0x800, 0x10000};
  for (size_t i = 0; i < s.size();) {
    const auto lead = uint8_t(s[i]);
    size_t extra = 0;
    uint32_t code = lead;
    if (lead >= 0xf0 && lead < 0xf8) {
      extra = 3;
      code = lead & 0x07u;
    } else if (lead >= 0xe0) {
      extra = 2;
      code = lead & 0x0fu;
    } else if (lead >= 0xc0) {
      extra = 1;
      code = lead & 0x1fu;
    } else if (lead >= 0x80) {
      return false;
    }
    if (lead >= 0xf8 || s.size() - i <= extra) return false;
    for (size_t k = 1; k <= extra; ++k) {
      const auto next = uint8_t(s[i + k]);
      if ((next & 0xc0u) != 0x80u) return false;
      code = (code << 6) | (next & 0x3fu);
    }
    // Overlong forms and UTF-16 surrogates are not UTF-8.
    if (code < kSmallestOfLength[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

std::string checkName(const std::string& name, uint32_t maxBytes) {
  if (name.size() > maxBytes) {
    return "name is " + std::to_string(name.size()) + " bytes (limit " + std::to_string(maxBytes) +
           ")";
  }
  if (!validUtf8(name)) return "name is not valid UTF-8";
  return {};
}

std::string describeBox(const Aabb& box) {
  return formatPoint(box.min) + " .. " + formatPoint(box.max);
}

// The checks behind checkNavGraph; messages lack the graph's name.
std::optional<std::string> findGraphError(const NavGraph& graph, const GraphLimits& limits) {
  using std::to_string;
  // A navigation mesh's graph has no cells: its cell size is 0.
  const bool polygons = !graph.polygonCorners.empty();
  if (!(finite(graph.cellSize) &&
        (graph.cellSize > 0.0f || (polygons && graph.cellSize == 0.0f)))) {
    return "cellSize " + formatFloat(graph.cellSize) + " is not a positive finite number";
  }
  if (!inWorld(graph.origin))
    return std::string("origin is not finite or lies more than 1e8 m out");
  if (!(std::abs(graph.gridFrame.degrees) <= kMaxGridDegrees) || !inWorld(graph.gridFrame.centre))
    return "grid angle " + formatFloat(graph.gridFrame.degrees) +
           " is not within +-45 degrees, or its centre is not finite or lies more than 1e8 m out";
  if (!inWorld(graph.gridFrame.offset))
    return std::string("the grid's offset is not finite or lies more than 1e8 m out");
  if (std::string error = checkName(graph.unit.name, limits.maxNameBytes); !error.empty()) {
    return "unit: " + error;
  }
  if (Result<UnitProfile> unit = validateUnitProfile(graph.unit); !unit) {
    return "unit: " + unit.error();
  }
  if (graph.surfaces.size() > limits.maxSurfaces) {
    return to_string(graph.surfaces.size()) + " surfaces (limit " + to_string(limits.maxSurfaces) +
           ")";
  }
  for (size_t m = 0; m < graph.surfaces.size(); ++m) {
    const SurfaceSpec& surface = graph.surfaces[m];
    if (std::string error = checkName(surface.name, limits.maxNameBytes); !error.empty()) {
      return "surface " + to_string(m) + ": " + error;
    }
    if (!(finite(surface.cost) && surface.cost > 0.0f)) {
      return "surface " + to_string(m) + ": cost " + formatFloat(surface.cost) +
             " is not a positive finite number";
    }
  }
  for (size_t d = 0; d < graph.devices.size(); ++d) {
    const DeviceSpec& device = graph.devices[d];
    auto bad = [&](const std::string& what) { return "device " + to_string(d) + ": " + what; };
    for (const std::string* name : {&device.id, &device.key, &device.action}) {
      if (std::string error = checkName(*name, limits.maxNameBytes); !error.empty())
        return bad(error);
    }
    if (uint8_t(device.kind) >= kDeviceKindCount) {
      return bad("kind " + to_string(int(device.kind)) + " is not a device kind");
    }
    for (const Aabb* zone : {&device.entry, &device.exit}) {
      if (!inWorld(zone->min) || !inWorld(zone->max) || zone->empty()) {
        return bad("zone " + describeBox(*zone) + " is not a finite box within 1e8 m");
      }
    }
    if (!(finite(device.waitTime) && device.waitTime >= 0.0f && finite(device.travelTime) &&
          device.travelTime >= 0.0f)) {
      return bad("times must be finite and >= 0");
    }
  }
  for (size_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    auto bad = [&](const std::string& what) { return "waypath " + to_string(w) + ": " + what; };
    if (std::string error = checkName(waypath.id, limits.maxNameBytes); !error.empty())
      return bad(error);
    if (waypath.unitKind && int(*waypath.unitKind) >= kUnitKindCount)
      return bad("unknown unit kind");
    if (waypath.points.size() < 2) return bad("fewer than 2 points");
    for (const glm::vec3& point : waypath.points) {
      if (!inWorld(point)) return bad("a point is not finite or lies more than 1e8 m out");
    }
  }
  for (size_t k = 0; k < graph.deviceLinks.size(); ++k) {
    const DeviceLink& link = graph.deviceLinks[k];
    if (link.device >= graph.devices.size()) {
      return "device link " + to_string(k) + ": device " + to_string(link.device) +
             " out of range (" + to_string(graph.devices.size()) + " devices)";
    }
    if (!inWorld(link.volume.min) || !inWorld(link.volume.max) || !inWorld(link.entryPoint) ||
        !inWorld(link.exitPoint)) {
      return "device link " + to_string(k) + ": a point is not finite or lies more than 1e8 m out";
    }
  }

  // kNoSector and kNoPortal must never be valid indices, and the search numbers
  // its nodes portals.size() + 2 in 32 bits.
  const size_t sectorCount = graph.sectors.size();
  const size_t portalCount = graph.portals.size();
  const size_t maxSectors = std::min<size_t>(limits.maxSectors, kNoSector - 1);
  const size_t maxPortals = std::min<size_t>(limits.maxPortals, kNoPortal - 2);
  if (sectorCount > maxSectors) {
    return to_string(sectorCount) + " sectors (limit " + to_string(maxSectors) + ")";
  }
  if (portalCount > maxPortals) {
    return to_string(portalCount) + " portals (limit " + to_string(maxPortals) + ")";
  }

  for (size_t i = 0; i < portalCount; ++i) {
    const Portal& p = graph.portals[i];
    // Messages are built only on failure: this loop runs over every portal of every load.
    auto bad = [&](const std::string& what) { return "portal " + to_string(i) + ": " + what; };
    auto badSector = [&](const char* field, uint32_t sector) {
      // Appended piece by piece: GCC 12 warns, wrongly, on `field + std::string`.
      std::string what = field;
      what += ' ';
      what += to_string(sector);
      return bad(what + " out of range (" + to_string(sectorCount) + " sectors)");
    };
    if (p.fromSector >= sectorCount) return badSector("fromSector", p.fromSector);
    if (p.toSector >= sectorCount) return badSector("toSector", p.toSector);
    if (p.toSector == p.fromSector) {
      return bad("leads from sector " + to_string(p.toSector) + " to itself");
    }
    if (!inWorld(p.left) || !inWorld(p.right)) {
      return bad("an endpoint is not finite or lies more than 1e8 m out");
    }
    if (uint8_t(p.direction) >= kDirectionCount) {
      return bad("direction " + to_string(int(p.direction)) + " is not one of the 4 directions");
    }
    if (p.kind == PortalKind::Device) {
      if (p.link >= graph.deviceLinks.size()) {
        return bad("device link " + to_string(p.link) + " out of range (" +
                   to_string(graph.deviceLinks.size()) + " links)");
      }
    } else if (p.kind == PortalKind::Waypath) {
      // One end is a waypath sector and the link is one of its points.
      const Sector& from = graph.sectors[p.fromSector];
      const Sector& to = graph.sectors[p.toSector];
      const Sector& waypathSector = from.kind == SectorKind::Waypath ? from : to;
      if (waypathSector.kind != SectorKind::Waypath ||
          waypathSector.waypath >= graph.waypaths.size() ||
          p.link >= graph.waypaths[waypathSector.waypath].points.size()) {
        return bad("waypath point " + to_string(p.link) + " does not belong to a waypath it joins");
      }
    } else if (p.kind != PortalKind::Walk) {
      // Jump portals live in a JumpBucket, never in a file.
      return bad("kind " + to_string(int(p.kind)) + " is not a stored portal kind");
    }
    if (p.reverse == kNoPortal) continue;
    if (p.reverse >= portalCount) {
      return bad("reverse " + to_string(p.reverse) + " out of range (" + to_string(portalCount) +
                 " portals)");
    }
    const Portal& back = graph.portals[p.reverse];
    if (back.reverse != i || back.fromSector != p.toSector || back.toSector != p.fromSector ||
        back.kind != p.kind ||
        (p.kind == PortalKind::Walk && back.direction != opposite(p.direction))) {
      return bad("reverse " + to_string(p.reverse) + " does not lead back over the same edge");
    }
  }

  if (!graph.reach.empty() && graph.reach.size() != portalCount * 2) {
    return to_string(graph.reach.size()) + " portal ends reach, for " + to_string(portalCount) +
           " portals";
  }
  for (size_t end = 0; end < graph.reach.size(); ++end) {
    const PortalEndReach& reach = graph.reach[end];
    if (!reach.reaches()) continue;
    const Portal& p = graph.portals[end / 2];
    auto bad = [&](const std::string& what) {
      return "portal " + to_string(end / 2) + (end % 2 == 0 ? " left" : " right") +
             " end's reach: " + what;
    };
    if (p.kind != PortalKind::Walk || p.oneWay()) return bad("the portal is not a two-way walk");
    if (!inWorld(reach.point) || !finite(reach.length) || reach.length < 0.0f) {
      return bad(
          "point or length is not finite (or the length is negative, or the point more than 1e8 m "
          "out)");
    }
    for (int side = 0; side < 2; ++side) {
      const float low = reach.outwardMin[side], high = reach.outwardMax[side];
      if (!finite(low) || !finite(high)) return bad("a direction bound is not finite");
      if (low <= high && (low < -1.0f || high > 1.0f)) {
        return bad("directions " + formatFloat(low) + " .. " + formatFloat(high) +
                   " are not cosines");
      }
    }
    // Out along the portal's line past its own end, by at most half a cell, in both sectors.
    const bool left = end % 2 == 0;
    const glm::vec2 point = groundOf(reach.point);
    const glm::vec2 out = point - groundOf(left ? p.left : p.right);
    const glm::vec2 outward = outwardAlong(p, left);
    const auto inside = [&](uint32_t sector) {
      const Aabb& box = graph.sectors[sector].bounds;
      return point.x >= box.min.x - kReachSlack && point.x <= box.max.x + kReachSlack &&
             point.y >= box.min.z - kReachSlack && point.y <= box.max.z + kReachSlack;
    };
    if (std::abs(cross2(outward, out)) > kReachSlack || glm::dot(out, outward) < -kReachSlack ||
        glm::length(out) > graph.cellSize * 0.5f + kReachSlack || !inside(p.fromSector) ||
        !inside(p.toSector)) {
      return bad("point " + formatPoint(reach.point) +
                 " is not out along the portal from its end, by half a cell at most, in both "
                 "sectors");
    }
    // The reverse portal sees the same end from the other sector.
    const PortalEndReach& mirror = graph.reach[portalEndIndex(p.reverse, !left)];
    if (!(groundOf(mirror.point) == point) || !(mirror.length == reach.length) ||
        !(mirror.outwardMin[0] == reach.outwardMin[1]) ||
        !(mirror.outwardMin[1] == reach.outwardMin[0]) ||
        !(mirror.outwardMax[0] == reach.outwardMax[1]) ||
        !(mirror.outwardMax[1] == reach.outwardMax[0])) {
      return bad("differs from the reverse portal's (" + to_string(p.reverse) + ")");
    }
  }

  // Each sector's outgoing portals follow the previous sector's: portals sorted by fromSector.
  Aabb bounds;
  uint32_t nextPortal = 0;
  for (size_t s = 0; s < sectorCount; ++s) {
    const Sector& sector = graph.sectors[s];
    auto bad = [&](const std::string& what) { return "sector " + to_string(s) + ": " + what; };
    const Aabb& box = sector.bounds;
    if (!inWorld(box.min) || !inWorld(box.max) || box.empty()) {
      return bad("bounds " + describeBox(box) + " are not a finite box within 1e8 m");
    }
    if (sector.firstColumn.x > sector.lastColumn.x || sector.firstColumn.y > sector.lastColumn.y) {
      return bad("first column is past the last column");
    }
    if (!inWorld(sector.heightPlane)) return bad("height plane is not finite or past 1e8");
    if (sector.polygonal()) {
      if (sector.kind != SectorKind::Ground) return bad("a polygon for a sector not on the ground");
      if (sector.cornerCount < 3) return bad(to_string(sector.cornerCount) + " corners");
      if (uint64_t(sector.firstCorner) + sector.cornerCount > graph.polygonCorners.size()) {
        return bad("corners " + to_string(sector.firstCorner) + " + " +
                   to_string(sector.cornerCount) + " run past the " +
                   to_string(graph.polygonCorners.size()) + " corners");
      }
      if (sector.firstHeight != kNoHeights) return bad("a polygon with cell heights");
      for (const glm::vec3& corner : graph.cornersOf(sector)) {
        if (!inWorld(corner)) return bad("a corner is not finite or lies more than 1e8 m out");
      }
    }
    if (sector.firstHeight != kNoHeights) {
      const uint64_t cells = uint64_t(int64_t(sector.lastColumn.x) - sector.firstColumn.x + 1) *
                             uint64_t(int64_t(sector.lastColumn.y) - sector.firstColumn.y + 1);
      if (sector.kind != SectorKind::Ground) return bad("heights for a sector not on the ground");
      if (uint64_t(sector.firstHeight) + cells > graph.cellHeights.size()) {
        return bad("heights " + to_string(sector.firstHeight) + " + " + to_string(cells) +
                   " run past the " + to_string(graph.cellHeights.size()) + " heights");
      }
      if (!inWorld(sector.heightBase) || !finite(sector.heightStep) ||
          !(sector.heightStep > 0.0f)) {
        return bad("height base or step is not finite (or the step is not positive)");
      }
    }
    if (sector.surface >= graph.surfaces.size()) {
      return bad("surface " + to_string(sector.surface) + " out of range (" +
                 to_string(graph.surfaces.size()) + " surfaces)");
    }
    if (sector.kind == SectorKind::Waypath) {
      if (sector.waypath >= graph.waypaths.size()) {
        return bad("waypath " + to_string(sector.waypath) + " out of range (" +
                   to_string(graph.waypaths.size()) + " waypaths)");
      }
    } else if (sector.kind != SectorKind::Ground && sector.kind != SectorKind::Fall) {
      return bad("kind " + to_string(int(sector.kind)) + " is not a sector kind");
    }
    if (sector.firstPortal != nextPortal) {
      return bad("firstPortal " + to_string(sector.firstPortal) + ", expected " +
                 to_string(nextPortal) + " (portals must be sorted by fromSector)");
    }
    if (sector.portalCount > portalCount - nextPortal) {
      return bad("portals " + to_string(sector.firstPortal) + " + " +
                 to_string(sector.portalCount) + " run past the " + to_string(portalCount) +
                 " portals");
    }
    nextPortal += sector.portalCount;
    for (uint32_t p = sector.firstPortal; p < nextPortal; ++p) {
      if (graph.portals[p].fromSector != s) {
        return "portal " + to_string(p) + ": fromSector " + to_string(graph.portals[p].fromSector) +
               " but listed under sector " + to_string(s);
      }
    }
    bounds.grow(box);
  }
  if (nextPortal != portalCount) {
    return to_string(portalCount - nextPortal) + " portals after the last sector's";
  }
  // The search enters a walk portal without a look at the sector beyond
  // unless a surface is closed (PortalSearch::mayEnter): a waypath's may be.
  for (size_t i = 0; i < portalCount; ++i) {
    const Portal& p = graph.portals[i];
    if (p.kind == PortalKind::Walk && (graph.sectors[p.fromSector].kind == SectorKind::Waypath ||
                                       graph.sectors[p.toSector].kind == SectorKind::Waypath)) {
      return "portal " + to_string(i) + ": a walk portal joins a waypath's sector";
    }
  }
  if (bounds.min != graph.bounds.min || bounds.max != graph.bounds.max) {
    return "bounds " + describeBox(graph.bounds) + " differ from the sectors' " +
           describeBox(bounds);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkNavGraph(const NavGraph& graph, std::string_view nameForErrors,
                                         const GraphLimits& limits) {
  std::optional<std::string> error = findGraphError(graph, limits);
  if (error) *error = std::string(nameForErrors) + ": " + *error;
  return error;
}

}  // namespace nav
