// Sidecar keys for units, surfaces, devices, waypaths and the grid angle.
#include <gtest/gtest.h>

#include <cmath>

#include "nav/level_settings.h"

namespace nav {
namespace {

std::string errorOf(const std::string& json) {
  const Result<LevelSettings> settings = parseLevelSettings(json, "level.json");
  EXPECT_FALSE(settings.ok()) << json;
  return settings.ok() ? std::string() : settings.error();
}

TEST(SidecarUnits, HumanAndVehicleProfiles) {
  const Result<LevelSettings> settings = parseLevelSettings(R"({"units": [
      {"name": "walker"},
      {"name": "round", "shape": "round"},
      {"name": "car", "kind": "vehicle", "width": 1.8, "length": 4.5, "height": 1.5,
       "stepHeight": 0.2, "maxDrop": 0.3, "maxSlopeDegrees": 20, "turningRadius": 5}]})",
                                                            "level.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  const std::vector<UnitProfile>& units = settings.value().units;
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(units[0].kind, UnitKind::Human);
  EXPECT_EQ(units[0].shape, UnitShape::Box);
  EXPECT_FLOAT_EQ(units[0].footprint(), 0.6f);
  EXPECT_EQ(units[1].shape, UnitShape::Round);
  EXPECT_EQ(units[2].kind, UnitKind::Vehicle);
  EXPECT_FLOAT_EQ(units[2].turningRadius, 5.0f);
  // The widest axis-aligned box of a 1.8 x 4.5 body in any orientation is its diagonal.
  EXPECT_NEAR(units[2].footprint(), std::sqrt(1.8 * 1.8 + 4.5 * 4.5), 1e-5);
}

// Long text from the file is quoted cut, its length said: a 20,000-character
// key, and nlohmann's "last read" of a 100,000-character bad string.
TEST(SidecarErrors, LongTextIsQuotedCut) {
  // Built by appending: GCC 12 warns, wrongly, on a literal + a long string.
  std::string longKey = "{\"";
  longKey.append(20'000, 'k');
  longKey += "\": 1}";
  const std::string key = errorOf(longKey);
  EXPECT_EQ(key.rfind("level.json: 'kkk", 0), 0u) << key;
  EXPECT_NE(key.find("...' (20000 characters): unknown key"), std::string::npos) << key;
  EXPECT_LT(key.size(), 400u);
  std::string longString = "{\"cellSize\": \"";
  longString.append(100'000, 'x');
  longString += "\x01\"}";
  const std::string string = errorOf(longString);
  EXPECT_NE(string.find("control character U+0001"), std::string::npos) << string;
  EXPECT_NE(string.find("last read: '\"xxx"), std::string::npos) << string;
  EXPECT_NE(string.find("...' (1000"), std::string::npos) << string;
  EXPECT_LT(string.size(), 400u);
}

TEST(SidecarUnits, Errors) {
  EXPECT_NE(errorOf(R"({"units": [{"kind": "tank"}]})").find("units[0].kind"), std::string::npos);
  EXPECT_NE(errorOf(R"({"units": [{}, {"shape": "capsule"}]})")
                .find("units[1].shape: 'capsule' is not a unit shape"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"units": [{"name": "a"}, {"name": "a"}]})").find("used twice"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"unit": {}, "units": [{}]})").find("not both"), std::string::npos);
  EXPECT_NE(errorOf(R"({"units": [{"length": -1}]})").find("length"), std::string::npos);
}

TEST(SidecarUnits, LedgeOverhang) {
  const Result<LevelSettings> settings = parseLevelSettings(
      R"({"units": [{"name": "a", "ledgeOverhang": 0.1}, {"name": "b"}]})", "level.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  ASSERT_EQ(settings.value().units.size(), 2u);
  EXPECT_EQ(settings.value().units[0].ledgeOverhang, 0.1f);
  EXPECT_EQ(settings.value().units[1].ledgeOverhang, 0.0f) << "none by default";
  // Below 0, and past half the default 0.6 m footprint (0.3).
  EXPECT_NE(errorOf(R"({"units": [{"ledgeOverhang": -1}]})").find("ledgeOverhang = -1"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"units": [{"ledgeOverhang": 5}]})").find("ledgeOverhang = 5"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"unit": {"ledgeOverhang": 5}})").find("ledgeOverhang"), std::string::npos);
}

TEST(SidecarGridAngle, DegreesOrAuto) {
  const Result<LevelSettings> turned = parseLevelSettings(R"({"gridAngle": -22.5})", "level.json");
  ASSERT_TRUE(turned.ok()) << turned.error();
  EXPECT_EQ(turned.value().gridAngle, -22.5f);
  for (const char* automatic : {R"({"gridAngle": "auto"})", "{}"}) {
    const Result<LevelSettings> settings = parseLevelSettings(automatic, "level.json");
    ASSERT_TRUE(settings.ok()) << settings.error();
    EXPECT_FALSE(settings.value().gridAngle) << automatic;
  }
  EXPECT_NE(errorOf(R"({"gridAngle": 60})").find("gridAngle: 60 must be degrees from -45 to 45"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"gridAngle": "north"})").find("gridAngle: expected degrees or \"auto\""),
            std::string::npos);
}

TEST(SidecarSurfaces, MaterialsMapToSurfacesAndOverridesKeepTheRest) {
  const Result<LevelSettings> settings = parseLevelSettings(R"({
      "materials": {"asphalt": "road", "tarmac": "road", "stone": "paving"},
      "surfaces": {"road": {"cost": 2.5}, "paving": {"cost": 1.1, "units": ["human"]}}})",
                                                            "level.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  const std::vector<SurfaceSpec> table = surfaceTable(settings.value());
  const std::vector<uint16_t> indices = materialSurfaceIndices(
      settings.value(), {"", "asphalt", "lava", "stone", "unknown", "tarmac"}, table);
  ASSERT_EQ(indices.size(), 6u);
  EXPECT_EQ(table[indices[0]].name, "default");
  EXPECT_EQ(table[indices[1]].name, "road");
  EXPECT_FLOAT_EQ(table[indices[1]].cost, 2.5f);
  EXPECT_TRUE(table[indices[1]].allows(UnitKind::Vehicle)) << "an override keeps unset fields";
  EXPECT_EQ(table[indices[2]].name, "lava") << "a material named like a surface needs no mapping";
  EXPECT_EQ(table[indices[3]].name, "paving");
  EXPECT_FALSE(table[indices[3]].allows(UnitKind::Vehicle));
  EXPECT_EQ(table[indices[4]].name, "default");
  EXPECT_EQ(indices[5], indices[1]);
}

TEST(SidecarSurfaces, Errors) {
  EXPECT_NE(errorOf(R"({"materials": {"a": "nowhere"}})").find("unknown surface 'nowhere'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"surfaces": {"road": {"cost": 0}}})").find("surfaces.road.cost"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"({"surfaces": {"road": {"units": ["boat"]}}})").find("surfaces.road.units[0]"),
      std::string::npos);
}

TEST(SidecarDevices, AllFields) {
  const Result<LevelSettings> settings = parseLevelSettings(R"({"devices": [
      {"id": "gate", "kind": "door", "entry": {"min": [0, 0, 0], "max": [1, 2, 1]},
       "exit": {"min": [0, 0, 2], "max": [1, 2, 3]}, "locked": true, "key": "red", "action": "open"},
      {"id": "lift", "kind": "elevator", "entry": {"min": [5, 0, 5], "max": [7, 2, 7]},
       "exit": {"min": [5, 3, 5], "max": [7, 5, 7]}, "waitTime": 4, "travelTime": 6, "twoWay": false}]})",
                                                            "level.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  const std::vector<DeviceSpec>& devices = settings.value().devices;
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].kind, DeviceKind::Door);
  EXPECT_TRUE(devices[0].locked);
  EXPECT_EQ(devices[0].key, "red");
  EXPECT_TRUE(devices[0].twoWay);
  EXPECT_EQ(devices[1].kind, DeviceKind::Elevator);
  EXPECT_FALSE(devices[1].twoWay);
  EXPECT_FLOAT_EQ(devices[1].waitTime, 4.0f);
  EXPECT_EQ(devices[1].exit.min, glm::vec3(5, 3, 5));
}

TEST(SidecarDevices, Errors) {
  const std::string zones =
      R"("entry": {"min": [0, 0, 0], "max": [1, 1, 1]}, "exit": {"min": [2, 0, 0], "max": [3, 1, 1]})";
  EXPECT_NE(errorOf(R"({"devices": [{"id": "d", "kind": "door", "locked": true, )" + zones + "}]}")
                .find("names no \"key\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"devices": [{"id": "d", "kind": "portal", )" + zones + "}]}")
                .find("devices[0].kind"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"devices": [{"id": "d", "entry": {"min": [0, 0, 0], "max": [1, 1, 1]}}]})")
                .find("both \"entry\" and \"exit\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"devices": [{"id": "d", "entry": {"min": [2, 0, 0], "max": [1, 1, 1]},
                        "exit": {"min": [2, 0, 0], "max": [3, 1, 1]}}]})")
                .find("devices[0].entry: min must not exceed max"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"devices": [{"id": "d", )" + zones + R"(}, {"id": "d", )" + zones + "}]}")
                .find("used twice"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"({"devices": [{"id": "d", "waitTime": -1, )" + zones + "}]}").find("waitTime"),
      std::string::npos);
}

TEST(SidecarWaypaths, OneWayForVehicles) {
  const Result<LevelSettings> settings = parseLevelSettings(
      R"({"waypaths": [{"id": "lane", "points": [[0, 0, 0], [10, 0, 0], [10, 0, 10]],
                         "oneWay": true, "unit": "vehicle"}]})",
      "level.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  const WaypathSpec& lane = settings.value().waypaths.at(0);
  EXPECT_EQ(lane.points.size(), 3u);
  EXPECT_TRUE(lane.oneWay);
  EXPECT_EQ(lane.unitKind, UnitKind::Vehicle);
  EXPECT_NE(
      errorOf(R"({"waypaths": [{"id": "w", "points": [[0, 0, 0]]}]})").find("at least 2 points"),
      std::string::npos);
}

}  // namespace
}  // namespace nav
