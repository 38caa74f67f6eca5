#pragma once
// Grid maps made up for tests, and their rows for messages.
#include <random>
#include <string>

#include "nav/grid_map.h"

namespace nav::test {

/// A grid map of width x height tiles, each blocked with chance blockedShare.
GridMap randomGridMap(std::mt19937& random, int width, int height, double blockedShare);

/// A grid map's rows as a .map file writes them ('@' blocked, '.' free).
std::string gridRows(const GridMap& map);

}  // namespace nav::test
