#pragma once
// What a level's graph is made from: the Build panel's choice, which the
// build worker carries out.
#include <cstdint>

namespace nav::app {

enum class GraphSource : uint8_t {
  FloodFill,       ///< The unit's flood fill, its cells compressed into sectors.
  NavMesh,         ///< The level's faces as a navigation mesh (navmesh_graph.h).
  NavMeshNoSteep,  ///< The same without the faces steeper than the unit's max slope.
};

}  // namespace nav::app
