// libFuzzer target: OBJ text, as loadLevel reads it, then its faces as a
// navigation mesh (welding, convex pieces, adjacency).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nav/level.h"
#include "nav/navmesh_faces.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nav::LoadLimits limits;
  limits.maxTriangles = 100'000;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nav::Result<nav::Level> level = nav::parseObj(text, "fuzz.obj", limits);
  if (level) nav::readNavMeshFaces(level.value());
  return 0;
}
