#include "test_grid_maps.h"

namespace nav::test {

GridMap randomGridMap(std::mt19937& random, int width, int height, double blockedShare) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  GridMap map;
  map.source = "random.map";
  map.width = width;
  map.height = height;
  map.blocked.resize(size_t(width) * size_t(height));
  for (uint8_t& tile : map.blocked)
    tile = unit(random) < blockedShare ? 1 : 0;
  return map;
}

std::string gridRows(const GridMap& map) {
  std::string rows;
  for (int32_t y = 0; y < map.height; ++y) {
    for (int32_t x = 0; x < map.width; ++x)
      rows += map.isBlocked(x, y) ? '@' : '.';
    rows += '\n';
  }
  return rows;
}

}  // namespace nav::test
