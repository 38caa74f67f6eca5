// glTF 2.0 and FBX levels through Assimp: a hand-written glTF whose node
// transforms are worked out by hand, generated levels written as .glb and .obj
// building the same cells, an FBX round trip, and bad files refused by name.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nav/city_generator.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/scene_import.h"
#include "nav/terrain_generator.h"

namespace nav {
namespace {

std::string scratch(const std::string& name) {
  const std::filesystem::path folder =
      std::filesystem::path(::testing::TempDir()) / "navscope_scene_files";
  std::filesystem::create_directories(folder);
  const std::filesystem::path path = folder / name;
  std::filesystem::remove_all(path);
  return path.string();
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string base64(const std::string& bytes) {
  static const char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t group = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) group |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) group |= uint32_t(uint8_t(bytes[i + 2]));
    text += kDigits[(group >> 18) & 63];
    text += kDigits[(group >> 12) & 63];
    text += i + 1 < bytes.size() ? kDigits[(group >> 6) & 63] : '=';
    text += i + 2 < bytes.size() ? kDigits[group & 63] : '=';
  }
  return text;
}

template <class T>
void append(std::string& bytes, const std::vector<T>& values) {
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Two meshes: "Floor", a unit square at y = 0 (4 vertices, 2 triangles,
// material "stone"), and "Wall", one triangle standing in the x-y plane
// (material "wood"). Node "Room" (scale 2, then moved 10 along x) holds the
// floor and has the child "Wall" (turned 90 degrees about y, then raised 1).
// `floorCorner` is the floor's third vertex (a NaN there makes a bad file).
std::string roomGltf(float floorCorner = 1.0f) {
  std::string buffer;
  append(buffer, std::vector<float>{0, 0, 0, 1, 0, 0, floorCorner, 0, 1, 0, 0, 1});  // 48 bytes
  append(buffer, std::vector<uint16_t>{0, 2, 1, 0, 3, 2});                           // 12 bytes
  append(buffer, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});                     // 36 bytes
  const float half = std::sqrt(0.5f);
  std::ostringstream json;
  json << R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0]}],
  "nodes": [
    {"name": "Room", "mesh": 0, "children": [1], "translation": [10, 0, 0], "scale": [2, 2, 2]},
    {"name": "Wall", "mesh": 1, "translation": [0, 1, 0], "rotation": [0, )"
       << half << ", 0, " << half << R"(]}
  ],
  "meshes": [
    {"name": "Floor", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]},
    {"name": "Wall", "primitives": [{"attributes": {"POSITION": 2}, "material": 1}]}
  ],
  "materials": [{"name": "stone"}, {"name": "wood"}],
  "buffers": [{"byteLength": 96, "uri": "data:application/octet-stream;base64,)"
       << base64(buffer) << R"("}],
  "bufferViews": [
    {"buffer": 0, "byteOffset": 0, "byteLength": 48},
    {"buffer": 0, "byteOffset": 48, "byteLength": 12},
    {"buffer": 0, "byteOffset": 60, "byteLength": 36}
  ],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
     "min": [0, 0, 0], "max": [1, 0, 1]},
    {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3",
     "min": [0, 0, 0], "max": [1, 1, 0]}
  ]
})";
  return json.str();
}

void expectNear(const glm::vec3& actual, const glm::vec3& expected) {
  EXPECT_NEAR(actual.x, expected.x, 1e-5f) << "y " << actual.y << " z " << actual.z;
  EXPECT_NEAR(actual.y, expected.y, 1e-5f) << "x " << actual.x << " z " << actual.z;
  EXPECT_NEAR(actual.z, expected.z, 1e-5f) << "x " << actual.x << " y " << actual.y;
}

TEST(SceneFiles, GltfNodeTransformsMaterialsAndFaces) {
  const std::string path = scratch("room.gltf");
  writeFile(path, roomGltf());
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level) << level.error();
  const Level& room = level.value();
  EXPECT_EQ(room.materials, (std::vector<std::string>{"", "stone", "wood"}));
  ASSERT_EQ(room.triangles.size(), 3u);
  // Floor: scaled by 2, moved 10 along x; its two triangles as the indices give them.
  const std::array<std::array<glm::vec3, 3>, 3> corners = {{
      {glm::vec3(10, 0, 0), glm::vec3(12, 0, 2), glm::vec3(12, 0, 0)},
      {glm::vec3(10, 0, 0), glm::vec3(10, 0, 2), glm::vec3(12, 0, 2)},
      // Wall: (1,0,0) turned 90 degrees about y is (0,0,-1); raised 1, then the room's transform.
      {glm::vec3(10, 2, 0), glm::vec3(10, 2, -2), glm::vec3(10, 4, 0)},
  }};
  for (uint32_t t = 0; t < 3; ++t) {
    SCOPED_TRACE("triangle " + std::to_string(t));
    for (int c = 0; c < 3; ++c)
      expectNear(room.corner(t, c), corners[t][c]);
    EXPECT_EQ(room.triangles[t].face, t);
  }
  EXPECT_EQ(room.materials[room.triangles[0].material], "stone");
  EXPECT_EQ(room.materials[room.triangles[1].material], "stone");
  EXPECT_EQ(room.materials[room.triangles[2].material], "wood");
  EXPECT_EQ(room.source, path);
}

}  // namespace
}  // namespace nav
