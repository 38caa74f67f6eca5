// glTF 2.0 and FBX levels through Assimp: a hand-written glTF whose node
// transforms are worked out by hand, generated levels written as .glb and .obj
// building the same cells, an FBX round trip, and bad files refused by name.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "nav/city_generator.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/scene_export.h"
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

// The room's vertex and index data (96 bytes); `floorCorner` is the floor's
// third vertex (a NaN there makes a bad file).
std::string roomBuffer(float floorCorner = 1.0f) {
  std::string buffer;
  append(buffer, std::vector<float>{0, 0, 0, 1, 0, 0, floorCorner, 0, 1, 0, 0, 1});  // 48 bytes
  append(buffer, std::vector<uint16_t>{0, 2, 1, 0, 3, 2});                           // 12 bytes
  append(buffer, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});                     // 36 bytes
  return buffer;
}

// Two meshes: "Floor", a unit square at y = 0 (4 vertices, 2 triangles,
// material "stone"), and "Wall", one triangle standing in the x-y plane
// (material "wood"). Node "Room" (`roomTransform`: by default scale 2, then
// moved 10 along x) holds the floor and has the child "Wall" (turned 90
// degrees about y, then raised 1). `bufferUri`: where the data is; by default
// embedded. `floorCopies` more nodes hold the floor, untransformed.
struct RoomFile {
  float floorCorner = 1.0f;
  std::string roomTransform = R"("translation": [10, 0, 0], "scale": [2, 2, 2])";
  std::string bufferUri = "";
  int floorCopies = 0;
};

std::string roomGltf(const RoomFile& room = {}) {
  const float half = std::sqrt(0.5f);
  std::string sceneNodes = "0", copies;
  for (int i = 0; i < room.floorCopies; ++i) {
    sceneNodes += ", " + std::to_string(2 + i);
    copies += R"(,
    {"name": "Copy", "mesh": 0})";
  }
  const std::string uri = room.bufferUri.empty() ? "data:application/octet-stream;base64," +
                                                       base64(roomBuffer(room.floorCorner))
                                                 : room.bufferUri;
  std::ostringstream json;
  json << R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [)"
       << sceneNodes << R"(]}],
  "nodes": [
    {"name": "Room", "mesh": 0, "children": [1], )"
       << room.roomTransform << R"(},
    {"name": "Wall", "mesh": 1, "translation": [0, 1, 0], "rotation": [0, )"
       << half << ", 0, " << half << R"(]})" << copies << R"(
  ],
  "meshes": [
    {"name": "Floor", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]},
    {"name": "Wall", "primitives": [{"attributes": {"POSITION": 2}, "material": 1}]}
  ],
  "materials": [{"name": "stone"}, {"name": "wood"}],
  "buffers": [{"byteLength": 96, "uri": ")"
       << uri << R"("}],
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
  EXPECT_EQ(room.declaredFrame, "");
}

// Writes the generated OBJ text, its sidecar and the same level as .glb
// beside it (one sidecar serves both); the .obj's path.
std::string writeBothFormats(const std::string& stem, const std::string& objText,
                             const std::string& sidecarJson) {
  const std::string obj = scratch(stem + ".obj");
  writeFile(obj, objText);
  writeFile(scratch(stem + ".json"), sidecarJson);
  const Result<Level> level = parseObj(objText, obj);
  EXPECT_TRUE(level) << level.error();
  if (level) {
    const Result<size_t> written = writeSceneFile(scratch(stem + ".glb"), level.value());
    EXPECT_TRUE(written) << written.error();
  }
  return obj;
}

std::vector<uint8_t> builtGraphBytes(const Level& level) {
  const CollisionWorld world(level);
  const Result<NavBuild> build = buildNavigation(level, world, defaultFillParams(level));
  EXPECT_TRUE(build) << level.source << ": " << build.error();
  return build ? serializeNavGraph(build.value().graph) : std::vector<uint8_t>{};
}

// The same level from the .obj and the .glb: the same corners (bit for bit),
// materials and sidecar, and the same built graph, byte for byte.
void expectSameLevelAndBuild(const std::string& objPath) {
  const std::string glbPath = objPath.substr(0, objPath.size() - 4) + ".glb";
  const Result<Level> fromObj = loadLevel(objPath);
  const Result<Level> fromGlb = loadLevel(glbPath);
  ASSERT_TRUE(fromObj) << fromObj.error();
  ASSERT_TRUE(fromGlb) << fromGlb.error();
  const Level& obj = fromObj.value();
  const Level& glb = fromGlb.value();
  ASSERT_EQ(obj.triangles.size(), glb.triangles.size());
  for (uint32_t t = 0; t < obj.triangles.size(); ++t) {
    for (int c = 0; c < 3; ++c)
      ASSERT_EQ(obj.corner(t, c), glb.corner(t, c)) << "triangle " << t << " corner " << c;
    ASSERT_EQ(obj.materials[obj.triangles[t].material], glb.materials[glb.triangles[t].material])
        << "triangle " << t;
  }
  EXPECT_EQ(obj.bounds.min, glb.bounds.min);
  EXPECT_EQ(obj.bounds.max, glb.bounds.max);
  EXPECT_EQ(obj.settings.cellSize, glb.settings.cellSize);
  EXPECT_EQ(obj.settings.seeds, glb.settings.seeds);
  const std::vector<uint8_t> objGraph = builtGraphBytes(obj);
  EXPECT_FALSE(objGraph.empty());
  EXPECT_TRUE(objGraph == builtGraphBytes(glb)) << "the .glb built another graph";
}

TEST(SceneFiles, TerrainAsGlbBuildsTheSameGraphAsObj) {
  for (uint32_t seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    TerrainParams params;
    params.seed = seed;
    std::ostringstream obj;
    const Result<TerrainInfo> terrain = generateTerrain(params, obj);
    ASSERT_TRUE(terrain) << terrain.error();
    expectSameLevelAndBuild(
        writeBothFormats("terrain" + std::to_string(seed), obj.str(), terrain.value().sidecarJson));
  }
}

TEST(SceneFiles, CityAsGlbBuildsTheSameGraphAsObj) {
  CityParams params;
  params.targetCells = 20'000;
  params.seed = 3;
  std::ostringstream obj;
  const Result<CityInfo> city = generateCity(params, obj);
  ASSERT_TRUE(city) << city.error();
  expectSameLevelAndBuild(writeBothFormats("city3", obj.str(), city.value().sidecarJson));
}

TEST(SceneFiles, FbxRoundTripKeepsCornersAndMaterials) {
  TerrainParams params;
  params.seed = 4;
  std::ostringstream obj;
  ASSERT_TRUE(generateTerrain(params, obj));
  const Result<Level> level = parseObj(obj.str(), "terrain4.obj");
  ASSERT_TRUE(level) << level.error();
  const std::string fbxPath = scratch("terrain4.FBX");
  const Result<size_t> written = writeSceneFile(fbxPath, level.value());
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(written.value(), std::filesystem::file_size(fbxPath));
  const Result<Level> fbx = loadLevel(fbxPath);
  ASSERT_TRUE(fbx) << fbx.error();
  const Level& original = level.value();
  const Level& read = fbx.value();
  ASSERT_EQ(read.triangles.size(), original.triangles.size());
  for (uint32_t t = 0; t < read.triangles.size(); ++t) {
    // ASCII FBX writes decimals that come back within a float's last bit.
    for (int c = 0; c < 3; ++c) {
      const glm::vec3 a = read.corner(t, c), b = original.corner(t, c);
      for (int axis = 0; axis < 3; ++axis) {
        ASSERT_NEAR(a[axis], b[axis], 1e-6f * std::max(1.0f, std::abs(b[axis])))
            << "triangle " << t << " corner " << c << " axis " << axis;
      }
    }
    ASSERT_EQ(read.materials[read.triangles[t].material],
              original.materials[original.triangles[t].material])
        << "triangle " << t;
    // Each triangle is a face of its own in the file.
    ASSERT_EQ(read.triangles[t].face, t);
  }
}

// Which way triangle t faces, by its corners' order (right-handed).
glm::vec3 facing(const Level& level, uint32_t t) {
  const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
  return glm::cross(b - a, c - a);
}

// A node scaled by -2 along x mirrors the room: its floor still faces up.
TEST(SceneFiles, AMirroringNodeKeepsFacesTurnedAsTheyWere) {
  const std::string path = scratch("mirrored_room.gltf");
  RoomFile room;
  room.roomTransform = R"("scale": [-2, 2, 2])";
  writeFile(path, roomGltf(room));
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level) << level.error();
  ASSERT_EQ(level.value().triangles.size(), 3u);
  for (uint32_t t = 0; t < 2; ++t) {
    EXPECT_GT(facing(level.value(), t).y, 0.0f) << "floor triangle " << t;
    for (int c = 0; c < 3; ++c)
      EXPECT_LE(level.value().corner(t, c).x, 0.0f);
  }
}

// A small level: a 4 x 3 m floor facing up and a ramp rising 2 m over 4.
const char kFloorAndRamp[] =
    "v 0 0 0\nv 4 0 0\nv 4 0 3\nv 0 0 3\nv 4 2 7\nv 0 2 7\n"
    "f 1 4 3 2\nf 4 6 5 3\n";

// The level written as FBX after `toFile` moved its points, with the text of
// its GlobalSettings edited (each `from` replaced once by its `to`); the path.
template <class ToFile>
std::string fbxDeclaring(const std::string& name, ToFile toFile,
                         const std::vector<std::pair<std::string, std::string>>& edits) {
  Result<Level> level = parseObj(kFloorAndRamp, "floor_and_ramp.obj");
  EXPECT_TRUE(level) << level.error();
  for (glm::vec3& v : level.value().vertices)
    v = toFile(v);
  const std::string path = scratch(name);
  const Result<size_t> written = writeSceneFile(path, level.value());
  EXPECT_TRUE(written) << written.error();
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  writeFile(path, text);
  return path;
}

std::pair<std::string, std::string> declare(const std::string& key, const std::string& type,
                                            const std::string& from, const std::string& to) {
  const std::string kind = type == "int" ? R"("int", "Integer")" : R"("double", "Number")";
  const std::string head = "\"" + key + "\", " + kind + ", \"\", ";
  return {head + from + "\n", head + to + "\n"};
}

// A file declaring Z up (front -Y) in centimetres, and one in inches
// (UnitScaleFactor 2.54) too: each comes back as the level in metres, Y up,
// every face turned as it was.
TEST(SceneFiles, FbxAxesAndUnitAreTheOnesTheFileDeclares) {
  const Result<Level> original = parseObj(kFloorAndRamp, "floor_and_ramp.obj");
  ASSERT_TRUE(original) << original.error();
  const auto expectLevel = [&](const std::string& path, float metres, const std::string& declared) {
    const Result<Level> read = loadLevel(path);
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read.value().declaredFrame, declared);
    ASSERT_EQ(read.value().triangles.size(), original.value().triangles.size());
    for (uint32_t t = 0; t < read.value().triangles.size(); ++t) {
      for (int c = 0; c < 3; ++c) {
        const glm::vec3 a = read.value().corner(t, c), b = original.value().corner(t, c) * metres;
        EXPECT_NEAR(glm::distance(a, b), 0.0f, 1e-5f)
            << path << " triangle " << t << " corner " << c;
      }
      EXPECT_GT(facing(read.value(), t).y, 0.0f) << path << " triangle " << t;
    }
  };
  const std::string zUp =
      fbxDeclaring("z_up.fbx", [](glm::vec3 v) { return glm::vec3(v.x, -v.z, v.y); },
                   {declare("UpAxis", "int", "1", "2"), declare("FrontAxis", "int", "2", "1"),
                    declare("FrontAxisSign", "int", "1", "-1")});
  expectLevel(zUp, 1.0f, "Z up, 0.01 m a unit (FBX GlobalSettings)");
  const std::string inches = fbxDeclaring("inches.fbx", [](glm::vec3 v) { return v; },
                                          {declare("UnitScaleFactor", "double", "1", "2.54")});
  expectLevel(inches, 2.54f, "Y up, 0.0254 m a unit (FBX GlobalSettings)");
  // Declared left-handed (X to the left): the same points, the faces as turned.
  const std::string mirrored =
      fbxDeclaring("mirrored.fbx", [](glm::vec3 v) { return glm::vec3(-v.x, v.y, v.z); },
                   {declare("CoordAxisSign", "int", "1", "-1")});
  expectLevel(mirrored, 1.0f, "Y up, 0.01 m a unit, left-handed (FBX GlobalSettings)");
}

void expectRefused(const std::string& path, const std::vector<std::string>& says,
                   const LoadLimits& limits = {}) {
  const Result<Level> level = loadLevel(path, limits);
  ASSERT_FALSE(level) << path;
  EXPECT_EQ(level.error().rfind(path + ": ", 0), 0u) << level.error();
  for (const std::string& part : says)
    EXPECT_NE(level.error().find(part), std::string::npos) << level.error();
}

TEST(SceneFiles, FbxAxesOrUnitThatMakeNoSenseAreRefused) {
  const auto same = [](glm::vec3 v) { return v; };
  const std::string twice =
      fbxDeclaring("two_up.fbx", same, {declare("FrontAxis", "int", "2", "1")});
  expectRefused(twice, {"UpAxis 1, FrontAxis 1 and CoordAxis 0 do not name three different axes"});
  const std::string fourth = fbxDeclaring("fourth.fbx", same, {declare("UpAxis", "int", "1", "3")});
  expectRefused(fourth, {"do not name three different axes"});
  const std::string sign = fbxDeclaring("sign.fbx", same, {declare("UpAxisSign", "int", "1", "0")});
  expectRefused(sign, {"axis signs must be 1 or -1, not 0"});
  // Assimp refuses 0 itself, naming the key.
  const std::string zero =
      fbxDeclaring("zero_unit.fbx", same, {declare("UnitScaleFactor", "double", "1", "0")});
  expectRefused(zero, {"UnitScaleFactor"});
  const std::string negative =
      fbxDeclaring("negative_unit.fbx", same, {declare("UnitScaleFactor", "double", "1", "-2")});
  expectRefused(negative, {"UnitScaleFactor -2 is no unit"});
  const std::string nan =
      fbxDeclaring("nan_unit.fbx", same, {declare("UnitScaleFactor", "double", "1", "nan")});
  expectRefused(nan, {"is no unit"});
}

TEST(SceneFiles, MissingFilesDirectoriesAndFifosAreRefused) {
  expectRefused(scratch("missing.glb"), {"file not found"});
  const std::string folder = scratch("folder.gltf");
  std::filesystem::create_directories(folder);
  expectRefused(folder, {"directory"});
  // No writer: opening it to read would block for ever.
  const std::string fifo = scratch("pipe.fbx");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expectRefused(fifo, {"is a FIFO (named pipe), not a regular file"});
  std::filesystem::remove(fifo);
}

TEST(SceneFiles, BrokenFilesAreRefusedByName) {
  const std::string garbage = scratch("garbage.gltf");
  writeFile(garbage, std::string("\x01\x02 not json at all {{{", 22));
  expectRefused(garbage, {});

  // Another format under a scene file's name: Assimp would try every importer
  // it has on it, and some read past their buffers (a fuzzer's OpenGEX text).
  const std::string objText = scratch("obj_text.gltf");
  writeFile(objText, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  expectRefused(objText, {});

  // A .glb cut in half.
  const std::string whole = scratch("whole.glb");
  TerrainParams params;
  std::ostringstream obj;
  ASSERT_TRUE(generateTerrain(params, obj));
  const Result<Level> level = parseObj(obj.str(), "terrain.obj");
  ASSERT_TRUE(level) << level.error();
  ASSERT_TRUE(writeSceneFile(whole, level.value()));
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string truncated = scratch("truncated.glb");
  writeFile(truncated, bytes.substr(0, bytes.size() / 2));
  expectRefused(truncated, {"the header says " + std::to_string(bytes.size()) +
                            " bytes, the file has " + std::to_string(bytes.size() / 2)});

  // A chunk stating 1.6 GB in a file of a few kilobytes is refused before
  // Assimp allocates what it states (a fuzzer found it doing so).
  std::string stretched = bytes;
  const uint32_t huge = 0x60000000u;
  for (size_t i = 0; i < 4; ++i)
    stretched[12 + i] = char(uint8_t(huge >> (8 * i)));
  const std::string pastTheEnd = scratch("past_the_end.glb");
  writeFile(pastTheEnd, stretched);
  expectRefused(pastTheEnd,
                {"the chunk at byte 12 says 1610612736 bytes, past the end of the file"});

  const std::string empty = scratch("empty.glb");
  writeFile(empty, "");
  expectRefused(empty, {});
}

TEST(SceneFiles, BadGeometryNamesTheMeshAndNode) {
  const std::string notANumber = scratch("nan.gltf");
  writeFile(notANumber, roomGltf({.floorCorner = std::nanf("")}));
  expectRefused(notANumber, {"mesh 'Floor'", "node '", "Room'", "vertex 2 is not finite"});

  // Finite in the file, infinite once the room's scale of 2 is applied.
  const std::string huge = scratch("huge.gltf");
  writeFile(huge, roomGltf({.floorCorner = 3e38f}));
  expectRefused(huge, {"mesh 'Floor'", "vertex 2 is not finite after the node transforms"});

  // Finite, but twice 1e8 m out once scaled: past what a level may span.
  const std::string far = scratch("far.gltf");
  writeFile(far, roomGltf({.floorCorner = 1e8f}));
  expectRefused(far, {"mesh 'Floor'", "vertex 2 lies more than 1e8 m from the origin after"});

  const std::string room = scratch("limited.gltf");
  writeFile(room, roomGltf());
  LoadLimits limits;
  limits.maxTriangles = 2;
  expectRefused(room, {"mesh 'Wall'", "Room/Wall'", "LoadLimits::maxTriangles"}, limits);
  limits = {};
  limits.maxFileBytes = 100;
  expectRefused(room, {"LoadLimits::maxFileBytes"}, limits);
}

TEST(SceneFiles, TransformsCloseToTheIdentityAreApplied) {
  // Assimp's own identity test would let this 5 mm shift pass as none.
  const std::string path = scratch("shifted.gltf");
  writeFile(path, roomGltf({.roomTransform = R"("translation": [0.005, 0, 0])"}));
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level) << level.error();
  expectNear(level.value().corner(0, 0), {0.005f, 0, 0});
  expectNear(level.value().corner(0, 1), {1.005f, 0, 1});
}

TEST(SceneFiles, EveryPlacementOfAMeshCountsTowardsTheLimit) {
  // The floor (2 faces) placed 6 times and the wall (1 face) once: 13 faces.
  const std::string path = scratch("copies.gltf");
  writeFile(path, roomGltf({.floorCopies = 5}));
  LoadLimits limits;
  limits.maxTriangles = 13;
  const Result<Level> level = loadLevel(path, limits);
  ASSERT_TRUE(level) << level.error();
  EXPECT_EQ(level.value().triangles.size(), 13u);
  limits.maxTriangles = 12;
  expectRefused(path, {"mesh 'Floor'", "/Copy'", "LoadLimits::maxTriangles"}, limits);
}

TEST(SceneFiles, BuffersCountTowardsTheFileLimitOnce) {
  const std::string buffer = scratch("room.bin");
  writeFile(buffer, roomBuffer());
  // The same buffer named two ways is one file.
  const std::string path = scratch("external.gltf");
  std::string text = roomGltf({.bufferUri = "room.bin"});
  const std::string oneBuffer = R"("buffers": [{"byteLength": 96, "uri": "room.bin"}])";
  const size_t at = text.find(oneBuffer);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, oneBuffer.size(),
               R"("buffers": [{"byteLength": 96, "uri": "room.bin"}, )"
               R"({"byteLength": 96, "uri": "./room.bin"}])");
  writeFile(path, text);
  LoadLimits limits;
  limits.maxFileBytes = text.size() + 96;
  const Result<Level> level = loadLevel(path, limits);
  ASSERT_TRUE(level) << level.error();
  EXPECT_EQ(level.value().triangles.size(), 3u);
  // Each file fits on its own, not together.
  limits.maxFileBytes = text.size() + 95;
  expectRefused(path, {"room.bin", "(the scene's files together)"}, limits);
}

}  // namespace
}  // namespace nav
