// The .nav format: round trips of real builds, byte-identical output, and a
// corpus of truncated, corrupted and hostile files that must all fail cleanly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>

#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr const char* kName = "bad.nav";

// Bit-by-bit CRC-32 (IEEE, reflected), independent of the table-driven one in the reader.
uint32_t referenceCrc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

uint32_t getU32(const std::vector<uint8_t>& bytes, size_t at) {
  return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
         uint32_t(bytes[at + 3]) << 24;
}
uint64_t getU64(const std::vector<uint8_t>& bytes, size_t at) {
  return uint64_t(getU32(bytes, at)) | uint64_t(getU32(bytes, at + 4)) << 32;
}
void putBytes(std::vector<uint8_t>& bytes, size_t at, uint64_t value, int size) {
  for (int i = 0; i < size; ++i)
    bytes[at + size_t(i)] = uint8_t(value >> (8 * i));
}
void putU32(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  putBytes(bytes, at, value, 4);
}
void putF32(std::vector<uint8_t>& bytes, size_t at, float value) {
  putU32(bytes, at, std::bit_cast<uint32_t>(value));
}

// Rewrites the trailer so a tampered file passes the checksum and reaches the later checks.
void fixChecksum(std::vector<uint8_t>& bytes) {
  const size_t at = bytes.size() - 4;
  putU32(bytes, at, referenceCrc32(bytes.data(), at));
}

// Where a section's payload starts, read from the table (header 24 bytes, entries 24 bytes).
size_t sectionOffset(const std::vector<uint8_t>& bytes, uint32_t id) {
  const uint32_t count = getU32(bytes, 12);
  for (uint32_t k = 0; k < count; ++k) {
    if (getU32(bytes, 24 + 24 * k) == id) return size_t(getU64(bytes, 24 + 24 * k + 8));
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}
constexpr uint32_t kSettings = 1, kSurfaces = 2, kSectors = 3, kPortals = 4, kDevices = 5,
                   kDeviceLinks = 6, kWaypaths = 7, kUnitShape = 8, kPortalReach = 9,
                   kLedgeOverhang = 10, kSectorHeights = 11, kGridFrame = 13, kGridOffset = 14;
// Field offsets inside one sector (67 bytes) and one portal (42 bytes) on disk.
constexpr size_t kSectorBytes = 67, kPortalBytes = 42;
constexpr size_t kSectorFirstColumn = 24, kSectorLastColumn = 32, kSectorPlane = 40,
                 kSectorSurface = 52, kSectorKind = 54, kSectorFirstPortal = 59,
                 kSectorPortalCount = 63;
constexpr size_t kPortalTo = 4, kPortalLeft = 8, kPortalDirection = 32, kPortalKind = 33,
                 kPortalReverse = 38;

size_t sectorField(const std::vector<uint8_t>& bytes, uint32_t sector, size_t field) {
  return sectionOffset(bytes, kSectors) + 4 + sector * kSectorBytes + field;
}
size_t portalField(const std::vector<uint8_t>& bytes, uint32_t portal, size_t field) {
  return sectionOffset(bytes, kPortals) + 4 + portal * kPortalBytes + field;
}

Sector box(float x0, float x1, int column0, int column1, uint16_t surface) {
  Sector s{};
  s.bounds.min = {x0, 0.0f, 0.0f};
  s.bounds.max = {x1, 0.0f, 1.0f};
  s.firstColumn = {column0, 0};
  s.lastColumn = {column1, 1};
  s.heightPlane = {0.0f, 0.0f, 0.0f};
  s.surface = surface;
  s.kind = SectorKind::Ground;
  s.waypath = kNoWaypath;
  return s;
}

// A vehicle and three sectors in a row: 0 <-> 1 two-way, 1 -> 2 one-way (a drop). 649 bytes.
NavGraph smallGraph() {
  NavGraph graph;
  graph.unit.name = "cart";
  graph.unit.kind = UnitKind::Vehicle;
  graph.unit.length = 1.5f;
  graph.unit.turningRadius = 2.0f;
  graph.cellSize = 0.5f;
  graph.origin = {0.0f, 0.0f};
  graph.surfaces = {{"default", 1.0f, 0xff}, {"road", 1.5f, 3}};
  graph.sectors = {box(0, 1, 0, 1, 0), box(1, 2, 2, 3, 0), box(2, 3, 4, 5, 1)};
  graph.sectors[0].firstPortal = 0;
  graph.sectors[0].portalCount = 1;
  graph.sectors[1].firstPortal = 1;
  graph.sectors[1].portalCount = 2;
  graph.sectors[2].firstPortal = 3;
  graph.sectors[2].portalCount = 0;
  graph.portals = {
      {0, 1, {1, 0, 0.25f}, {1, 0, 0.75f}, Direction::PlusX, PortalKind::Walk, 0, 1},
      {1, 0, {1, 0, 0.75f}, {1, 0, 0.25f}, Direction::MinusX, PortalKind::Walk, 0, 0},
      {1, 2, {2, 0, 0.25f}, {2, 0, 0.75f}, Direction::PlusX, PortalKind::Walk, 0, kNoPortal},
  };
  for (const Sector& s : graph.sectors)
    graph.bounds.grow(s.bounds);
  return graph;
}

Result<NavGraph> load(const std::vector<uint8_t>& bytes, const NavFileLimits& limits = {}) {
  return deserializeNavGraph(bytes, kName, limits);
}

// Fails the test unless the bytes are refused with a message naming the file.
void expectRefused(const std::vector<uint8_t>& bytes, const std::string& expected = "") {
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().rfind(std::string(kName) + ": ", 0), 0u) << loaded.error();
  EXPECT_NE(loaded.error().find(expected), std::string::npos) << loaded.error();
}

// Field by field, floats compared as bits (so -0 and 0 would differ).
void expectSameGraph(const NavGraph& a, const NavGraph& b) {
  auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
  auto sameVec3 = [&](const glm::vec3& p, const glm::vec3& q) {
    return bits(p.x) == bits(q.x) && bits(p.y) == bits(q.y) && bits(p.z) == bits(q.z);
  };
  EXPECT_EQ(a.unit.name, b.unit.name);
  EXPECT_EQ(a.unit.kind, b.unit.kind);
  EXPECT_EQ(bits(a.unit.length), bits(b.unit.length));
  EXPECT_EQ(bits(a.unit.turningRadius), bits(b.unit.turningRadius));
  EXPECT_EQ(bits(a.unit.width), bits(b.unit.width));
  EXPECT_EQ(bits(a.unit.height), bits(b.unit.height));
  EXPECT_EQ(bits(a.unit.stepHeight), bits(b.unit.stepHeight));
  EXPECT_EQ(bits(a.unit.maxDrop), bits(b.unit.maxDrop));
  EXPECT_EQ(bits(a.unit.maxSlopeDegrees), bits(b.unit.maxSlopeDegrees));
  EXPECT_EQ(bits(a.unit.ledgeOverhang), bits(b.unit.ledgeOverhang));
  EXPECT_EQ(bits(a.cellSize), bits(b.cellSize));
  EXPECT_EQ(bits(a.origin.x), bits(b.origin.x));
  EXPECT_EQ(bits(a.origin.y), bits(b.origin.y));
  EXPECT_EQ(bits(a.gridFrame.degrees), bits(b.gridFrame.degrees));
  EXPECT_EQ(bits(a.gridFrame.centre.x), bits(b.gridFrame.centre.x));
  EXPECT_EQ(bits(a.gridFrame.centre.y), bits(b.gridFrame.centre.y));
  EXPECT_TRUE(sameVec3(a.bounds.min, b.bounds.min) && sameVec3(a.bounds.max, b.bounds.max));
  ASSERT_EQ(a.surfaces.size(), b.surfaces.size());
  for (size_t i = 0; i < a.surfaces.size(); ++i) {
    EXPECT_EQ(a.surfaces[i].name, b.surfaces[i].name);
    EXPECT_EQ(bits(a.surfaces[i].cost), bits(b.surfaces[i].cost));
    EXPECT_EQ(a.surfaces[i].allowedKinds, b.surfaces[i].allowedKinds);
  }
  ASSERT_EQ(a.devices.size(), b.devices.size());
  for (size_t i = 0; i < a.devices.size(); ++i) {
    const DeviceSpec &d = a.devices[i], &e = b.devices[i];
    EXPECT_TRUE(d.id == e.id && d.kind == e.kind && d.twoWay == e.twoWay && d.locked == e.locked &&
                d.key == e.key && d.action == e.action);
    EXPECT_TRUE(sameVec3(d.entry.min, e.entry.min) && sameVec3(d.exit.max, e.exit.max));
    EXPECT_EQ(bits(d.waitTime), bits(e.waitTime));
    EXPECT_EQ(bits(d.travelTime), bits(e.travelTime));
  }
  ASSERT_EQ(a.deviceLinks.size(), b.deviceLinks.size());
  for (size_t i = 0; i < a.deviceLinks.size(); ++i) {
    const DeviceLink &k = a.deviceLinks[i], &l = b.deviceLinks[i];
    EXPECT_EQ(k.device, l.device);
    EXPECT_EQ(k.reverse, l.reverse);
    EXPECT_TRUE(sameVec3(k.entryPoint, l.entryPoint) && sameVec3(k.exitPoint, l.exitPoint));
    EXPECT_TRUE(sameVec3(k.volume.min, l.volume.min) && sameVec3(k.volume.max, l.volume.max));
  }
  ASSERT_EQ(a.waypaths.size(), b.waypaths.size());
  for (size_t i = 0; i < a.waypaths.size(); ++i) {
    const WaypathSpec &w = a.waypaths[i], &v = b.waypaths[i];
    EXPECT_TRUE(w.id == v.id && w.oneWay == v.oneWay && w.unitKind == v.unitKind);
    ASSERT_EQ(w.points.size(), v.points.size());
    for (size_t k = 0; k < w.points.size(); ++k)
      EXPECT_TRUE(sameVec3(w.points[k], v.points[k]));
  }
  ASSERT_EQ(a.sectors.size(), b.sectors.size());
  for (size_t i = 0; i < a.sectors.size(); ++i) {
    const Sector &s = a.sectors[i], &t = b.sectors[i];
    SCOPED_TRACE("sector " + std::to_string(i));
    EXPECT_TRUE(sameVec3(s.bounds.min, t.bounds.min) && sameVec3(s.bounds.max, t.bounds.max));
    EXPECT_EQ(s.firstColumn, t.firstColumn);
    EXPECT_EQ(s.lastColumn, t.lastColumn);
    EXPECT_TRUE(sameVec3(s.heightPlane, t.heightPlane));
    EXPECT_EQ(s.surface, t.surface);
    EXPECT_EQ(s.kind, t.kind);
    EXPECT_EQ(s.waypath, t.waypath);
    EXPECT_EQ(s.firstPortal, t.firstPortal);
    EXPECT_EQ(s.portalCount, t.portalCount);
  }
  ASSERT_EQ(a.portals.size(), b.portals.size());
  for (size_t i = 0; i < a.portals.size(); ++i) {
    const Portal &p = a.portals[i], &q = b.portals[i];
    SCOPED_TRACE("portal " + std::to_string(i));
    EXPECT_EQ(p.fromSector, q.fromSector);
    EXPECT_EQ(p.toSector, q.toSector);
    EXPECT_TRUE(sameVec3(p.left, q.left) && sameVec3(p.right, q.right));
    EXPECT_EQ(p.direction, q.direction);
    EXPECT_EQ(p.kind, q.kind);
    EXPECT_EQ(p.link, q.link);
    EXPECT_EQ(p.reverse, q.reverse);
  }
  ASSERT_EQ(a.reach.size(), b.reach.size());
  for (size_t i = 0; i < a.reach.size(); ++i) {
    const PortalEndReach &r = a.reach[i], &t = b.reach[i];
    SCOPED_TRACE("portal end " + std::to_string(i));
    EXPECT_EQ(r.reaches(), t.reaches());
    if (!r.reaches()) continue;
    EXPECT_TRUE(sameVec3(r.point, t.point));
    for (int side = 0; side < 2; ++side) {
      EXPECT_EQ(bits(r.outwardMin[side]), bits(t.outwardMin[side]));
      EXPECT_EQ(bits(r.outwardMax[side]), bits(t.outwardMax[side]));
    }
    EXPECT_EQ(bits(r.length), bits(t.length));
  }
}

struct BuiltLevel {
  Level level;
  NavGraph graph;
};

BuiltLevel buildAsset(const char* name) {
  Result<Level> level = loadLevel(test::assetFile(name));
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return {};
  const CollisionWorld world(level.value());
  Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
  EXPECT_TRUE(build.ok()) << build.error();
  if (!build) return {};
  return {std::move(level).value(), std::move(build).value().graph};
}

// The bundled levels are built once for the whole suite.
class NavFileLevels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* name : {"showcase.obj", "funnel.obj"})
      s_levels.push_back(buildAsset(name));
  }
  static void TearDownTestSuite() { s_levels.clear(); }
  static std::vector<BuiltLevel> s_levels;
};
std::vector<BuiltLevel> NavFileLevels::s_levels;

TEST_F(NavFileLevels, RoundTripKeepsEveryFieldAndAnswersTheSameQueries) {
  for (const BuiltLevel& built : s_levels) {
    ASSERT_FALSE(built.graph.sectors.empty());
    const std::vector<uint8_t> bytes = serializeNavGraph(built.graph);
    const Result<NavGraph> loaded = deserializeNavGraph(bytes, "level.nav");
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    expectSameGraph(built.graph, loaded.value());
    // And the loaded graph works: the sidecar's query finds the same path.
    ASSERT_TRUE(built.level.settings.start && built.level.settings.goal);
    const PathResult before =
        findPath(built.graph, *built.level.settings.start, *built.level.settings.goal);
    const PathResult after =
        findPath(loaded.value(), *built.level.settings.start, *built.level.settings.goal);
    EXPECT_EQ(before.status, PathStatus::Found);
    EXPECT_EQ(after.status, before.status);
    EXPECT_EQ(after.corridor.portals, before.corridor.portals);
    EXPECT_EQ(after.cost, before.cost);
  }
}

TEST_F(NavFileLevels, WriteAndReadAFile) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("navscope_test_" + std::to_string(::getpid()) + ".nav");
  const NavGraph& graph = s_levels.front().graph;
  const Result<size_t> written = writeNavFile(path.string(), graph);
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(written.value(), std::filesystem::file_size(path));
  EXPECT_EQ(written.value(), serializeNavGraph(graph).size());
  const Result<NavGraph> read = readNavFile(path.string());
  ASSERT_TRUE(read.ok()) << read.error();
  expectSameGraph(graph, read.value());

  // A file past the size limit is refused before it is read.
  NavFileLimits limits;
  limits.maxFileBytes = written.value() - 1;
  const Result<NavGraph> tooBig = readNavFile(path.string(), limits);
  ASSERT_FALSE(tooBig.ok());
  EXPECT_NE(tooBig.error().find("over the limit of " + std::to_string(limits.maxFileBytes) +
                                " bytes (NavFileLimits::maxFileBytes)"),
            std::string::npos)
      << tooBig.error();
  std::filesystem::remove(path);
}

TEST_F(NavFileLevels, SameInputGivesByteIdenticalFiles) {
  const char* names[] = {"showcase.obj", "funnel.obj"};
  for (size_t i = 0; i < s_levels.size(); ++i) {
    SCOPED_TRACE(names[i]);
    // A fresh load and build: nothing carries over from the first one.
    const BuiltLevel again = buildAsset(names[i]);
    const std::vector<uint8_t> first = serializeNavGraph(s_levels[i].graph);
    EXPECT_EQ(first, serializeNavGraph(again.graph));
    // Reading and writing again changes nothing either.
    const Result<NavGraph> loaded = deserializeNavGraph(first, names[i]);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(first, serializeNavGraph(loaded.value()));
  }
}

TEST(NavFile, LayoutOfASmallGraph) {
  const std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  // Header 24, table 14 x 24, settings 4+8+24+(4+4)+1+28, surfaces 4+(4+7+4+1)+(4+4+4+1),
  // sectors 4+3x67, portals 4+3x42, devices, device links and waypaths 4 each,
  // unit shape 1, portal reach 4 (none), ledge overhang 4, sector heights 4+3x12+4
  // (no heights: every sector lies on its plane), polygons 4+4 (none), grid frame 12,
  // grid offset 12, checksum 4.
  ASSERT_EQ(bytes.size(),
            24u + 336u + 73u + 33u + 205u + 130u + 12u + 1u + 4u + 4u + 44u + 8u + 12u + 12u + 4u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "NAVSCOPE");
  EXPECT_EQ(getU32(bytes, 8), kNavFileVersion);
  EXPECT_EQ(getU32(bytes, 12), 14u);
  EXPECT_EQ(getU64(bytes, 16), bytes.size());
  EXPECT_EQ(sectionOffset(bytes, kSettings), 360u);
  EXPECT_EQ(sectionOffset(bytes, kSurfaces), 433u);
  EXPECT_EQ(sectionOffset(bytes, kSectors), 466u);
  EXPECT_EQ(sectionOffset(bytes, kPortals), 671u);
  EXPECT_EQ(sectionOffset(bytes, kDevices), 801u);
  EXPECT_EQ(sectionOffset(bytes, kDeviceLinks), 805u);
  EXPECT_EQ(sectionOffset(bytes, kWaypaths), 809u);
  EXPECT_EQ(sectionOffset(bytes, kUnitShape), 813u);
  EXPECT_EQ(bytes[813], uint8_t(UnitShape::Box));
  EXPECT_EQ(sectionOffset(bytes, kPortalReach), 814u);
  EXPECT_EQ(getU32(bytes, 814), 0u);
  EXPECT_EQ(sectionOffset(bytes, kLedgeOverhang), 818u);
  EXPECT_EQ(getU32(bytes, 818), 0u);
  EXPECT_EQ(sectionOffset(bytes, kSectorHeights), 822u);
  EXPECT_EQ(getU32(bytes, 822), 3u);
  EXPECT_EQ(getU32(bytes, 826), kNoHeights);
  EXPECT_EQ(getU32(bytes, 822 + 4 + 3 * 12), 0u);
  // Every section is required, but the shape of a box unit, portal reach, no
  // ledge overhang, sector heights, no polygons, no turned grid and no offset: readers from
  // before them
  // skip them and read the graph they always did (sector heights from the
  // sectors' planes).
  for (uint32_t k = 0; k < 14; ++k)
    EXPECT_EQ(getU32(bytes, 24 + 24 * k + 4), k >= 7 ? 0u : 1u) << "section " << k + 1;
  EXPECT_EQ(getU32(bytes, bytes.size() - 4), referenceCrc32(bytes.data(), bytes.size() - 4));
  // The reference CRC is the standard one.
  const char* check = "123456789";
  EXPECT_EQ(referenceCrc32(reinterpret_cast<const uint8_t*>(check), 9), 0xcbf43926u);

  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  expectSameGraph(smallGraph(), loaded.value());
}

TEST(NavFile, KeepsARoundUnitAndReadsFilesFromBeforeShapesAsBoxes) {
  NavGraph graph = smallGraph();
  graph.unit.shape = UnitShape::Round;
  std::vector<uint8_t> bytes = serializeNavGraph(graph);
  const Result<NavGraph> round = load(bytes);
  ASSERT_TRUE(round.ok()) << round.error();
  EXPECT_EQ(round.value().unit.shape, UnitShape::Round);
  // A reader that cannot tell a round unit from a box must not read it as one.
  EXPECT_EQ(getU32(bytes, 24 + 24 * 7 + 4), 1u) << "the round unit's shape is required";
  // A file written before the shape had its own section: make that section one
  // this reader does not know and need not read, as an old file's reader sees it.
  const size_t entry = 24 + 24 * 7;
  ASSERT_EQ(getU32(bytes, entry), kUnitShape);
  putU32(bytes, entry, 99);
  putU32(bytes, entry + 4, 0);
  fixChecksum(bytes);
  const Result<NavGraph> old = load(bytes);
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old.value().unit.shape, UnitShape::Box);
}

// Where a section's entry in the table is (header 24 bytes, entries 24 bytes).
size_t tableEntry(const std::vector<uint8_t>& bytes, uint32_t id) {
  const uint32_t count = getU32(bytes, 12);
  for (uint32_t k = 0; k < count; ++k) {
    if (getU32(bytes, 24 + 24 * k) == id) return 24 + 24 * size_t(k);
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}

TEST(NavFile, KeepsALedgeOverhangRequiredOnlyWhenSet) {
  // The cart's footprint is its diagonal, sqrt(0.6^2 + 1.5^2) = 1.62 m: an
  // overhang up to 0.81 is valid.
  NavGraph graph = smallGraph();
  const std::vector<uint8_t> none = serializeNavGraph(graph);
  EXPECT_EQ(getU32(none, tableEntry(none, kLedgeOverhang) + 4), 0u)
      << "no overhang: readers from before it read the same graph";
  graph.unit.ledgeOverhang = 0.2f;
  std::vector<uint8_t> bytes = serializeNavGraph(graph);
  const size_t entry = tableEntry(bytes, kLedgeOverhang);
  EXPECT_EQ(getU32(bytes, entry + 4), 1u)
      << "a reader that knows no overhang must not take the graph for one without";
  EXPECT_EQ(getU32(bytes, sectionOffset(bytes, kLedgeOverhang)), std::bit_cast<uint32_t>(0.2f));
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().unit.ledgeOverhang, 0.2f);
  expectSameGraph(graph, loaded.value());
  EXPECT_EQ(serializeNavGraph(loaded.value()), bytes);

  // As a reader from before the section sees the file: unknown and required.
  std::vector<uint8_t> unknown = bytes;
  putU32(unknown, entry, 99);
  fixChecksum(unknown);
  expectRefused(unknown, "section 99: unknown required section");
  // A file from before it: the section absent (here unknown and optional) reads as 0.
  putU32(unknown, entry + 4, 0);
  fixChecksum(unknown);
  const Result<NavGraph> old = load(unknown);
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old.value().unit.ledgeOverhang, 0.0f);

  // Out of range: below 0, past half the footprint, not a number.
  for (const float bad : {-0.1f, 0.9f, std::nanf("")}) {
    SCOPED_TRACE(bad);
    std::vector<uint8_t> tampered = bytes;
    putF32(tampered, sectionOffset(tampered, kLedgeOverhang), bad);
    fixChecksum(tampered);
    expectRefused(tampered, "ledgeOverhang");
  }
}

TEST(NavFile, KeepsATurnedGridRequiredOnlyWhenTurned) {
  NavGraph graph = smallGraph();
  const std::vector<uint8_t> straight = serializeNavGraph(graph);
  EXPECT_EQ(getU32(straight, tableEntry(straight, kGridFrame) + 4), 0u)
      << "a grid along the file's axes: readers from before it read the same graph";
  graph.gridFrame = {-33.0f, {12.5f, -4.0f}};
  std::vector<uint8_t> bytes = serializeNavGraph(graph);
  const size_t entry = tableEntry(bytes, kGridFrame);
  EXPECT_EQ(getU32(bytes, entry + 4), 1u)
      << "a reader that knows no grid frame must not give grid points as the file's";
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().gridFrame.degrees, -33.0f);
  expectSameGraph(graph, loaded.value());
  EXPECT_EQ(serializeNavGraph(loaded.value()), bytes);

  // A file from before it: the section absent (here unknown and optional) reads as no turn.
  std::vector<uint8_t> old = bytes;
  putU32(old, entry, 99);
  putU32(old, entry + 4, 0);
  fixChecksum(old);
  const Result<NavGraph> read = load(old);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_FALSE(read.value().gridFrame.turned());

  for (const float bad : {46.0f, -90.0f, std::nanf("")}) {
    SCOPED_TRACE(bad);
    std::vector<uint8_t> tampered = bytes;
    putF32(tampered, sectionOffset(tampered, kGridFrame), bad);
    fixChecksum(tampered);
    expectRefused(tampered, "grid angle");
  }
  // A graph made in code with a grid no reader takes is not written.
  NavGraph tooFar = graph;
  tooFar.gridFrame.degrees = 60.0f;
  const std::optional<std::string> refused = checkNavGraph(tooFar, "made.nav");
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->find("grid angle 60"), std::string::npos) << *refused;
  std::vector<uint8_t> offCentre = bytes;
  putF32(offCentre, sectionOffset(offCentre, kGridFrame) + 4,
         std::numeric_limits<float>::infinity());
  fixChecksum(offCentre);
  expectRefused(offCentre, "centre");
}

TEST(NavFile, KeepsAGridOffsetRequiredOnlyWhenMoved) {
  NavGraph graph = smallGraph();
  const std::vector<uint8_t> near = serializeNavGraph(graph);
  EXPECT_EQ(getU32(near, tableEntry(near, kGridOffset) + 4), 0u)
      << "a level at its own origin: readers from before it read the same graph";
  graph.gridFrame.offset = {250000.0f, 12.0f, -180000.0f};
  const std::vector<uint8_t> bytes = serializeNavGraph(graph);
  EXPECT_EQ(getU32(bytes, tableEntry(bytes, kGridOffset) + 4), 1u)
      << "a reader that knows no offset must not give grid points as the file's";
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().gridFrame.offset, graph.gridFrame.offset);
  EXPECT_EQ(serializeNavGraph(loaded.value()), bytes);
  for (const float bad : {std::nanf(""), 2e8f}) {
    SCOPED_TRACE(bad);
    std::vector<uint8_t> tampered = bytes;
    putF32(tampered, sectionOffset(tampered, kGridOffset) + 8, bad);
    fixChecksum(tampered);
    expectRefused(tampered, "offset");
  }
}

TEST(NavFile, EveryTruncationFails) {
  const std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  for (size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(size);
    expectRefused(std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(size)));
  }
  expectRefused({}, "empty file");
  expectRefused(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 20), "truncated");
  expectRefused(std::vector<uint8_t>(bytes.begin(), bytes.end() - 1), "truncated");
}

TEST(NavFile, EverySingleByteChangeFails) {
  const std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  std::vector<uint8_t> changed = bytes;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int value = 0; value < 256; ++value) {
      if (value == bytes[at]) continue;
      changed[at] = uint8_t(value);
      const Result<NavGraph> loaded = load(changed);
      ASSERT_FALSE(loaded.ok()) << "byte " << at << " = " << value;
      ASSERT_EQ(loaded.error().rfind("bad.nav: ", 0), 0u) << loaded.error();
    }
    changed[at] = bytes[at];
  }
  // Past the header, a changed byte is reported as corruption.
  changed[300] ^= 0x10;
  expectRefused(changed, "checksum");
}

// The version a file states (info prints it; it printed this build's own).
TEST(NavFile, VersionIsTheFilesOwn) {
  std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  EXPECT_EQ(navFileVersion(bytes), kNavFileVersion);
  putU32(bytes, 8, 1);
  EXPECT_EQ(navFileVersion(bytes), 1u);
  EXPECT_EQ(navFileVersion(std::span(bytes).first(11)), std::nullopt);
  bytes[0] = 'X';
  EXPECT_EQ(navFileVersion(bytes), std::nullopt);
}

TEST(NavFile, WrongMagicVersionAndGarbage) {
  const std::vector<uint8_t> good = serializeNavGraph(smallGraph());
  std::vector<uint8_t> bytes = good;
  bytes[7] = 'X';
  expectRefused(bytes, "not a .nav file");
  const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
  expectRefused(std::vector<uint8_t>(obj.begin(), obj.end()), "not a .nav file");

  bytes = good;
  putU32(bytes, 8, kNavFileVersion + 1);
  fixChecksum(bytes);
  expectRefused(bytes, "format version 3 is newer");
  putU32(bytes, 8, 0xffffffffu);  // the version is checked before the checksum
  expectRefused(bytes, "newer");
  putU32(bytes, 8, 0);
  fixChecksum(bytes);
  expectRefused(bytes, "version 0");

  // Random bytes, with and without the magic in front.
  std::mt19937 random(7);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> garbage(random() % 700);
    for (uint8_t& b : garbage)
      b = uint8_t(random());
    if (i % 2 && garbage.size() >= 8) std::copy(good.begin(), good.begin() + 8, garbage.begin());
    if (i % 4 == 1 && garbage.size() >= 28) {
      // Past the magic, version, size and checksum checks: the table and sections are random.
      putU32(garbage, 8, kNavFileVersion);
      putU32(garbage, 12, random() % 8);
      putBytes(garbage, 16, garbage.size(), 8);
      fixChecksum(garbage);
    }
    expectRefused(garbage);
  }
}

// A change to a good file, with its checksum fixed after, and the message it must be refused with.
struct Tampering {
  const char* what;
  std::function<void(std::vector<uint8_t>&)> tamper;
  const char* expected;
};

void expectEveryTamperingRefused(const std::vector<uint8_t>& good,
                                 const std::vector<Tampering>& cases) {
  for (const Tampering& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<uint8_t> bytes = good;
    c.tamper(bytes);
    fixChecksum(bytes);
    expectRefused(bytes, c.expected);
  }
}

TEST(NavFile, HostileStructureWithAValidChecksum) {
  const std::vector<uint8_t> good = serializeNavGraph(smallGraph());
  const size_t table = 24;  // entries {id, flags, offset, bytes}, 24 bytes each
  const std::vector<Tampering> cases = {
      {"header size", [](auto& b) { putBytes(b, 16, b.size() + 1000, 8); }, "truncated"},
      {"section count", [](auto& b) { putU32(b, 12, 0xffffffffu); }, "sections (limit"},
      {"table past the end", [](auto& b) { putU32(b, 12, 200); }, "runs past the end"},
      {"too few sections", [](auto& b) { putU32(b, 12, 3); }, "starts at byte"},
      {"overlapping sections", [&](auto& b) { putBytes(b, table + 24 + 8, 120, 8); },
       "starts at byte 120, expected 433"},
      {"huge section", [&](auto& b) { putBytes(b, table + 24 + 16, uint64_t(1) << 62, 8); },
       "run past the end"},
      {"short section", [&](auto& b) { putBytes(b, table + 3 * 24 + 16, 111, 8); },
       "3 portals need 126 bytes, the section holds 107"},
      {"unknown flags", [&](auto& b) { putU32(b, table + 4, 6); }, "unknown flags"},
      {"duplicate section", [&](auto& b) { putU32(b, table + 3 * 24, kSectors); }, "appears twice"},
      {"unknown required section", [&](auto& b) { putU32(b, table + 3 * 24, 99); },
       "section 99: unknown required section"},
      {"unknown optional section, missing portals",
       [&](auto& b) {
         putU32(b, table + 3 * 24, 99);
         putU32(b, table + 3 * 24 + 4, 0);
       },
       "missing section 4 (portals)"},
      {"surface count", [](auto& b) { putU32(b, sectionOffset(b, kSurfaces), 0xffffffffu); },
       "surfaces (limit 65536)"},
      {"surface count past the data", [](auto& b) { putU32(b, sectionOffset(b, kSurfaces), 1000); },
       "ends early"},
      {"surface name length",
       [](auto& b) { putU32(b, sectionOffset(b, kSurfaces) + 4, 0xfffffff0u); }, "ends early"},
      {"surface cost", [](auto& b) { putF32(b, sectionOffset(b, kSurfaces) + 15, -1.0f); },
       "surface 0: cost -1 is not"},
      {"device count", [](auto& b) { putU32(b, sectionOffset(b, kDevices), 0xffffffffu); },
       "devices (limit 65536)"},
      {"device link count", [](auto& b) { putU32(b, sectionOffset(b, kDeviceLinks), 5); },
       "5 device links need 265 bytes, the section holds 0"},
      {"waypath count", [](auto& b) { putU32(b, sectionOffset(b, kWaypaths), 0xffffffffu); },
       "waypaths (limit 65536)"},
      {"portal kind", [](auto& b) { b[portalField(b, 2, kPortalKind)] = 7; },
       "portal 2: kind 7 is not a stored portal kind"},
      {"jump portal", [](auto& b) { b[portalField(b, 2, kPortalKind)] = 3; },
       "portal 2: kind 3 is not a stored portal kind"},
      {"portal device link", [](auto& b) { b[portalField(b, 2, kPortalKind)] = 1; },
       "portal 2: device link 0 out of range (0 links)"},
      {"portal waypath point", [](auto& b) { b[portalField(b, 2, kPortalKind)] = 2; },
       "does not belong to a waypath"},
      {"sector kind", [](auto& b) { b[sectorField(b, 1, kSectorKind)] = 5; },
       "sector 1: kind 5 is not a sector kind"},
      {"sector waypath", [](auto& b) { b[sectorField(b, 1, kSectorKind)] = 1; },
       "sector 1: waypath 4294967295 out of range (0 waypaths)"},
      {"unit name length",
       [](auto& b) { putU32(b, sectionOffset(b, kSettings) + 36, 0xfffffff0u); }, "ends early"},
      {"sector count", [](auto& b) { putU32(b, sectionOffset(b, kSectors), 0xffffffffu); },
       "4294967295 sectors (limit"},
      {"sector count past the data", [](auto& b) { putU32(b, sectionOffset(b, kSectors), 1000); },
       "1000 sectors need 67000 bytes, the section holds 201"},
      {"sector count short of the data", [](auto& b) { putU32(b, sectionOffset(b, kSectors), 2); },
       "2 sectors need 134 bytes"},
      {"portal count", [](auto& b) { putU32(b, sectionOffset(b, kPortals), 0x7fffffffu); },
       "portals (limit"},
      {"portal toSector", [](auto& b) { putU32(b, portalField(b, 2, kPortalTo), 99); },
       "bad.nav: portal 2: toSector 99 out of range (3 sectors)"},
      {"portal fromSector", [](auto& b) { putU32(b, portalField(b, 0, 0), 3); },
       "portal 0: fromSector 3 out of range"},
      {"portal to itself", [](auto& b) { putU32(b, portalField(b, 2, kPortalTo), 1); },
       "to itself"},
      {"portal under the wrong sector", [](auto& b) { putU32(b, portalField(b, 2, 0), 0); },
       "portal 2: fromSector 0 but listed under sector 1"},
      {"portal reverse", [](auto& b) { putU32(b, portalField(b, 0, kPortalReverse), 7); },
       "reverse 7 out of range (3 portals)"},
      {"portal reverse not back", [](auto& b) { putU32(b, portalField(b, 0, kPortalReverse), 2); },
       "does not lead back"},
      {"portal reverse one side only",
       [](auto& b) { putU32(b, portalField(b, 2, kPortalReverse), 0); }, "does not lead back"},
      {"portal direction", [](auto& b) { b[portalField(b, 2, kPortalDirection)] = 4; },
       "portal 2: direction 4 is not one of"},
      {"portal direction of a pair", [](auto& b) { b[portalField(b, 1, kPortalDirection)] = 1; },
       "does not lead back"},
      {"portal NaN", [](auto& b) { putF32(b, portalField(b, 1, kPortalLeft), std::nanf("")); },
       "not finite"},
      {"portal infinity", [](auto& b) { putF32(b, portalField(b, 1, kPortalLeft + 16), INFINITY); },
       "not finite"},
      {"portal near the float range's end",
       [](auto& b) { putF32(b, portalField(b, 1, kPortalLeft + 8), 3e38f); },
       "more than 1e8 m out"},
      {"sector surface", [](auto& b) { putBytes(b, sectorField(b, 2, kSectorSurface), 2, 2); },
       "sector 2: surface 2 out of range (2 surfaces)"},
      {"sector firstPortal", [](auto& b) { putU32(b, sectorField(b, 1, kSectorFirstPortal), 0); },
       "sector 1: firstPortal 0, expected 1"},
      {"sector portalCount",
       [](auto& b) { putU32(b, sectorField(b, 1, kSectorPortalCount), 0xffffffffu); },
       "run past the 3 portals"},
      {"sector portals left over",
       [](auto& b) {
         putU32(b, sectorField(b, 1, kSectorPortalCount), 1);
         putU32(b, sectorField(b, 2, kSectorFirstPortal), 2);
       },
       "1 portals after the last sector's"},
      {"sector bounds NaN", [](auto& b) { putF32(b, sectorField(b, 0, 4), std::nanf("")); },
       "sector 0: bounds"},
      {"sector bounds inverted", [](auto& b) { putF32(b, sectorField(b, 0, 0), 5.0f); },
       "not a finite box"},
      {"sector columns", [](auto& b) { putU32(b, sectorField(b, 0, kSectorFirstColumn), 9); },
       "first column is past"},
      {"sector columns negative",
       [](auto& b) { putU32(b, sectorField(b, 0, kSectorLastColumn + 4), 0xffffffffu); },
       "first column is past"},
      {"sector plane", [](auto& b) { putF32(b, sectorField(b, 0, kSectorPlane + 8), -INFINITY); },
       "height plane"},
      {"graph bounds", [](auto& b) { putF32(b, sectionOffset(b, kSettings) + 12, -1.0f); },
       "differ from the sectors'"},
      {"cell size zero", [](auto& b) { putF32(b, sectionOffset(b, kSettings), 0.0f); },
       "cellSize 0 is not"},
      {"cell size NaN", [](auto& b) { putF32(b, sectionOffset(b, kSettings), std::nanf("")); },
       "cellSize"},
      {"origin", [](auto& b) { putF32(b, sectionOffset(b, kSettings) + 8, INFINITY); }, "origin"},
      {"unit kind", [](auto& b) { b[sectionOffset(b, kSettings) + 44] = 2; }, "unit: kind"},
      {"unit width", [](auto& b) { putF32(b, sectionOffset(b, kSettings) + 45, 0.0f); },
       "unit: width = 0"},
      {"unit slope", [](auto& b) { putF32(b, sectionOffset(b, kSettings) + 61, 90.0f); },
       "unit: maxSlopeDegrees"},
      {"unit turning radius", [](auto& b) { putF32(b, sectionOffset(b, kSettings) + 69, -1.0f); },
       "unit: turningRadius"},
      {"unit shape", [](auto& b) { b[sectionOffset(b, kUnitShape)] = 2; }, "unit: shape"},
      {"unit name", [](auto& b) { b[sectionOffset(b, kSettings) + 40] = 0xc0; },
       "unit: name is not valid UTF-8"},
      {"surface name", [](auto& b) { b[sectionOffset(b, kSurfaces) + 8] = 0xff; },
       "surface 0: name is not valid UTF-8"},
  };
  expectEveryTamperingRefused(good, cases);

  // Trailing bytes, counted in the header or not.
  std::vector<uint8_t> longer = good;
  longer.insert(longer.end() - 4, 0);
  fixChecksum(longer);
  expectRefused(longer, "1 bytes after the end");
  putBytes(longer, 16, longer.size(), 8);
  fixChecksum(longer);
  expectRefused(longer, "1 bytes between the last section and the checksum");
}

// smallGraph with a reach at the left end of portal 0 (and so at the right end
// of its reverse, portal 1): into sector 0 only, in a range of directions.
NavGraph smallGraphWithReach() {
  NavGraph graph = smallGraph();
  graph.reach.assign(graph.portals.size() * 2, PortalEndReach{});
  PortalEndReach reach;
  reach.point = {1.0f, 0.0f, 0.1f};
  reach.outwardMin[0] = -0.5f;
  reach.outwardMax[0] = 0.75f;
  reach.length = 2.5f;
  graph.reach[portalEndIndex(0, true)] = reach;
  std::swap(reach.outwardMin[0], reach.outwardMin[1]);
  std::swap(reach.outwardMax[0], reach.outwardMax[1]);
  graph.reach[portalEndIndex(1, false)] = reach;
  return graph;
}

// Bytes of one stored reach: end u32, point 3 x f32, bounds 4 x f32, length f32.
constexpr size_t kReachBytes = 36;

TEST(NavFile, KeepsPortalReachAndReadsFilesFromBeforeItWithout) {
  const NavGraph graph = smallGraphWithReach();
  std::vector<uint8_t> bytes = serializeNavGraph(graph);
  // Two ends reach: the count and two entries, listed by end.
  const size_t at = sectionOffset(bytes, kPortalReach);
  EXPECT_EQ(getU32(bytes, at), 2u);
  EXPECT_EQ(getU32(bytes, at + 4), portalEndIndex(0, true));
  EXPECT_EQ(getU32(bytes, at + 4 + kReachBytes), portalEndIndex(1, false));
  EXPECT_EQ(getU32(bytes, 24 + 24 * 8 + 4), 0u) << "a reader may go without reach";
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  expectSameGraph(graph, loaded.value());
  EXPECT_EQ(serializeNavGraph(loaded.value()), bytes);
  // As a reader from before reach sees a file: the section unknown and optional.
  putU32(bytes, 24 + 24 * 8, 99);
  putU32(bytes, 24 + 24 * 8 + 4, 0);
  fixChecksum(bytes);
  const Result<NavGraph> old = load(bytes);
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_TRUE(old.value().reach.empty());
}

TEST(NavFile, HostilePortalReachWithAValidChecksum) {
  const std::vector<uint8_t> good = serializeNavGraph(smallGraphWithReach());
  const auto entry = [](const std::vector<uint8_t>& b, size_t k, size_t field) {
    return sectionOffset(b, kPortalReach) + 4 + k * kReachBytes + field;
  };
  const std::vector<Tampering> cases = {
      {"count", [](auto& b) { putU32(b, sectionOffset(b, kPortalReach), 7); },
       "7 portal ends (limit 6)"},
      {"count short of the data", [](auto& b) { putU32(b, sectionOffset(b, kPortalReach), 1); },
       "1 portal ends need 36 bytes, the section holds 72"},
      {"end past the portals", [&](auto& b) { putU32(b, entry(b, 1, 0), 6); },
       "portal end 6 is past the 3 portals' ends"},
      {"ends out of order", [&](auto& b) { putU32(b, entry(b, 1, 0), 0); },
       "portal end 0 follows 0"},
      {"a one-way portal",
       [&](auto& b) {
         putU32(b, entry(b, 0, 0), 4);
         putU32(b, entry(b, 1, 0), 5);
       },
       "portal 2 left end's reach: the portal is not a two-way walk"},
      {"point NaN", [&](auto& b) { putF32(b, entry(b, 0, 4), std::nanf("")); }, "not finite"},
      {"negative length", [&](auto& b) { putF32(b, entry(b, 0, 32), -1.0f); }, "negative"},
      {"bound NaN", [&](auto& b) { putF32(b, entry(b, 0, 24), std::nanf("")); },
       "a direction bound is not finite"},
      {"bound past a cosine", [&](auto& b) { putF32(b, entry(b, 0, 16), -2.0f); },
       "directions -2 .. 0.75 are not cosines"},
      {"point off the portal's line", [&](auto& b) { putF32(b, entry(b, 0, 4), 1.5f); },
       "is not out along the portal from its end"},
      {"point inside the portal", [&](auto& b) { putF32(b, entry(b, 0, 12), 0.5f); },
       "is not out along the portal from its end"},
      {"point too far out", [&](auto& b) { putF32(b, entry(b, 0, 12), -0.3f); },
       "is not out along the portal from its end"},
      {"mirror differs", [&](auto& b) { putF32(b, entry(b, 1, 32), 2.0f); },
       "differs from the reverse portal's (1)"},
  };
  expectEveryTamperingRefused(good, cases);
}

TEST(NavFile, UnknownOptionalSectionIsSkipped) {
  // A later version's optional section, appended after the last one.
  std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  const std::vector<uint8_t> extra = {1, 2, 3, 4, 5};
  bytes.insert(bytes.end() - 4, extra.begin(), extra.end());
  std::vector<uint8_t> entry(24, 0);
  putU32(entry, 0, 77);
  putBytes(entry, 8, bytes.size() - 4 - extra.size() + 24, 8);
  putBytes(entry, 16, extra.size(), 8);
  const uint32_t sections = getU32(bytes, 12);
  bytes.insert(bytes.begin() + 24 + sections * 24, entry.begin(), entry.end());
  putU32(bytes, 12, sections + 1);
  for (uint32_t k = 0; k < sections; ++k) {
    const size_t at = 24 + 24 * k + 8;
    putBytes(bytes, at, getU64(bytes, at) + 24, 8);
  }
  putBytes(bytes, 16, bytes.size(), 8);
  fixChecksum(bytes);
  const Result<NavGraph> loaded = load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  expectSameGraph(smallGraph(), loaded.value());

  putU32(bytes, 24 + sections * 24 + 4, 1);  // the same section marked required
  fixChecksum(bytes);
  expectRefused(bytes, "section 77: unknown required section");
}

TEST(NavFile, LimitsAreEnforced) {
  const std::vector<uint8_t> bytes = serializeNavGraph(smallGraph());
  NavFileLimits limits;
  limits.maxSectors = 2;
  EXPECT_FALSE(load(bytes, limits).ok());
  limits = {};
  limits.maxPortals = 2;
  EXPECT_FALSE(load(bytes, limits).ok());
  limits = {};
  limits.maxSurfaces = 1;
  EXPECT_FALSE(load(bytes, limits).ok());
  limits = {};
  limits.maxNameBytes = 3;
  const Result<NavGraph> longName = load(bytes, limits);
  ASSERT_FALSE(longName.ok());
  EXPECT_NE(longName.error().find("unit: name is 4 bytes (limit 3)"), std::string::npos)
      << longName.error();
  limits = {};
  limits.maxFileBytes = bytes.size() - 1;
  EXPECT_FALSE(load(bytes, limits).ok());
  limits.maxFileBytes = bytes.size();
  EXPECT_TRUE(load(bytes, limits).ok());
}

TEST(NavFile, RandomChangesWithAValidChecksumNeverBreakTheReader) {
  const std::vector<uint8_t> good = serializeNavGraph(smallGraph());
  std::mt19937 random(11);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> bytes = good;
    const int changes = 1 + int(random() % 4);
    for (int c = 0; c < changes; ++c) {
      // Mostly small values: they reach the index and count checks more often than random bits.
      const size_t at = random() % (bytes.size() - 4);
      bytes[at] = uint8_t(random() % 3 == 0 ? random() : random() % 8);
    }
    fixChecksum(bytes);
    const Result<NavGraph> loaded = load(bytes);
    if (!loaded) {
      ASSERT_EQ(loaded.error().rfind("bad.nav: ", 0), 0u) << loaded.error();
      continue;
    }
    // What is accepted is sound: it passes the graph check and writes back the same way.
    ++accepted;
    const std::optional<std::string> error = checkNavGraph(loaded.value(), kName);
    ASSERT_FALSE(error) << *error;
    const Result<NavGraph> again = load(serializeNavGraph(loaded.value()));
    ASSERT_TRUE(again.ok()) << again.error();
  }
  EXPECT_GT(accepted, 0);  // e.g. a changed portal endpoint is still a valid graph
}

TEST(NavFile, UnsoundGraphsAreNotWritten) {
  NavGraph graph = smallGraph();
  graph.portals[2].toSector = 40;
  const std::string path =
      (std::filesystem::temp_directory_path() / "navscope_unsound.nav").string();
  std::filesystem::remove(path);
  const Result<size_t> written = writeNavFile(path, graph);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error(),
            path + ": portal 2: toSector 40 out of range (3 sectors) (not written)");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(checkNavGraph(smallGraph(), kName));
}

// The search enters walk portals without reading the sector beyond when no
// surface is closed (portal_search.h, mayEnter); a waypath's sector may be.
TEST(NavFile, AWalkPortalOntoAWaypathIsRefused) {
  NavGraph graph = smallGraph();
  graph.waypaths.push_back({"lane", {{2.2f, 0.0f, 0.5f}, {2.8f, 0.0f, 0.5f}}, false, {}});
  graph.sectors[2].kind = SectorKind::Waypath;
  graph.sectors[2].waypath = 0;
  const std::optional<std::string> refused = checkNavGraph(graph, kName);
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->find("portal 2: a walk portal joins a waypath's sector"), std::string::npos)
      << *refused;
  const Result<NavGraph> loaded = load(serializeNavGraph(graph));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("walk portal joins a waypath"), std::string::npos)
      << loaded.error();
}

TEST(NavFile, ReadingNamesThePath) {
  const Result<NavGraph> missing = readNavFile("/nonexistent/level.nav");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().rfind("/nonexistent/level.nav: ", 0), 0u) << missing.error();
  const Result<NavGraph> directory = readNavFile(std::filesystem::temp_directory_path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.error().find("not a regular file"), std::string::npos) << directory.error();
  const Result<NavGraph> device = readNavFile("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().find("not a regular file"), std::string::npos) << device.error();
}

}  // namespace
}  // namespace nav
