#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>

#include "nav/level.h"
#include "nav/unit_profile.h"
#include "test_levels.h"

namespace nav {
namespace {

namespace fs = std::filesystem;

/// A fresh folder under the system temp directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    m_path = fs::temp_directory_path() / ("navscope_test_level_" + std::to_string(::getpid()) +
                                          "_" + std::to_string(counter++));
    fs::remove_all(m_path);
    fs::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to a file in the folder and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = m_path / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

double triangleArea(const Level& level, uint32_t t) {
  const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
  return 0.5 * glm::length(glm::cross(b - a, c - a));
}

glm::dvec3 triangleNormal(const Level& level, uint32_t t) {
  const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
  return glm::cross(b - a, c - a);
}

double totalArea(const Level& level) {
  double sum = 0.0;
  for (uint32_t t = 0; t < level.triangles.size(); ++t)
    sum += triangleArea(level, t);
  return sum;
}

/// Shoelace formula: the independent answer for a planar polygon's area.
double shoelaceArea(const std::vector<glm::dvec2>& polygon) {
  double twice = 0.0;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const glm::dvec2 p = polygon[i], q = polygon[(i + 1) % polygon.size()];
    twice += p.x * q.y - q.x * p.y;
  }
  return 0.5 * std::abs(twice);
}

Level parseOk(const std::string& text) {
  Result<Level> level = parseObj(text, "test.obj");
  EXPECT_TRUE(level.ok()) << level.error();
  return level ? std::move(level).value() : Level{};
}

std::string parseError(const std::string& text, const LoadLimits& limits = {}) {
  const Result<Level> level = parseObj(text, "bad.obj", limits);
  EXPECT_FALSE(level.ok());
  return level ? std::string() : level.error();
}

// --- geometry ------------------------------------------------------------

TEST(LevelObj, SingleTriangle) {
  const Level level = parseOk("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  ASSERT_EQ(level.vertices.size(), 3u);
  ASSERT_EQ(level.triangles.size(), 1u);
  EXPECT_EQ(level.triangles[0].vertex[0], 0u);
  EXPECT_EQ(level.triangles[0].vertex[1], 1u);
  EXPECT_EQ(level.triangles[0].vertex[2], 2u);
  EXPECT_EQ(level.triangles[0].material, 0);
  EXPECT_EQ(level.source, "test.obj");
  EXPECT_EQ(level.bounds.min, glm::vec3(0, 0, 0));
  EXPECT_EQ(level.bounds.max, glm::vec3(1, 0, 1));
}

TEST(LevelObj, QuadBecomesTwoTriangles) {
  const Level level = parseOk("v 0 0 0\nv 2 0 0\nv 2 0 3\nv 0 0 3\nf 1 2 3 4\n");
  ASSERT_EQ(level.triangles.size(), 2u);
  EXPECT_NEAR(totalArea(level), 6.0, 1e-9);
}

TEST(LevelObj, ConvexPentagon) {
  std::string text;
  std::vector<glm::dvec2> flat;
  for (int i = 0; i < 5; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / 5.0;
    flat.emplace_back(std::cos(angle), std::sin(angle));
    text += "v " + std::to_string(flat.back().x) + " 1 " + std::to_string(flat.back().y) + "\n";
  }
  text += "f 1 2 3 4 5\n";
  const Level level = parseOk(text);
  ASSERT_EQ(level.triangles.size(), 3u);
  // std::to_string rounds to 6 decimals, so compare with the rounded polygon.
  std::vector<glm::dvec2> rounded;
  for (const glm::vec3& v : level.vertices)
    rounded.emplace_back(v.x, v.z);
  EXPECT_NEAR(totalArea(level), shoelaceArea(rounded), 1e-5);
}

/// Writes a 2D polygon into the plane spanned by u and v at `origin` as one OBJ face.
std::string polygonObj(const std::vector<glm::dvec2>& polygon, glm::dvec3 origin, glm::dvec3 u,
                       glm::dvec3 v) {
  std::string text;
  char line[128];
  for (const glm::dvec2& p : polygon) {
    const glm::dvec3 q = origin + p.x * u + p.y * v;
    std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", q.x, q.y, q.z);
    text += line;
  }
  text += "f";
  // Appending the pieces separately also dodges GCC 12's false -Wrestrict on " " + string.
  for (size_t i = 1; i <= polygon.size(); ++i) {
    text += ' ';
    text += std::to_string(i);
  }
  return text + "\n";
}

void expectTriangulatesExactly(const std::vector<glm::dvec2>& polygon) {
  const double expected = shoelaceArea(polygon);
  // Horizontal, vertical and tilted planes, both windings: the dominant-plane
  // projection must handle every orientation.
  const glm::dvec3 tiltedU = glm::normalize(glm::dvec3(1, 0.3, 0.2));
  const glm::dvec3 tiltedV = glm::normalize(glm::cross(tiltedU, glm::dvec3(0.1, 1, -0.4)));
  const std::pair<glm::dvec3, glm::dvec3> planes[] = {
      {{1, 0, 0}, {0, 0, 1}}, {{0, 0, 1}, {1, 0, 0}}, {{1, 0, 0}, {0, 1, 0}},
      {{0, 1, 0}, {0, 0, 1}}, {tiltedU, tiltedV},     {tiltedV, tiltedU}};
  for (const auto& [u, v] : planes) {
    const Level level = parseOk(polygonObj(polygon, {3, -2, 5}, u, v));
    SCOPED_TRACE(::testing::Message() << "plane u=(" << u.x << "," << u.y << "," << u.z << ")");
    EXPECT_EQ(level.triangles.size(), polygon.size() - 2);
    // Unsigned areas: a wrong triangulation (a fan over a reflex corner)
    // covers some region twice and the sum exceeds the polygon's area.
    EXPECT_NEAR(totalArea(level), expected, 1e-5 * expected);
    // Every triangle keeps the polygon's winding.
    const glm::dvec3 polygonNormal = glm::cross(u, v);
    for (uint32_t t = 0; t < level.triangles.size(); ++t) {
      EXPECT_GT(glm::dot(triangleNormal(level, t), polygonNormal), 0.0) << "triangle " << t;
    }
  }
}

TEST(LevelObj, ConcavePolygonAreaMatches) {
  // A "U" whose reflex corners make fan triangulation from vertex 0 wrong.
  expectTriangulatesExactly({{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}});
  // A comb starting at a reflex vertex.
  expectTriangulatesExactly({{1, 1},
                             {1, 4},
                             {0, 4},
                             {0, 0},
                             {5, 0},
                             {5, 4},
                             {4, 4},
                             {4, 1},
                             {3, 1},
                             {3, 4},
                             {2, 4},
                             {2, 1}});
  // A five-pointed star (ten vertices, five reflex).
  std::vector<glm::dvec2> star;
  for (int i = 0; i < 10; ++i) {
    const double angle = std::numbers::pi * i / 5.0;
    const double radius = i % 2 == 0 ? 2.0 : 0.8;
    star.emplace_back(radius * std::cos(angle), radius * std::sin(angle));
  }
  expectTriangulatesExactly(star);
}

TEST(LevelObj, CollinearCornersAndDegenerateFaces) {
  // A square with a midpoint on each edge: 8 corners, 4 of them collinear.
  expectTriangulatesExactly({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}});
  // Repeated indices and collinear faces have zero area and are dropped.
  const Level level = parseOk(
      "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\n"
      "f 1 1 2\nf 1 2 3\nf 1 2 3 2\nf 1 2 4\n");
  ASSERT_EQ(level.triangles.size(), 1u);
  EXPECT_NEAR(totalArea(level), 0.5, 1e-9);
}

TEST(LevelObj, NegativeIndicesCountBackFromTheLastVertex) {
  const Level level = parseOk(
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
      "f -4 -3 -2 -1\n"
      "v 5 0 5\nv 6 0 5\nv 5 0 6\n"
      "f -3 -2 -1\n"
      "f 1 -1 -2\n");
  ASSERT_EQ(level.triangles.size(), 4u);
  EXPECT_NEAR(totalArea(level), 1.0 + 0.5 + triangleArea(level, 3), 1e-9);
  EXPECT_EQ(level.triangles[2].vertex[0], 4u);
  EXPECT_EQ(level.triangles[2].vertex[1], 5u);
  EXPECT_EQ(level.triangles[2].vertex[2], 6u);
  EXPECT_EQ(level.triangles[3].vertex[0], 0u);
  EXPECT_EQ(level.triangles[3].vertex[1], 6u);
  EXPECT_EQ(level.triangles[3].vertex[2], 5u);
}

TEST(LevelObj, TextureAndNormalIndexForms) {
  const Level level = parseOk(
      "v 0 0 0\nv 1 0 0\nv 0 0 1\n"
      "vt 0 0\nvt 1 0\nvt 0 1\n"
      "vn 0 1 0\n"
      "f 1/1/1 2/2/1 3/3/1\n"
      "f 1//1 2//1 3//1\n"
      "f 1/1 2/2 3/3\n"
      "f -3/-3/-1 -2/-2/-1 -1/-1/-1\n");
  ASSERT_EQ(level.triangles.size(), 4u);
  for (const LevelTriangle& triangle : level.triangles) {
    EXPECT_EQ(triangle.vertex[0], 0u);
    EXPECT_EQ(triangle.vertex[1], 1u);
    EXPECT_EQ(triangle.vertex[2], 2u);
  }
}

TEST(LevelObj, MaterialsArePerTriangle) {
  const Level level = parseOk(
      "mtllib missing.mtl\n"
      "v 0 0 0\nv 1 0 0\nv 0 0 1\n"
      "f 1 2 3\n"
      "usemtl stone\nf 1 2 3\n"
      "usemtl  grass floor \nf 1 2 3\n"
      "usemtl stone\nf 1 2 3\n");
  ASSERT_EQ(level.materials.size(), 3u);
  EXPECT_EQ(level.materials[0], "");
  EXPECT_EQ(level.materials[1], "stone");
  EXPECT_EQ(level.materials[2], "grass floor");
  ASSERT_EQ(level.triangles.size(), 4u);
  EXPECT_EQ(level.triangles[0].material, 0);
  EXPECT_EQ(level.triangles[1].material, 1);
  EXPECT_EQ(level.triangles[2].material, 2);
  EXPECT_EQ(level.triangles[3].material, 1);
}

TEST(LevelObj, CrlfLineEndingsCommentsAndIgnoredStatements) {
  const Level level = parseOk(
      "# exported by hand\r\n"
      "mtllib level.mtl\r\n"
      "o room\r\n"
      "g floor walls\r\n"
      "s off\r\n"
      "  v 0 0 0\r\n"
      "\tv 1 0 0 1.0\r\n"
      "v +2 0 1e0\r\n"
      "vp 0.5 0.5\r\n"
      "\r\n"
      "   # indented comment\r\n"
      "l 1 2\r\n"
      "f 1 2 3\r\n");
  ASSERT_EQ(level.triangles.size(), 1u);
  EXPECT_EQ(level.vertices[2], glm::vec3(2, 0, 1));
}

// A byte-order mark before the first statement does not hide it, and line
// numbers still count from it.
TEST(LevelObj, AByteOrderMarkIsSkipped) {
  const Level level = parseOk("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  ASSERT_EQ(level.vertices.size(), 3u);
  EXPECT_EQ(level.vertices[0], glm::vec3(0, 0, 0));
  ASSERT_EQ(level.triangles.size(), 1u);
  const std::string error = parseError("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n");
  EXPECT_EQ(error.rfind("bad.obj:4: ", 0), 0u) << error;
}

// A backslash at a line's end continues the statement on the next line (as
// some exporters write long faces), with CRLF too; messages still name the
// file's lines; a comment ending in a backslash (a Windows path) ends there.
TEST(LevelObj, ABackslashContinuesAStatement) {
  const Level quad = parseOk("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 \\\n 4 3\n");
  EXPECT_EQ(quad.triangles.size(), 2u);
  const Level crlf = parseOk("v 0 0 0\r\nv 1 \\\r\n 0 0\r\nv 0 0 1\r\nf 1 \\\r\n2 3\r\n");
  ASSERT_EQ(crlf.vertices.size(), 3u);
  EXPECT_EQ(crlf.vertices[1], glm::vec3(1, 0, 0));
  EXPECT_EQ(crlf.triangles.size(), 1u);
  const std::string error = parseError("v 0 0 0\nv 1 \\\n 0 0\nv 0 0 1\nf 1 2 9\n");
  EXPECT_EQ(error.rfind("bad.obj:5: ", 0), 0u) << error;
  const std::string malformed = parseError("v 0 0 0\nv 1 \\\n 0 zero\nv 0 0 1\nf 1 2 3\n");
  EXPECT_EQ(malformed.rfind("bad.obj:2: ", 0), 0u) << malformed;
  const Level commented = parseOk("# from C:\\levels\\\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  EXPECT_EQ(commented.vertices.size(), 3u);
}

// 300,000 lines of a lone backslash join into one line of blanks: read in
// time linear in the file (each join once looked back over the whole line
// for a comment: a fuzzed file held the CLI for minutes), then refused for
// its missing faces. A face continued over 10,000 lines is read too.
TEST(LevelObj, ThousandsOfContinuedLinesAreJoinedInLinearTime) {
  std::string lone;
  for (int i = 0; i < 300'000; ++i)
    lone += "\\\n";
  const std::string error = parseError(lone);
  EXPECT_NE(error.find("no triangles"), std::string::npos) << error;
  std::string face = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf";
  for (int i = 0; i < 10'000; ++i)
    face += " \\\n";
  face += "1 2 3\n";
  EXPECT_EQ(parseOk(face).triangles.size(), 1u);
}

// A 20,000-digit token is quoted cut, its length said: the message stays a
// line (the debugger aborted drawing one of 20,000 characters).
TEST(LevelObjError, ALongTokenIsQuotedCut) {
  std::string text = "v ";
  text.append(20'000, '1');
  text += " 0 0\n";
  const std::string error = parseError(text);
  EXPECT_EQ(error.rfind("bad.obj:1: malformed vertex coordinate '111", 0), 0u) << error;
  EXPECT_NE(error.find("...' (20000 characters)"), std::string::npos) << error;
  EXPECT_LT(error.size(), 200u);
}

TEST(LevelObj, BoundsCoverOnlyVerticesUsedByTriangles) {
  const Level level = parseOk("v 0 0 0\nv 1 2 0\nv 0 0 1\nv 100 100 100\nf 1 2 3\n");
  EXPECT_EQ(level.bounds.min, glm::vec3(0, 0, 0));
  EXPECT_EQ(level.bounds.max, glm::vec3(1, 2, 1));
}

// --- errors with line numbers -------------------------------------------

TEST(LevelObjError, IndexOutOfRangeNamesTheLine) {
  const std::string error = parseError("v 0 0 0\nv 1 0 0\nv 0 0 1\n# c\nf 1 2 9\n");
  EXPECT_EQ(error.rfind("bad.obj:5: ", 0), 0u) << error;
  EXPECT_NE(error.find("9"), std::string::npos) << error;
}

TEST(LevelObjError, NegativeIndexOutOfRange) {
  const std::string error = parseError("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -1 -2 -4\n");
  EXPECT_EQ(error.rfind("bad.obj:4: ", 0), 0u) << error;
  EXPECT_NE(error.find("-4"), std::string::npos) << error;
}

TEST(LevelObjError, ForwardReferenceIsOutOfRange) {
  const std::string error = parseError("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 0 1\n");
  EXPECT_EQ(error.rfind("bad.obj:1: ", 0), 0u) << error;
}

TEST(LevelObjError, ZeroIndex) {
  const std::string error = parseError("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n\nf 0 1 2\n");
  EXPECT_EQ(error.rfind("bad.obj:6: ", 0), 0u) << error;
  EXPECT_NE(error.find("index 0"), std::string::npos) << error;
}

TEST(LevelObjError, TooFewVertices) {
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0 0\nf 1 2\n").rfind("bad.obj:3: ", 0), 0u);
  EXPECT_EQ(parseError("v 0 0 0\nf \n").rfind("bad.obj:2: ", 0), 0u);
}

TEST(LevelObjError, NonFiniteCoordinates) {
  for (const char* value : {"nan", "-nan", "inf", "-inf", "infinity", "1e39", "1e400"}) {
    const std::string error =
        parseError("v 0 0 0\nv 1 " + std::string(value) + " 0\nv 0 0 1\nf 1 2 3\n");
    EXPECT_EQ(error.rfind("bad.obj:2: ", 0), 0u) << value << ": " << error;
    EXPECT_NE(error.find(value), std::string::npos) << error;
  }
}

// Finite, but so far out that distances overflow and no cell could be placed.
TEST(LevelObjError, CoordinatesBeyondTheLevelLimit) {
  for (const char* value : {"1.5e8", "-3e38", "1e30"}) {
    const std::string error =
        parseError("v 0 0 0\nv 1 0 " + std::string(value) + "\nv 0 0 1\nf 1 2 3\n");
    EXPECT_EQ(error.rfind("bad.obj:2: ", 0), 0u) << value << ": " << error;
    EXPECT_NE(error.find("1e8 m"), std::string::npos) << error;
  }
  EXPECT_EQ(parseOk("v 0 0 0\nv 1 0 9.9e7\nv 0 0 1\nf 1 2 3\n").vertices.size(), 3u);
}

TEST(LevelObjError, MalformedVertex) {
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0\nv 0 0 1\nf 1 2 3\n").rfind("bad.obj:2: ", 0), 0u);
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0 x\nv 0 0 1\nf 1 2 3\n").rfind("bad.obj:2: ", 0), 0u);
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0 2abc\n").rfind("bad.obj:2: ", 0), 0u);
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0 +-2\n").rfind("bad.obj:2: ", 0), 0u);
  EXPECT_EQ(parseError("v 0 0 0\nv 1 0 0x10\n").rfind("bad.obj:2: ", 0), 0u);
}

TEST(LevelObjError, MalformedFaceTokens) {
  const std::string vertices = "v 0 0 0\nv 1 0 0\nv 0 0 1\n";
  for (const char* face : {"f 1 2 a", "f 1 2 3/4/5/6", "f 1 2 /3", "f 1 2 99999999999",
                           "f 1 2 3 # trailing comment"}) {
    const std::string error = parseError(vertices + face + "\n");
    EXPECT_EQ(error.rfind("bad.obj:4: ", 0), 0u) << face << ": " << error;
  }
}

TEST(LevelObjError, HugePolygonIsRefused) {
  std::string text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf";
  for (int i = 0; i < 5000; ++i) {
    text += ' ';
    text += std::to_string(1 + i % 3);
  }
  const std::string error = parseError(text + "\n");
  EXPECT_EQ(error.rfind("bad.obj:4: ", 0), 0u) << error;
  EXPECT_NE(error.find("5000"), std::string::npos) << error;
}

TEST(LevelObjError, LineNumbersCountCrlfAndLoneCr) {
  EXPECT_EQ(parseError("v 0 0 0\r\nv 1 0 0\r\nv 0 0 1\r\n\r\nf 1 2 7\r\n").rfind("bad.obj:5: ", 0),
            0u);
  EXPECT_EQ(parseError("v 0 0 0\rv 1 0 0\rv 0 0 1\rf 1 2 7\r").rfind("bad.obj:4: ", 0), 0u);
}

TEST(LevelObjError, EmptyLevel) {
  EXPECT_NE(parseError("").find("no triangles"), std::string::npos);
  EXPECT_NE(parseError("# nothing\nv 0 0 0\nv 1 0 0\n").find("no triangles"), std::string::npos);
  EXPECT_NE(parseError("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n").find("no triangles"),
            std::string::npos);
}

TEST(LevelObjError, TriangleLimit) {
  LoadLimits limits;
  limits.maxTriangles = 1;
  const std::string error = parseError("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n", limits);
  EXPECT_EQ(error.rfind("bad.obj:5: ", 0), 0u) << error;
  EXPECT_NE(error.find("maxTriangles"), std::string::npos) << error;
}

TEST(LevelObjError, BinaryText) {
  const std::string text("v 0 0 0\nv 1\0 0 0\n", 18);
  EXPECT_EQ(parseError(text).rfind("bad.obj:2: ", 0), 0u);
}

TEST(LevelObjError, MutatedFilesNeverBreakTheLoader) {
  const std::string base =
      "# room\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 2 1 2\nusemtl stone\n"
      "f 1 2 3 4\nf -1 -2 -3\nusemtl grass\nf 1/1/1 2//2 5\nf 1 3 4 2 5\n";
  const char alphabet[] = "0123456789-+./ \t\n\r#efvnaix\0";
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> pick(0, sizeof alphabet - 1), operation(0, 2);
  for (int i = 0; i < 3000; ++i) {
    std::string text = base;
    for (int edits = 1 + i % 4; edits > 0; --edits) {
      const size_t at = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
      const char c = alphabet[pick(rng)];
      switch (operation(rng)) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + std::ptrdiff_t(at), c);
          break;
        default:
          text.erase(at, 1);
          break;
      }
    }
    const Result<Level> level = parseObj(text, "bad.obj");
    if (!level) {
      EXPECT_EQ(level.error().rfind("bad.obj:", 0), 0u) << level.error();
      continue;
    }
    for (const LevelTriangle& triangle : level.value().triangles) {
      for (uint32_t corner : triangle.vertex)
        ASSERT_LT(corner, level.value().vertices.size());
      ASSERT_LT(triangle.material, level.value().materials.size());
    }
    for (const glm::vec3& v : level.value().vertices)
      ASSERT_TRUE(isFinite(v));
    EXPECT_FALSE(level.value().bounds.empty());
  }
}

// --- files ----------------------------------------------------------------

const char* kTriangleObj = "v 0 0 0\nv 4 0 0\nv 0 0 4\nf 1 2 3\n";

TEST(LevelLoad, MissingFileNamesThePath) {
  const TempDir dir;
  const std::string path = (dir.path() / "nowhere.obj").string();
  const Result<Level> level = loadLevel(path);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find(path), std::string::npos) << level.error();
}

TEST(LevelLoad, DirectoryIsRefused) {
  const TempDir dir;
  const Result<Level> level = loadLevel(dir.path().string());
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find(dir.path().string()), std::string::npos) << level.error();
}

TEST(LevelLoad, UnreadableFileNamesThePath) {
  const TempDir dir;
  const std::string path = dir.write("locked.obj", kTriangleObj);
  fs::permissions(path, fs::perms::none);
  if (std::ifstream(path).good()) GTEST_SKIP() << "running with permission to read anything";
  const Result<Level> level = loadLevel(path);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find(path), std::string::npos) << level.error();
}

TEST(LevelLoad, OversizedFileIsRefusedBeforeReading) {
  const TempDir dir;
  const std::string path = dir.write("big.obj", kTriangleObj);
  LoadLimits limits;
  limits.maxFileBytes = 10;
  const Result<Level> level = loadLevel(path, limits);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find(path), std::string::npos) << level.error();
  EXPECT_NE(level.error().find("10 bytes"), std::string::npos) << level.error();
}

TEST(LevelLoad, ErrorsNameTheFileAndLine) {
  const TempDir dir;
  const std::string path = dir.write("broken.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n");
  const Result<Level> level = loadLevel(path);
  ASSERT_FALSE(level.ok());
  EXPECT_EQ(level.error().rfind(path + ":4: ", 0), 0u) << level.error();
}

TEST(LevelLoad, WithoutSidecar) {
  const TempDir dir;
  const std::string path = dir.write("plain.obj", kTriangleObj);
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  EXPECT_EQ(level.value().source, path);
  EXPECT_EQ(level.value().triangles.size(), 1u);
  EXPECT_TRUE(level.value().settings.seeds.empty());
  EXPECT_FALSE(level.value().settings.start.has_value());
  EXPECT_TRUE(level.value().settings.units.empty());
}

TEST(LevelLoad, PicksUpTheSidecarWithTheSameStem) {
  const TempDir dir;
  const std::string path = dir.write("room.obj", kTriangleObj);
  dir.write("room.json", R"({"seeds": [[1, 0, 1]], "start": [0.5, 0, 0.5], "cellSize": 0.25})");
  dir.write("other.json", R"({"cellSize": 99})");
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  const LevelSettings& settings = level.value().settings;
  ASSERT_EQ(settings.seeds.size(), 1u);
  EXPECT_EQ(settings.seeds[0], glm::vec3(1, 0, 1));
  EXPECT_EQ(settings.start, glm::vec3(0.5f, 0, 0.5f));
  EXPECT_EQ(settings.cellSize, 0.25f);
}

TEST(LevelLoad, BadSidecarFailsTheLoadAndNamesTheSidecar) {
  const TempDir dir;
  const std::string path = dir.write("room.obj", kTriangleObj);
  const std::string sidecar = dir.write("room.json", R"({"cellsize": 0.3})");
  const Result<Level> level = loadLevel(path);
  ASSERT_FALSE(level.ok());
  EXPECT_EQ(level.error().rfind(sidecar + ": cellsize: ", 0), 0u) << level.error();
}

TEST(LevelLoad, BundledAssetsLoadWithTheirSidecars) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    const std::string path = test::assetFile(name);
    ASSERT_TRUE(fs::exists(path)) << path;
    const Result<Level> level = loadLevel(path);
    ASSERT_TRUE(level.ok()) << level.error();
    EXPECT_GT(level.value().triangles.size(), 0u);
    if (fs::exists(fs::path(path).replace_extension(".json"))) {
      EXPECT_FALSE(level.value().settings.units.empty()) << name;
      EXPECT_TRUE(level.value().settings.cellSize.has_value()) << name;
    }
  }
}

TEST(LevelLoad, SharedDungeon) {
  const std::string path = test::sharedFile("meshes/dungeon.obj");
  if (path.empty()) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  EXPECT_GT(level.value().triangles.size(), 0u);
  EXPECT_FALSE(level.value().bounds.empty());
  EXPECT_TRUE(isFinite(level.value().bounds.min));
  EXPECT_TRUE(isFinite(level.value().bounds.max));
}

// A file whose floors are wound clockwise seen from above: its floor (two
// triangles) faces down, its ceiling (two) up, a wall quad (two) is steep,
// a 30-degree ramp (one) faces down too, and one triangle has no area.
constexpr const char* kWoundBackwardsObj =
    "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 2 3 4\n"     // floor, normal -y
    "v 0 3 0\nv 4 3 0\nv 4 3 4\nv 0 3 4\nf 5 8 7 6\n"     // ceiling, normal +y
    "v 0 0 5\nv 4 0 5\nv 4 3 5\nv 0 3 5\nf 9 10 11 12\n"  // wall
    "v 0 0 6\nv 2 0 6\nv 2 1.1547 8\nf 13 14 15\n"        // ramp, normal -y
    "f 1 2 2\n";                                          // no area

TEST(LevelFacing, FacesAreCountedByTheWayTheyTurn) {
  Level level = parseOk(kWoundBackwardsObj);
  const FacingCounts before = countFacings(level, 45.0f);
  EXPECT_EQ(before.up, 2u);
  EXPECT_EQ(before.down, 3u);
  EXPECT_EQ(before.steep, 2u);
  EXPECT_EQ(countFacings(level, 20.0f).steep, 3u) << "the ramp is steeper than 20 degrees";
  std::vector<bool> floorOnly(level.triangles.size(), false);
  floorOnly[0] = floorOnly[1] = true;
  EXPECT_EQ(countFacings(level, 45.0f, floorOnly).down, 2u);
  EXPECT_EQ(countFacings(level, 45.0f, floorOnly).up, 0u);

  setFacesFlipped(level, true);
  EXPECT_TRUE(level.settings.flipFaces);
  const FacingCounts after = countFacings(level, 45.0f);
  EXPECT_EQ(after.up, 3u);
  EXPECT_EQ(after.down, 2u);
  EXPECT_EQ(after.steep, 2u);
  EXPECT_GT(triangleNormal(level, 0).y, 0.0) << "the floor faces up";
  setFacesFlipped(level, true);
  EXPECT_EQ(countFacings(level, 45.0f).up, 3u) << "a level flipped already stays as it is";
  setFacesFlipped(level, false);
  EXPECT_FALSE(level.settings.flipFaces);
  EXPECT_EQ(countFacings(level, 45.0f).up, 2u) << "turned back as the file has it";
  EXPECT_EQ(countFacings(level, 45.0f).down, 3u);
}

TEST(LevelLoad, TheSidecarsFlipFacesTurnsTheFacesOver) {
  const TempDir dir;
  const std::string path = dir.write("room.obj", kWoundBackwardsObj);
  dir.write("room.json", R"({"flipFaces": true})");
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  EXPECT_TRUE(level.value().settings.flipFaces);
  EXPECT_EQ(countFacings(level.value(), 45.0f).up, 3u);

  dir.write("room.json", R"({"flipFaces": false})");
  const Result<Level> kept = loadLevel(path);
  ASSERT_TRUE(kept.ok()) << kept.error();
  EXPECT_FALSE(kept.value().settings.flipFaces);
  EXPECT_EQ(countFacings(kept.value(), 45.0f).up, 2u);

  const std::string sidecar = dir.write("room.json", R"({"flipFaces": 1})");
  const Result<Level> refused = loadLevel(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rfind(sidecar + ": flipFaces: ", 0), 0u) << refused.error();
}

// A floor written Z up in centimetres: 400 x 300 cm on the ground (x, y), with
// a sidecar that says so and places a seed and a door in the file's units.
TEST(LevelLoad, TheSidecarsUpAxisAndUnitScalePutAFileInMetresYUp) {
  const TempDir dir;
  const std::string path =
      dir.write("room.obj", "v 0 0 0\nv 400 0 0\nv 400 300 0\nv 0 300 0\nf 1 2 3 4\n");
  dir.write("room.json", R"({"upAxis": "z", "unitScale": 0.01, "seeds": [[100, 200, 5]],
    "devices": [{"id": "door", "kind": "door", "entry": {"min": [0, 0, 0], "max": [50, 100, 200]},
                 "exit": {"min": [300, 0, 0], "max": [400, 100, 200]}}]})");
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  const Level& room = level.value();
  EXPECT_EQ(room.settings.upAxis, UpAxis::Z);
  EXPECT_EQ(room.settings.unitScale, 0.01f);
  // (x, y, z) -> (x, z, -y), in metres.
  EXPECT_NEAR(room.bounds.min.x, 0.0f, 1e-6f);
  EXPECT_NEAR(room.bounds.max.x, 4.0f, 1e-6f);
  EXPECT_NEAR(room.bounds.min.z, -3.0f, 1e-6f);
  EXPECT_NEAR(room.bounds.max.z, 0.0f, 1e-6f);
  EXPECT_NEAR(room.bounds.max.y - room.bounds.min.y, 0.0f, 1e-6f);
  EXPECT_EQ(countFacings(room, 45.0f).up, 2u) << "turned, not mirrored: the floor faces up";
  ASSERT_EQ(room.settings.seeds.size(), 1u);
  EXPECT_NEAR(glm::distance(room.settings.seeds[0], glm::vec3(1.0f, 0.05f, -2.0f)), 0.0f, 1e-5f);
  const Aabb& entry = room.settings.devices.at(0).entry;
  EXPECT_NEAR(glm::distance(entry.min, glm::vec3(0.0f, 0.0f, -1.0f)), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::distance(entry.max, glm::vec3(0.5f, 2.0f, 0.0f)), 0.0f, 1e-5f);

  // What the caller asks wins over the sidecar.
  const Result<Level> asWritten = loadLevel(path, {}, LevelReading{{}, UpAxis::Y, 1.0f});
  ASSERT_TRUE(asWritten.ok()) << asWritten.error();
  EXPECT_NEAR(asWritten.value().bounds.max.y, 300.0f, 1e-3f);
  EXPECT_EQ(countFacings(asWritten.value(), 45.0f).steep, 2u);

  for (const char* bad : {R"({"upAxis": "x"})", R"({"upAxis": 1})", R"({"unitScale": 0})",
                          R"({"unitScale": -1})", R"({"unitScale": "cm"})"}) {
    const std::string sidecar = dir.write("room.json", bad);
    const Result<Level> refused = loadLevel(path);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.error().rfind(sidecar + ": ", 0), 0u) << refused.error();
    EXPECT_TRUE(refused.error().find("upAxis") != std::string::npos ||
                refused.error().find("unitScale") != std::string::npos)
        << refused.error();
  }
  dir.write("room.json", R"({"unitScale": 1e30})");
  const Result<Level> tooFar = loadLevel(path);
  ASSERT_FALSE(tooFar.ok());
  EXPECT_NE(tooFar.error().find("unitScale"), std::string::npos) << tooFar.error();
}

// --- sidecar ----------------------------------------------------------------

Result<LevelSettings> sidecar(const std::string& json) {
  return parseLevelSettings(json, "level.json");
}

std::string sidecarError(const std::string& json) {
  const Result<LevelSettings> settings = sidecar(json);
  EXPECT_FALSE(settings.ok()) << json;
  return settings ? std::string() : settings.error();
}

TEST(Sidecar, FullValidFile) {
  const Result<LevelSettings> settings = sidecar(R"({
    "seeds": [[1, 2, 3], [-4.5, 0, 1e1]],
    "start": [0, 0.5, 0],
    "goal": [10, 0, -10],
    "cellSize": 0.3,
    "unit": {"name": "ogre", "width": 1.2, "height": 3, "stepHeight": 0.6, "maxDrop": 2,
             "maxSlopeDegrees": 30}
  })");
  ASSERT_TRUE(settings.ok()) << settings.error();
  const LevelSettings& s = settings.value();
  ASSERT_EQ(s.seeds.size(), 2u);
  EXPECT_EQ(s.seeds[0], glm::vec3(1, 2, 3));
  EXPECT_EQ(s.seeds[1], glm::vec3(-4.5f, 0, 10));
  EXPECT_EQ(s.start, glm::vec3(0, 0.5f, 0));
  EXPECT_EQ(s.goal, glm::vec3(10, 0, -10));
  EXPECT_EQ(s.cellSize, 0.3f);
  ASSERT_EQ(s.units.size(), 1u);
  EXPECT_EQ(s.units[0].name, "ogre");
  EXPECT_EQ(s.units[0].width, 1.2f);
  EXPECT_EQ(s.units[0].height, 3.0f);
  EXPECT_EQ(s.units[0].stepHeight, 0.6f);
  EXPECT_EQ(s.units[0].maxDrop, 2.0f);
  EXPECT_EQ(s.units[0].maxSlopeDegrees, 30.0f);
}

TEST(Sidecar, EveryKeyIsOptional) {
  const Result<LevelSettings> empty = sidecar("{}");
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_TRUE(empty.value().seeds.empty());
  EXPECT_FALSE(empty.value().start || empty.value().goal || empty.value().cellSize);
  EXPECT_TRUE(empty.value().units.empty());

  const Result<LevelSettings> partial = sidecar(R"({"unit": {"width": 0.8}})");
  ASSERT_TRUE(partial.ok()) << partial.error();
  const UnitProfile defaults;
  ASSERT_EQ(partial.value().units.size(), 1u);
  EXPECT_EQ(partial.value().units[0].width, 0.8f);
  EXPECT_EQ(partial.value().units[0].name, defaults.name);
  EXPECT_EQ(partial.value().units[0].height, defaults.height);
  EXPECT_EQ(partial.value().units[0].stepHeight, defaults.stepHeight);
  EXPECT_EQ(partial.value().units[0].maxDrop, defaults.maxDrop);
  EXPECT_EQ(partial.value().units[0].maxSlopeDegrees, defaults.maxSlopeDegrees);
}

TEST(Sidecar, SyntaxErrorHasLineAndColumn) {
  const std::string error = sidecarError("{\n  \"seeds\": [],\n  \"start\": [1, 2, 3,]\n}\n");
  EXPECT_EQ(error.rfind("level.json:3:21: ", 0), 0u) << error;
  EXPECT_EQ(sidecarError("").rfind("level.json:1:1: ", 0), 0u);
  EXPECT_EQ(sidecarError("{\"a\": 1 // comment\n}").rfind("level.json:1:9: ", 0), 0u);
  EXPECT_EQ(sidecarError("{\n\"a\": 1e400}").rfind("level.json:2:10: number overflow", 0), 0u);
}

TEST(Sidecar, UnknownKeysAreErrors) {
  const std::string error = sidecarError(R"({"seeds": [], "sedes": []})");
  EXPECT_EQ(error.rfind("level.json: sedes: ", 0), 0u) << error;
  EXPECT_NE(error.find("unknown key"), std::string::npos) << error;
  EXPECT_EQ(sidecarError(R"({"unit": {"widht": 1}})").rfind("level.json: unit.widht: ", 0), 0u);
}

TEST(Sidecar, WrongTypesNameTheKeyPath) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"seeds": [[0, 0, 0], [1, 1, 1], [2, 2]]})", "seeds[2]: expected 3 numbers"},
      {R"({"seeds": [[0, 0, 0], [1, 1, 1], [2, 2, 2, 2]]})", "seeds[2]: expected 3 numbers"},
      {R"({"seeds": [[0, 0, "x"]]})", "seeds[0][2]: "},
      {R"({"seeds": 5})", "seeds: "},
      {R"({"seeds": [5]})", "seeds[0]: "},
      {R"({"start": {"x": 1}})", "start: "},
      {R"({"goal": [1, true, 3]})", "goal[1]: "},
      {R"({"goal": [1, null, 3]})", "goal[1]: "},
      {R"({"cellSize": "0.3"})", "cellSize: "},
      {R"({"cellSize": 0})", "cellSize: "},
      {R"({"cellSize": -0.5})", "cellSize: "},
      {R"({"cellSize": 1e39})", "cellSize: "},
      {R"({"unit": 3})", "unit: "},
      {R"({"unit": {"name": 7}})", "unit.name: "},
      {R"({"unit": {"height": "tall"}})", "unit.height: "},
      {R"({"unit": {"maxDrop": -1e38}})", "unit: maxDrop = "},
      {"[1, 2, 3]", "expected a JSON object"},
  };
  for (const auto& [json, expected] : cases) {
    const std::string error = sidecarError(json);
    EXPECT_EQ(error.rfind("level.json: " + std::string(expected), 0), 0u)
        << json << "\n  gave: " << error;
  }
}

TEST(Sidecar, UnitIsValidated) {
  const std::string error = sidecarError(R"({"unit": {"width": -1}})");
  EXPECT_EQ(error.rfind("level.json: unit: width = -1", 0), 0u) << error;
  EXPECT_NE(sidecarError(R"({"unit": {"height": 1, "stepHeight": 1}})").find("stepHeight"),
            std::string::npos);
  EXPECT_NE(sidecarError(R"({"unit": {"maxSlopeDegrees": 90}})").find("maxSlopeDegrees"),
            std::string::npos);
}

// --- unit profile -------------------------------------------------------------

TEST(UnitProfile, DefaultsAreValid) {
  const Result<UnitProfile> unit = validateUnitProfile(UnitProfile{});
  ASSERT_TRUE(unit.ok()) << unit.error();
  EXPECT_EQ(unit.value().name, "human");
}

TEST(UnitProfile, BoundaryValuesAreAccepted) {
  UnitProfile unit;
  unit.stepHeight = 0.0f;
  unit.maxDrop = 0.0f;
  unit.maxSlopeDegrees = 0.0f;
  EXPECT_TRUE(validateUnitProfile(unit).ok());
  unit.width = 1000.0f;
  unit.height = 1000.0f;
  unit.stepHeight = 999.0f;
  unit.maxDrop = 1000.0f;
  unit.maxSlopeDegrees = 89.0f;
  EXPECT_TRUE(validateUnitProfile(unit).ok()) << validateUnitProfile(unit).error();
}

TEST(UnitProfile, EachBadParameterIsNamedWithItsValue) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    float UnitProfile::*field;
    float value;
    const char* expected;
  };
  const Case cases[] = {
      {&UnitProfile::width, 0.0f, "width = 0"},
      {&UnitProfile::width, -0.5f, "width = -0.5"},
      {&UnitProfile::width, 1001.0f, "width = 1001"},
      {&UnitProfile::width, nan, "width = nan"},
      {&UnitProfile::height, 0.0f, "height = 0"},
      {&UnitProfile::height, inf, "height = inf"},
      {&UnitProfile::stepHeight, -0.1f, "stepHeight = -0.1"},
      {&UnitProfile::stepHeight, 1.8f, "stepHeight = 1.8"},
      {&UnitProfile::stepHeight, nan, "stepHeight = nan"},
      {&UnitProfile::maxDrop, -1.0f, "maxDrop = -1"},
      {&UnitProfile::maxDrop, 2000.0f, "maxDrop = 2000"},
      {&UnitProfile::maxDrop, inf, "maxDrop = inf"},
      {&UnitProfile::maxSlopeDegrees, -1.0f, "maxSlopeDegrees = -1"},
      {&UnitProfile::maxSlopeDegrees, 89.5f, "maxSlopeDegrees = 89.5"},
      {&UnitProfile::maxSlopeDegrees, nan, "maxSlopeDegrees = nan"},
      {&UnitProfile::ledgeOverhang, -0.1f, "ledgeOverhang = -0.1"},
      {&UnitProfile::ledgeOverhang, 0.31f, "ledgeOverhang = 0.31"},
      {&UnitProfile::ledgeOverhang, nan, "ledgeOverhang = nan"},
  };
  for (const Case& c : cases) {
    UnitProfile unit;
    unit.*c.field = c.value;
    const Result<UnitProfile> result = validateUnitProfile(unit);
    ASSERT_FALSE(result.ok()) << c.expected;
    EXPECT_EQ(result.error().rfind(c.expected, 0), 0u) << result.error();
    // The message also states the allowed range.
    EXPECT_NE(result.error().find("allowed"), std::string::npos) << result.error();
  }
}

// ---------------------------------------------------------------------------
// Turning a level about the vertical axis
// ---------------------------------------------------------------------------

// A 10 x 4 floor (bounds centre (5, 2)) with a seed, start, goal, a device and a waypath.
Level turnableLevel() {
  Level level;
  test::addFloor(level, 0, 0, 10, 4, 0, "floor");
  test::finish(level);
  level.settings.seeds = {{1, 0.05f, 1}};
  level.settings.start = glm::vec3(10, 0.05f, 4);
  level.settings.goal = glm::vec3(5, 0.05f, 2);
  DeviceSpec device;
  device.id = "lift";
  device.entry = {{8, -0.2f, 0}, {10, 0.5f, 2}};
  device.exit = {{0, 2.8f, 0}, {2, 3.5f, 2}};
  level.settings.devices = {device};
  level.settings.waypaths = {{"lane", {{0, 0, 0}, {10, 0, 0}}, false, std::nullopt}};
  return level;
}

void expectNear(const glm::vec3& a, const glm::vec3& b) {
  EXPECT_LT(glm::distance(a, b), 1e-5f)
      << a.x << "," << a.y << "," << a.z << " against " << b.x << "," << b.y << "," << b.z;
}

// By hand: about (5, 2), +x turns to -z, so (x, z) goes to (5 + (z - 2), 2 - (x - 5)).
TEST(LevelRotation, QuarterTurnMovesPointsWhereHandComputationSays) {
  const Level level = turnableLevel();
  const Result<Level> turned = rotatedAboutY(level, 90.0f);
  ASSERT_TRUE(turned.ok()) << turned.error();
  const Level& t = turned.value();
  ASSERT_EQ(t.vertices.size(), level.vertices.size());
  for (size_t v = 0; v < level.vertices.size(); ++v) {
    const glm::vec3 p = level.vertices[v];
    expectNear(t.vertices[v], {5 + (p.z - 2), p.y, 2 - (p.x - 5)});
  }
  // The floor's corner (10, 0, 4) goes to (7, 0, -3); bounds x 3..7, z -3..7.
  expectNear(rotationAboutY(level, 90.0f).value().apply({10, 0, 4}), {7, 0, -3});
  expectNear(t.bounds.min, {3, 0, -3});
  expectNear(t.bounds.max, {7, 0, 7});
  expectNear(t.settings.seeds.at(0), {4, 0.05f, 6});
  expectNear(*t.settings.start, {7, 0.05f, -3});
  expectNear(*t.settings.goal, {5, 0.05f, 2});
  expectNear(t.settings.waypaths.at(0).points.at(1), {3, 0, -3});
  // A quarter turn keeps a zone a box: entry x 8..10, z 0..2 -> x 3..5, z -3..-1.
  expectNear(t.settings.devices.at(0).entry.min, {3, -0.2f, -3});
  expectNear(t.settings.devices.at(0).entry.max, {5, 0.5f, -1});
  // Triangles keep their corners, so the floor still faces up.
  const glm::vec3 a = t.corner(0, 0), b = t.corner(0, 1), c = t.corner(0, 2);
  EXPECT_GT(glm::cross(b - a, c - a).y, 0.0f);
}

TEST(LevelRotation, NoTurnAndWholeTurnsChangeNothing) {
  const Result<Level> showcase = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(showcase.ok()) << showcase.error();
  for (float degrees : {0.0f, 360.0f, -720.0f}) {
    const Result<Level> turned = rotatedAboutY(showcase.value(), degrees);
    ASSERT_TRUE(turned.ok()) << turned.error();
    EXPECT_EQ(turned.value().vertices, showcase.value().vertices) << degrees;
    EXPECT_EQ(turned.value().bounds.min, showcase.value().bounds.min);
    EXPECT_EQ(turned.value().bounds.max, showcase.value().bounds.max);
    EXPECT_EQ(turned.value().settings.start, showcase.value().settings.start);
    EXPECT_EQ(turned.value().settings.devices.at(0).entry.min,
              showcase.value().settings.devices.at(0).entry.min);
  }
}

// At 45 degrees a 2 x 2 zone's turned square spans 2 sqrt 2 both ways, round the turned centre.
TEST(LevelRotation, ZonesBecomeTheBoundsOfTheTurnedZones) {
  const Level level = turnableLevel();
  const RotationY turn = rotationAboutY(level, 45.0f).value();
  const Aabb entry = rotatedAboutY(level, 45.0f).value().settings.devices.at(0).entry;
  const float half = std::sqrt(2.0f);
  const glm::vec3 centre = turn.apply({9, 0.15f, 1});
  expectNear(entry.min, {centre.x - half, -0.2f, centre.z - half});
  expectNear(entry.max, {centre.x + half, 0.5f, centre.z + half});
}

TEST(LevelRotation, RefusesAnglesThatAreNotFiniteOrAreHuge) {
  const Level level = turnableLevel();
  for (float degrees : {std::nanf(""), INFINITY, -INFINITY, 1e9f, -36001.0f}) {
    const Result<Level> turned = rotatedAboutY(level, degrees);
    ASSERT_FALSE(turned.ok()) << degrees;
    EXPECT_NE(turned.error().find("degrees"), std::string::npos) << turned.error();
  }
  EXPECT_TRUE(rotatedAboutY(level, 36000.0f).ok());
  EXPECT_FALSE(rotatedAboutY(Level{}, 10.0f).ok()) << "no triangles, no bounds to turn about";
}

// A floor reaching 9.9e7 m out turned 45 degrees would reach 1.4e8 m: refused,
// naming the turn (the .nav writer refused it only after the build); turned
// 90 degrees it stays within the limit.
TEST(LevelRotation, RefusesATurnThatTakesTheLevelPastTheLimit) {
  Level level;
  test::addFloor(level, -9.9e7f, -9.9e7f, 9.9e7f, 9.9e7f, 0);
  test::finish(level);
  const Result<Level> turned = rotatedAboutY(level, 45.0f);
  ASSERT_FALSE(turned.ok());
  EXPECT_NE(turned.error().find("turned 45 degrees, the level reaches"), std::string::npos)
      << turned.error();
  EXPECT_NE(turned.error().find("more than 1e8 m from the origin"), std::string::npos)
      << turned.error();
  EXPECT_TRUE(rotatedAboutY(level, 90.0f).ok());
}

// The overhang may reach half the footprint (the centre over the edge): half
// the width of a human or a round unit, half the diagonal of a vehicle's body.
TEST(UnitProfile, LedgeOverhangUpToHalfTheFootprint) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    UnitProfile unit;
    unit.shape = shape;
    unit.ledgeOverhang = 0.3f;
    EXPECT_TRUE(validateUnitProfile(unit).ok()) << validateUnitProfile(unit).error();
    unit.ledgeOverhang = 0.32f;
    EXPECT_FALSE(validateUnitProfile(unit).ok()) << toString(shape);
  }
  // 0.6 x 1.5: diagonal sqrt(0.36 + 2.25) = 1.616, half of it 0.808.
  UnitProfile cart;
  cart.kind = UnitKind::Vehicle;
  cart.length = 1.5f;
  cart.ledgeOverhang = 0.8f;
  EXPECT_TRUE(validateUnitProfile(cart).ok()) << validateUnitProfile(cart).error();
  cart.ledgeOverhang = 0.82f;
  EXPECT_FALSE(validateUnitProfile(cart).ok());
}

}  // namespace
}  // namespace nav
