#pragma once
// The graph's validator: every value the search, the funnel and the rest rely
// on (ranges, cross references, portal order, finite geometry), checked once
// so they need not check again. The .nav reader runs it on every file, and
// the build's tests on every graph it makes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nav/nav_graph.h"

namespace nav {

/// The most of each thing a graph may hold; a graph past them is refused.
struct GraphLimits {
  /// Most sectors accepted.
  uint32_t maxSectors = 1u << 22;
  /// Most portals accepted.
  uint32_t maxPortals = 1u << 24;
  /// Most surfaces accepted (Sector::surface is 16 bits).
  uint32_t maxSurfaces = 65536;
  /// Most devices accepted.
  uint32_t maxDevices = 1u << 16;
  /// Most waypaths accepted.
  uint32_t maxWaypaths = 1u << 16;
  /// Longest unit, surface, device or waypath name accepted. [bytes]
  uint32_t maxNameBytes = 4096;
};

/// Checks every value a reader relies on (ranges, cross references, portal
/// order); nullopt when the graph is sound. Errors start with nameForErrors.
std::optional<std::string> checkNavGraph(const NavGraph& graph, std::string_view nameForErrors,
                                         const GraphLimits& limits = {});

}  // namespace nav
