#pragma once
// The runtime file format `.nav`: a NavGraph saved so a game or the CLI can load
// it without rebuilding. Versioned little-endian binary with a section table and
// a CRC-32; the layout is described next to the implementation (nav_file.cpp).
// Readers validate everything: a bad file gives a message, never a crash.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nav/nav_graph.h"
#include "nav/result.h"

namespace nav {

/// The format version this build writes; it reads this one and the older one,
/// and refuses newer ones. Version 2 adds fall sectors (SectorKind::Fall),
/// which a version 1 reader would refuse one by one.
constexpr uint32_t kNavFileVersion = 2;

/// Bounds a reader enforces before allocating anything; a file past them is refused.
struct NavFileLimits {
  /// Largest file accepted. [bytes]
  size_t maxFileBytes = size_t(256) << 20;
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

/// The file's bytes for a graph. Identical graphs give identical bytes.
std::vector<uint8_t> serializeNavGraph(const NavGraph& graph);

/// Reads and validates a whole file held in memory. Errors start with nameForErrors.
Result<NavGraph> deserializeNavGraph(std::span<const uint8_t> bytes, std::string_view nameForErrors,
                                     const NavFileLimits& limits = {});

/// Checks every value a reader relies on (ranges, cross references, portal
/// order); nullopt when the graph is sound. Errors start with nameForErrors.
std::optional<std::string> checkNavGraph(const NavGraph& graph, std::string_view nameForErrors,
                                         const NavFileLimits& limits = {});

/// Writes the graph to path after checking it (an unsound graph is not written).
/// Returns the number of bytes written.
Result<size_t> writeNavFile(const std::string& path, const NavGraph& graph);

/// Loads a file written by writeNavFile; errors name the path.
Result<NavGraph> readNavFile(const std::string& path, const NavFileLimits& limits = {});

}  // namespace nav
