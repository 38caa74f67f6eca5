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

#include "nav/file_extension.h"
#include "nav/graph_check.h"
#include "nav/nav_graph.h"
#include "nav/result.h"

namespace nav {

/// True when the path names a .nav file (by its extension, any case).
inline bool isNavFilePath(const std::string& path) {
  return hasExtension(path, ".nav");
}

/// The format version this build writes; it reads this one and the older one,
/// and refuses newer ones. Version 2 adds fall sectors (SectorKind::Fall),
/// which a version 1 reader would refuse one by one.
constexpr uint32_t kNavFileVersion = 2;

/// Bounds a reader enforces before allocating anything; a file past them is
/// refused. The graph's own (GraphLimits) are checked by checkNavGraph.
struct NavFileLimits : GraphLimits {
  /// Largest file accepted. [bytes]
  size_t maxFileBytes = size_t(256) << 20;
};

/// The file's bytes for a graph. Identical graphs give identical bytes.
std::vector<uint8_t> serializeNavGraph(const NavGraph& graph);

/// Reads and validates a whole file held in memory. Errors start with nameForErrors.
Result<NavGraph> deserializeNavGraph(std::span<const uint8_t> bytes, std::string_view nameForErrors,
                                     const NavFileLimits& limits = {});

/// Writes the graph to path after checking it (an unsound graph is not written).
/// Returns the number of bytes written.
Result<size_t> writeNavFile(const std::string& path, const NavGraph& graph);

/// The format version a .nav file's header states (its first 12 bytes); empty
/// when the bytes do not start with the magic and a version.
std::optional<uint32_t> navFileVersion(std::span<const uint8_t> bytes);

/// Loads a file written by writeNavFile; errors name the path.
Result<NavGraph> readNavFile(const std::string& path, const NavFileLimits& limits = {});

}  // namespace nav
