#pragma once
// Levels built in code for tests: boxes and quads with hand-known geometry.
#include <optional>
#include <string>

#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_graph.h"

namespace nav::test {

/// Adds the 12 triangles of a closed box (outward-facing).
void addBox(Level& level, const Aabb& box, const std::string& material = "");
/// Adds an upward-facing horizontal rectangle at height y.
void addFloor(Level& level, float x0, float z0, float x1, float z1, float y,
              const std::string& material = "");
/// Recomputes bounds after adding geometry.
void finish(Level& level);

/// The graph of a level built for the default human (finish() is called);
/// an empty graph, with a test failure, when the build fails.
NavGraph buildGraph(Level level);
/// A level built as the debugger builds it (its first unit profile, or the
/// default human); nullopt, with a test failure, when the build fails.
std::optional<NavBuild> buildLevel(const Level& level, bool keepCells = false);
/// A bundled level (assets/NAME) built that way with its cells kept, once per
/// test program; an empty build, with a test failure, when it cannot be.
const NavBuild& bundledBuild(const std::string& name);
/// Two 10 x 6 floors, x 0..10 and x 14..24 (z 0..6, y 0), seeded on both, with
/// a 4 m chasm between them that no walk crosses.
Level chasmLevel();

/// Path of a file in ../shared, or "" when the shared folder is absent.
std::string sharedFile(const std::string& relative);
/// Path of a bundled asset.
std::string assetFile(const std::string& relative);

}  // namespace nav::test
