// The sidecar JSON: every key optional, unknown keys are errors (a typo must
// not silently become a default), and every error names its key path.
#include "nav/level_settings.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include "quoted_text.h"

#include "guarded.h"
#include "nav/grid_frame.h"

namespace nav {

const char* toString(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::Door:
      return "door";
    case DeviceKind::Elevator:
      return "elevator";
    case DeviceKind::Ladder:
      return "ladder";
  }
  return "unknown";
}

const char* toString(UpAxis axis) {
  return axis == UpAxis::Z ? "z" : "y";
}

std::vector<SurfaceSpec> defaultSurfaces() {
  constexpr uint8_t human = 1u << int(UnitKind::Human);
  constexpr uint8_t vehicle = 1u << int(UnitKind::Vehicle);
  // Humans prefer sidewalks to roads; lava is walkable but a last resort.
  return {{"default", 1.0f, human | vehicle},
          {"sidewalk", 1.0f, human},
          {"road", 1.3f, human | vehicle},
          {"grass", 1.2f, human},
          {"water", 3.0f, human},
          {"lava", 25.0f, human}};
}

std::vector<SurfaceSpec> surfaceTable(const LevelSettings& settings) {
  std::vector<SurfaceSpec> table = defaultSurfaces();
  const size_t builtIns = table.size();
  for (const SurfaceSpec& spec : settings.surfaces) {
    const auto same = std::find_if(table.begin(), table.end(),
                                   [&](const SurfaceSpec& s) { return s.name == spec.name; });
    if (same != table.end()) {
      *same = spec;
    } else {
      table.push_back(spec);
    }
  }
  std::sort(table.begin() + std::ptrdiff_t(builtIns), table.end(),
            [](const SurfaceSpec& a, const SurfaceSpec& b) { return a.name < b.name; });
  return table;
}

std::vector<uint16_t> materialSurfaceIndices(const LevelSettings& settings,
                                             const std::vector<std::string>& materials,
                                             const std::vector<SurfaceSpec>& table) {
  auto indexOf = [&](const std::string& name) -> std::optional<uint16_t> {
    for (size_t i = 0; i < table.size(); ++i) {
      if (table[i].name == name) return uint16_t(i);
    }
    return std::nullopt;
  };
  std::vector<uint16_t> indices;
  indices.reserve(materials.size());
  for (const std::string& material : materials) {
    const auto mapped = settings.materialSurfaces.find(material);
    const std::string& surface =
        mapped != settings.materialSurfaces.end() ? mapped->second : material;
    indices.push_back(indexOf(surface).value_or(0));  // 0 is "default"
  }
  return indices;
}

namespace {

using Json = nlohmann::json;

/// Thrown by the readers below and caught in parseLevelSettings: names the key path at fault.
struct SettingsError {
  std::string path;
  std::string message;
};

std::string keyPath(const std::string& parent, std::string_view key) {
  // A key read from the file: a long one is cut (quotedText).
  const std::string shown = key.size() <= kQuotedWhole ? std::string(key) : quotedText(key);
  return parent.empty() ? shown : parent + "." + shown;
}

std::string indexPath(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

float readNumber(const Json& value, const std::string& path) {
  if (!value.is_number()) throw SettingsError{path, "expected a number, got " + value.dump()};
  const double number = value.get<double>();
  // Checked before narrowing: converting an out-of-range double to float is undefined.
  if (!(std::abs(number) <= double(std::numeric_limits<float>::max()))) {
    throw SettingsError{path, value.dump() + " is not a finite 32-bit number"};
  }
  return float(number);
}

std::string readString(const Json& value, const std::string& path) {
  if (!value.is_string()) throw SettingsError{path, "expected a string, got " + value.dump()};
  return value.get<std::string>();
}

glm::vec3 readPoint(const Json& value, const std::string& path) {
  if (!value.is_array() || value.size() != 3) {
    throw SettingsError{path, "expected 3 numbers [x, y, z]"};
  }
  return {readNumber(value[0], indexPath(path, 0)), readNumber(value[1], indexPath(path, 1)),
          readNumber(value[2], indexPath(path, 2))};
}

std::vector<glm::vec3> readPoints(const Json& value, const std::string& path) {
  if (!value.is_array()) throw SettingsError{path, "expected an array of [x, y, z] points"};
  std::vector<glm::vec3> points;
  for (size_t i = 0; i < value.size(); ++i)
    points.push_back(readPoint(value[i], indexPath(path, i)));
  return points;
}

// One of an enum's names, as its toString spells them; the error lists them all.
template <class Enum, int Count>
Enum readNamed(const Json& value, const std::string& path, const char* what) {
  const std::string name = readString(value, path);
  std::string names;
  for (int k = 0; k < Count; ++k) {
    if (name == toString(Enum(k))) return Enum(k);
    names += std::string(k == 0 ? "" : ", ") + toString(Enum(k));
  }
  throw SettingsError{path, quotedText(name) + " is not a " + what + " (" + names + ")"};
}

UnitKind readUnitKind(const Json& value, const std::string& path) {
  return readNamed<UnitKind, kUnitKindCount>(value, path, "unit kind");
}

template <class Target>
struct Field {
  std::string_view key;
  void (*read)(const Json& value, const std::string& path, Target& out);
};

/// Reads an object whose keys must all be known: a typo is an error, not a silent default.
template <class Target>
void readObject(const Json& value, const std::string& path, std::span<const Field<Target>> fields,
                Target& out) {
  if (!value.is_object()) {
    throw SettingsError{path, "expected an object, got " + std::string(value.type_name())};
  }
  for (const auto& entry : value.items()) {
    const std::string& key = entry.key();
    const Json& item = entry.value();
    const auto field = std::find_if(fields.begin(), fields.end(),
                                    [&](const Field<Target>& f) { return f.key == key; });
    if (field == fields.end()) {
      std::string known;
      for (const Field<Target>& f : fields)
        known += (known.empty() ? "" : ", ") + std::string(f.key);
      throw SettingsError{keyPath(path, key), "unknown key (known keys: " + known + ")"};
    }
    field->read(item, keyPath(path, key), out);
  }
}

const Field<UnitProfile> kUnitFields[] = {
    {"name",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.name = readString(v, p); }},
    {"width",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.width = readNumber(v, p); }},
    {"height",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.height = readNumber(v, p); }},
    {"stepHeight",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.stepHeight = readNumber(v, p); }},
    {"maxDrop",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.maxDrop = readNumber(v, p); }},
    {"maxSlopeDegrees", [](const Json& v, const std::string& p,
                           UnitProfile& u) { u.maxSlopeDegrees = readNumber(v, p); }},
    {"kind",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.kind = readUnitKind(v, p); }},
    {"shape",
     [](const Json& v, const std::string& p, UnitProfile& u) {
       u.shape = readNamed<UnitShape, kUnitShapeCount>(v, p, "unit shape");
     }},
    {"length",
     [](const Json& v, const std::string& p, UnitProfile& u) { u.length = readNumber(v, p); }},
    {"turningRadius", [](const Json& v, const std::string& p,
                         UnitProfile& u) { u.turningRadius = readNumber(v, p); }},
    {"ledgeOverhang", [](const Json& v, const std::string& p,
                         UnitProfile& u) { u.ledgeOverhang = readNumber(v, p); }},
};

UnitProfile readUnit(const Json& v, const std::string& p) {
  UnitProfile unit;
  readObject<UnitProfile>(v, p, kUnitFields, unit);
  const Result<UnitProfile> valid = validateUnitProfile(unit);
  if (!valid) throw SettingsError{p, valid.error()};
  return valid.value();
}

bool readBool(const Json& value, const std::string& path) {
  if (!value.is_boolean()) throw SettingsError{path, "expected true or false, got " + value.dump()};
  return value.get<bool>();
}

float readNonNegative(const Json& value, const std::string& path) {
  const float number = readNumber(value, path);
  if (!(number >= 0.0f)) throw SettingsError{path, value.dump() + " must be >= 0"};
  return number;
}

Aabb readZone(const Json& value, const std::string& path) {
  struct Zone {
    std::optional<glm::vec3> min, max;
  };
  static const Field<Zone> fields[] = {
      {"min", [](const Json& v, const std::string& p, Zone& z) { z.min = readPoint(v, p); }},
      {"max", [](const Json& v, const std::string& p, Zone& z) { z.max = readPoint(v, p); }},
  };
  Zone zone;
  readObject<Zone>(value, path, fields, zone);
  if (!zone.min || !zone.max) throw SettingsError{path, "needs both \"min\" and \"max\""};
  if (!glm::all(glm::lessThanEqual(*zone.min, *zone.max)))
    throw SettingsError{path, "min must not exceed max on any axis"};
  return Aabb{*zone.min, *zone.max};
}

const Field<DeviceSpec> kDeviceFields[] = {
    {"id", [](const Json& v, const std::string& p, DeviceSpec& d) { d.id = readString(v, p); }},
    {"kind",
     [](const Json& v, const std::string& p, DeviceSpec& d) {
       d.kind = readNamed<DeviceKind, kDeviceKindCount>(v, p, "device kind");
     }},
    {"entry", [](const Json& v, const std::string& p, DeviceSpec& d) { d.entry = readZone(v, p); }},
    {"exit", [](const Json& v, const std::string& p, DeviceSpec& d) { d.exit = readZone(v, p); }},
    {"twoWay",
     [](const Json& v, const std::string& p, DeviceSpec& d) { d.twoWay = readBool(v, p); }},
    {"locked",
     [](const Json& v, const std::string& p, DeviceSpec& d) { d.locked = readBool(v, p); }},
    {"key", [](const Json& v, const std::string& p, DeviceSpec& d) { d.key = readString(v, p); }},
    {"action",
     [](const Json& v, const std::string& p, DeviceSpec& d) { d.action = readString(v, p); }},
    {"waitTime", [](const Json& v, const std::string& p,
                    DeviceSpec& d) { d.waitTime = readNonNegative(v, p); }},
    {"travelTime", [](const Json& v, const std::string& p,
                      DeviceSpec& d) { d.travelTime = readNonNegative(v, p); }},
};

DeviceSpec readDevice(const Json& v, const std::string& p) {
  DeviceSpec device;
  device.entry = device.exit = Aabb{glm::vec3(0.0f), glm::vec3(0.0f)};
  bool hasEntry = false, hasExit = false;
  if (v.is_object()) {
    hasEntry = v.contains("entry");
    hasExit = v.contains("exit");
  }
  readObject<DeviceSpec>(v, p, kDeviceFields, device);
  if (device.id.empty()) throw SettingsError{p, "needs a non-empty \"id\""};
  if (!hasEntry || !hasExit) throw SettingsError{p, "needs both \"entry\" and \"exit\" zones"};
  if (device.locked && device.key.empty()) throw SettingsError{p, "is locked but names no \"key\""};
  return device;
}

const Field<WaypathSpec> kWaypathFields[] = {
    {"id", [](const Json& v, const std::string& p, WaypathSpec& w) { w.id = readString(v, p); }},
    {"points",
     [](const Json& v, const std::string& p, WaypathSpec& w) { w.points = readPoints(v, p); }},
    {"oneWay",
     [](const Json& v, const std::string& p, WaypathSpec& w) { w.oneWay = readBool(v, p); }},
    {"unit",
     [](const Json& v, const std::string& p, WaypathSpec& w) { w.unitKind = readUnitKind(v, p); }},
};

WaypathSpec readWaypath(const Json& v, const std::string& p) {
  WaypathSpec waypath;
  readObject<WaypathSpec>(v, p, kWaypathFields, waypath);
  if (waypath.id.empty()) throw SettingsError{p, "needs a non-empty \"id\""};
  if (waypath.points.size() < 2) throw SettingsError{p, "needs at least 2 points"};
  return waypath;
}

uint8_t readKinds(const Json& v, const std::string& p) {
  if (!v.is_array()) throw SettingsError{p, "expected an array of unit kinds"};
  uint8_t kinds = 0;
  for (size_t i = 0; i < v.size(); ++i)
    kinds |= uint8_t(1u << int(readUnitKind(v[i], indexPath(p, i))));
  return kinds;
}

const Field<SurfaceSpec> kSurfaceFields[] = {
    {"cost",
     [](const Json& v, const std::string& p, SurfaceSpec& s) {
       s.cost = readNumber(v, p);
       if (!(s.cost > 0.0f)) throw SettingsError{p, v.dump() + " must be > 0"};
     }},
    {"units",
     [](const Json& v, const std::string& p, SurfaceSpec& s) { s.allowedKinds = readKinds(v, p); }},
};

template <class Spec, class Read>
void readArray(const Json& v, const std::string& p, std::vector<Spec>& out, Read&& read) {
  if (!v.is_array()) throw SettingsError{p, "expected an array"};
  for (size_t i = 0; i < v.size(); ++i)
    out.push_back(read(v[i], indexPath(p, i)));
}

// One line per top-level key.
const Field<LevelSettings> kSettingsFields[] = {
    {"seeds",
     [](const Json& v, const std::string& p, LevelSettings& s) { s.seeds = readPoints(v, p); }},
    {"start",
     [](const Json& v, const std::string& p, LevelSettings& s) { s.start = readPoint(v, p); }},
    {"goal",
     [](const Json& v, const std::string& p, LevelSettings& s) { s.goal = readPoint(v, p); }},
    {"cellSize",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       s.cellSize = readNumber(v, p);
       if (!(*s.cellSize > 0.0f)) throw SettingsError{p, v.dump() + " must be > 0 metres"};
     }},
    {"gridAngle",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       if (v.is_string() && v.get<std::string>() == "auto") return;
       if (!v.is_number()) throw SettingsError{p, "expected degrees or \"auto\""};
       s.gridAngle = readNumber(v, p);
       if (!(std::abs(*s.gridAngle) <= kMaxGridDegrees))
         throw SettingsError{p, v.dump() + " must be degrees from -45 to 45"};
     }},
    {"navmesh",
     [](const Json& v, const std::string& p, LevelSettings& s) { s.navmesh = readBool(v, p); }},
    {"flipFaces",
     [](const Json& v, const std::string& p, LevelSettings& s) { s.flipFaces = readBool(v, p); }},
    {"upAxis",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       const std::string axis = readString(v, p);
       if (axis != "y" && axis != "z") throw SettingsError{p, v.dump() + " must be \"y\" or \"z\""};
       s.upAxis = axis == "z" ? UpAxis::Z : UpAxis::Y;
     }},
    {"unitScale",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       s.unitScale = readNumber(v, p);
       if (!(s.unitScale > 0.0f)) throw SettingsError{p, v.dump() + " must be > 0 (metres a unit)"};
     }},
    {"unit",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       if (!s.units.empty()) throw SettingsError{p, "give either \"unit\" or \"units\", not both"};
       s.units.push_back(readUnit(v, p));
     }},
    {"units",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       if (!s.units.empty()) throw SettingsError{p, "give either \"unit\" or \"units\", not both"};
       readArray(v, p, s.units, readUnit);
     }},
    {"materials",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       if (!v.is_object())
         throw SettingsError{p, "expected an object of material -> surface names"};
       for (const auto& [material, surface] : v.items())
         s.materialSurfaces[material] = readString(surface, keyPath(p, material));
     }},
    {"surfaces",
     [](const Json& v, const std::string& p, LevelSettings& s) {
       if (!v.is_object()) throw SettingsError{p, "expected an object of surface name -> settings"};
       for (const auto& [name, item] : v.items()) {
         SurfaceSpec surface;
         surface.name = name;
         for (const SurfaceSpec& builtIn : defaultSurfaces()) {
           if (builtIn.name == name) surface = builtIn;  // a partial override keeps the rest
         }
         readObject<SurfaceSpec>(item, keyPath(p, name), kSurfaceFields, surface);
         s.surfaces.push_back(surface);
       }
     }},
    {"devices", [](const Json& v, const std::string& p,
                   LevelSettings& s) { readArray(v, p, s.devices, readDevice); }},
    {"waypaths", [](const Json& v, const std::string& p,
                    LevelSettings& s) { readArray(v, p, s.waypaths, readWaypath); }},
};

// Checks that need the whole document: names that must be unique or must exist.
void checkReferences(const LevelSettings& s) {
  std::map<std::string, int> ids;
  for (size_t i = 0; i < s.devices.size(); ++i) {
    if (++ids[s.devices[i].id] > 1)
      throw SettingsError{indexPath("devices", i), "id '" + s.devices[i].id + "' is used twice"};
  }
  std::map<std::string, int> units;
  for (size_t i = 0; i < s.units.size(); ++i) {
    if (++units[s.units[i].name] > 1)
      throw SettingsError{indexPath("units", i), "name '" + s.units[i].name + "' is used twice"};
  }
  const std::vector<SurfaceSpec> table = surfaceTable(s);
  for (const auto& [material, surface] : s.materialSurfaces) {
    const std::string& name = surface;
    const bool known = std::any_of(table.begin(), table.end(),
                                   [&](const SurfaceSpec& spec) { return spec.name == name; });
    if (!known)
      throw SettingsError{keyPath("materials", material), "unknown surface " + quotedText(surface)};
  }
}

/// Builds the document like Json::parse, but keeps the position of an error:
/// nlohmann's number-overflow exception (1e400) carries none.
class PositionedParser : public nlohmann::detail::json_sax_dom_parser<Json> {
 public:
  explicit PositionedParser(Json& document) : json_sax_dom_parser(document) {}

  // Hides the base's parse_error (sax_parse calls it statically) to record instead of throw.
  bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception& e) {
    errorPosition = position;
    errorMessage = e.what();
    return false;
  }

  size_t errorPosition = 0;
  std::string errorMessage;
};

/// nlohmann counts characters read; people want line:column (1-based) of the last one.
std::string lineColumn(std::string_view text, size_t charactersRead) {
  const size_t offset = std::min(charactersRead > 0 ? charactersRead - 1 : 0, text.size());
  const std::string_view before = text.substr(0, offset);
  const size_t line = size_t(std::count(before.begin(), before.end(), '\n')) + 1;
  const size_t lineStart = before.find_last_of('\n');
  const size_t column = lineStart == std::string_view::npos ? offset + 1 : offset - lineStart;
  return std::to_string(line) + ":" + std::to_string(column);
}

Result<LevelSettings> parseSettingsUnchecked(std::string_view text, std::string_view name) {
  Json root;
  PositionedParser parser(root);
  if (!Json::sax_parse(text.begin(), text.end(), &parser)) {
    // Drop "[json.exception.parse_error.101] parse error at line L, column C: ".
    std::string_view detail = parser.errorMessage;
    if (const size_t bracket = detail.find("] "); bracket != std::string_view::npos) {
      detail.remove_prefix(bracket + 2);
    }
    if (detail.starts_with("parse error")) {
      if (const size_t colon = detail.find(": "); colon != std::string_view::npos) {
        detail.remove_prefix(colon + 2);
      }
    }
    // nlohmann quotes all it read of the bad token, however long.
    constexpr std::string_view kLastRead = "; last read: '";
    std::string said(detail);
    if (const size_t at = detail.find(kLastRead); at != std::string_view::npos) {
      std::string_view token = detail.substr(at + kLastRead.size());
      if (token.ends_with('\'')) token.remove_suffix(1);
      said = std::string(detail.substr(0, at)) + "; last read: " + quotedText(token);
    }
    return Result<LevelSettings>::failure(std::string(name) + ":" +
                                          lineColumn(text, parser.errorPosition) + ": " + said);
  }
  LevelSettings settings;
  try {
    if (!root.is_object()) {
      throw SettingsError{
          "", "expected a JSON object at the top level, got " + std::string(root.type_name())};
    }
    readObject<LevelSettings>(root, "", kSettingsFields, settings);
    checkReferences(settings);
  } catch (const SettingsError& e) {
    return Result<LevelSettings>::failure(std::string(name) + ": " +
                                          (e.path.empty() ? "" : e.path + ": ") + e.message);
  }
  return Result<LevelSettings>::success(std::move(settings));
}

}  // namespace

Result<LevelSettings> parseLevelSettings(std::string_view json, std::string_view name) {
  return guarded<LevelSettings>(name, [&] { return parseSettingsUnchecked(json, name); });
}

ZoneCorners groundCorners(const Aabb& zone, const std::optional<ZoneCorners>& corners) {
  if (corners) return *corners;
  return {glm::vec2(zone.min.x, zone.min.z), glm::vec2(zone.max.x, zone.min.z),
          glm::vec2(zone.max.x, zone.max.z), glm::vec2(zone.min.x, zone.max.z)};
}

bool zoneHoldsSquare(const Aabb& zone, const std::optional<ZoneCorners>& corners, glm::vec2 min,
                     glm::vec2 max) {
  if (min.x < zone.min.x || max.x > zone.max.x || min.y < zone.min.z || max.y > zone.max.z)
    return false;
  if (!corners) return true;
  // A convex quadrilateral of either winding holds the square when it holds its corners.
  const ZoneCorners& q = *corners;
  const float winding = cross2(q[1] - q[0], q[2] - q[1]);
  for (const glm::vec2 p : {min, glm::vec2(max.x, min.y), max, glm::vec2(min.x, max.y)}) {
    for (int i = 0; i < 4; ++i) {
      if (cross2(q[(i + 1) % 4] - q[i], p - q[i]) * winding < 0.0f) return false;
    }
  }
  return true;
}

}  // namespace nav
