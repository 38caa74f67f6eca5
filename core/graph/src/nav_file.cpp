#include "nav/nav_file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <new>

#include "format_number.h"
#include "nav/file_reading.h"

namespace nav {
namespace {

// Layout. Every integer and float is little-endian and written field by field,
// so there are no padding bytes and identical graphs give identical files.
//
//   header   magic "NAVSCOPE" [8 bytes], version u32, sectionCount u32, fileBytes u64
//   table    sectionCount x {id u32, flags u32, offset u64, bytes u64}
//   sections back to back from the end of the table, in table order
//   trailer  CRC-32 (IEEE 802.3) of every byte before it, u32
//
// A section a reader does not know is skipped unless its Required flag is set.
// New data (devices, waypaths, surfaces, jump portals) gets a new section id and
// an entry in kSections; the version changes only when existing sections change.

constexpr std::array<uint8_t, 8> kMagic = {'N', 'A', 'V', 'S', 'C', 'O', 'P', 'E'};
constexpr size_t kHeaderBytes = 24;
constexpr size_t kTableEntryBytes = 24;
constexpr size_t kChecksumBytes = 4;
constexpr uint32_t kMaxSections = 256;
constexpr uint32_t kRequiredFlag = 1;

// Bytes of one sector, portal and device link on disk (see writeSectors, writePortals,
// writeDeviceLinks).
constexpr uint64_t kSectorBytes = 24 + 16 + 12 + 2 + 1 + 4 + 8;
constexpr uint64_t kPortalBytes = 4 + 4 + 12 + 12 + 1 + 1 + 4 + 4;
constexpr uint64_t kDeviceLinkBytes = 4 + 24 + 12 + 12 + 1;
constexpr uint64_t kPortalEndReachBytes = 4 + 12 + 4 * 4 + 4;
// How far a reach point may stray from its portal's line and bounds: rounding. [metres]
constexpr float kReachSlack = 1e-3f;
/// Unit kind byte of a waypath for every kind.
constexpr uint8_t kAnyUnitKind = 0xff;

constexpr std::array<uint32_t, 256> makeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit)
      c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = makeCrcTable();

// CRC-32 rather than a plain hash: it detects every burst of up to 32 flipped bits.
uint32_t crc32(std::span<const uint8_t> bytes) {
  uint32_t c = 0xffffffffu;
  for (uint8_t b : bytes)
    c = kCrcTable[(c ^ b) & 0xffu] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

class ByteWriter {
 public:
  std::vector<uint8_t>& bytes() { return m_bytes; }
  void u8(uint8_t v) { m_bytes.push_back(v); }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void i32(int32_t v) { u32(uint32_t(v)); }
  void f32(float v) { u32(std::bit_cast<uint32_t>(v)); }
  void vec2(const glm::vec2& v) {
    f32(v.x);
    f32(v.y);
  }
  void ivec2(const glm::ivec2& v) {
    i32(v.x);
    i32(v.y);
  }
  void vec3(const glm::vec3& v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }
  void aabb(const Aabb& box) {
    vec3(box.min);
    vec3(box.max);
  }
  void text(const std::string& s) {
    u32(uint32_t(s.size()));
    m_bytes.insert(m_bytes.end(), s.begin(), s.end());
  }
  /// Overwrites bytes written earlier (table entries filled in once sizes are known).
  void patch(size_t at, uint64_t v, int size) {
    for (int i = 0; i < size; ++i)
      m_bytes[at + size_t(i)] = uint8_t(v >> (8 * i));
  }

 private:
  void put(uint64_t v, int size) {
    for (int i = 0; i < size; ++i)
      m_bytes.push_back(uint8_t(v >> (8 * i)));
  }
  std::vector<uint8_t> m_bytes;
};

// Reads past the end return zeros and clear ok() for good, so a section reader
// can read all its fields and check once.
class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : m_bytes(bytes) {}
  bool ok() const { return m_ok; }
  size_t remaining() const { return m_bytes.size() - m_at; }
  uint8_t u8() { return uint8_t(take(1)); }
  uint16_t u16() { return uint16_t(take(2)); }
  uint32_t u32() { return uint32_t(take(4)); }
  uint64_t u64() { return take(8); }
  int32_t i32() { return int32_t(u32()); }
  float f32() { return std::bit_cast<float>(u32()); }
  // Sequential statements: the order of function arguments is unspecified.
  glm::vec2 vec2() {
    glm::vec2 v;
    v.x = f32();
    v.y = f32();
    return v;
  }
  glm::ivec2 ivec2() {
    glm::ivec2 v;
    v.x = i32();
    v.y = i32();
    return v;
  }
  glm::vec3 vec3() {
    glm::vec3 v;
    v.x = f32();
    v.y = f32();
    v.z = f32();
    return v;
  }
  Aabb aabb() {
    Aabb box;
    box.min = vec3();
    box.max = vec3();
    return box;
  }
  /// A u32 length, then the bytes; never allocates more than what remains.
  std::string text() {
    const uint32_t size = u32();
    if (!m_ok || remaining() < size) {
      m_ok = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(m_bytes.data() + m_at), size);
    m_at += size;
    return s;
  }

 private:
  uint64_t take(size_t size) {
    if (!m_ok || remaining() < size) {
      m_ok = false;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < size; ++i)
      v |= uint64_t(m_bytes[m_at + i]) << (8 * i);
    m_at += size;
    return v;
  }
  std::span<const uint8_t> m_bytes;
  size_t m_at = 0;
  bool m_ok = true;
};

using SectionError = std::optional<std::string>;

void writeSettings(ByteWriter& out, const NavGraph& graph) {
  out.f32(graph.cellSize);
  out.vec2(graph.origin);
  out.aabb(graph.bounds);
  out.text(graph.unit.name);
  out.u8(uint8_t(graph.unit.kind));
  out.f32(graph.unit.width);
  out.f32(graph.unit.height);
  out.f32(graph.unit.stepHeight);
  out.f32(graph.unit.maxDrop);
  out.f32(graph.unit.maxSlopeDegrees);
  out.f32(graph.unit.length);
  out.f32(graph.unit.turningRadius);
}

SectionError readSettings(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  graph.cellSize = in.f32();
  graph.origin = in.vec2();
  graph.bounds = in.aabb();
  graph.unit.name = in.text();
  // Range-checked by validateUnitProfile, like the direction below.
  graph.unit.kind = UnitKind(in.u8());
  graph.unit.width = in.f32();
  graph.unit.height = in.f32();
  graph.unit.stepHeight = in.f32();
  graph.unit.maxDrop = in.f32();
  graph.unit.maxSlopeDegrees = in.f32();
  graph.unit.length = in.f32();
  graph.unit.turningRadius = in.f32();
  return std::nullopt;
}

// Its own section: files from before round units hold box units.
void writeUnitShape(ByteWriter& out, const NavGraph& graph) {
  out.u8(uint8_t(graph.unit.shape));
}

SectionError readUnitShape(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  // Range-checked by validateUnitProfile, like the kind.
  graph.unit.shape = UnitShape(in.u8());
  return std::nullopt;
}

// Its own section: files from before it read as 0.
void writeLedgeOverhang(ByteWriter& out, const NavGraph& graph) {
  out.f32(graph.unit.ledgeOverhang);
}

SectionError readLedgeOverhang(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  // Range-checked by validateUnitProfile.
  graph.unit.ledgeOverhang = in.f32();
  return std::nullopt;
}

// Optional: a reader from before it gives every sector its plane's heights.
void writeSectorHeights(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.sectors.size()));
  for (const Sector& s : graph.sectors) {
    out.u32(s.firstHeight);
    out.f32(s.heightBase);
    out.f32(s.heightStep);
  }
  out.u32(uint32_t(graph.cellHeights.size()));
  for (const uint16_t h : graph.cellHeights)
    out.u16(h);
}

// Read after the sectors (table order); checked by findGraphError.
SectionError readSectorHeights(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  const uint32_t count = in.u32();
  if (count != graph.sectors.size()) {
    return std::to_string(count) + " sectors' heights for " + std::to_string(graph.sectors.size()) +
           " sectors";
  }
  if (in.remaining() < uint64_t(count) * 12 + 4) return std::string("ends early");
  for (Sector& s : graph.sectors) {
    s.firstHeight = in.u32();
    s.heightBase = in.f32();
    s.heightStep = in.f32();
  }
  const uint32_t heights = in.u32();
  if (in.remaining() != uint64_t(heights) * 2) {
    return std::to_string(heights) + " heights need " + std::to_string(uint64_t(heights) * 2) +
           " bytes, the section holds " + std::to_string(in.remaining());
  }
  graph.cellHeights.resize(heights);
  for (uint16_t& h : graph.cellHeights)
    h = in.u16();
  return std::nullopt;
}

// A navigation mesh's polygons (navmesh_graph.h): each sector's corner range
// (none when no sector is a polygon), then the corners. Written as optional
// when there are none, so files of cell sectors still read in readers from
// before it.
void writePolygons(ByteWriter& out, const NavGraph& graph) {
  const bool polygons = !graph.polygonCorners.empty();
  out.u32(polygons ? uint32_t(graph.sectors.size()) : 0u);
  for (const Sector& s : graph.sectors) {
    if (!polygons) break;
    out.u32(s.firstCorner);
    out.u32(s.cornerCount);
  }
  out.u32(uint32_t(graph.polygonCorners.size()));
  for (const glm::vec3& corner : graph.polygonCorners)
    out.vec3(corner);
}

// Read after the sectors (table order); checked by findGraphError.
SectionError readPolygons(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  const uint32_t count = in.u32();
  if (count != 0 && count != graph.sectors.size()) {
    return std::to_string(count) + " sectors' polygons for " +
           std::to_string(graph.sectors.size()) + " sectors";
  }
  if (in.remaining() < uint64_t(count) * 8 + 4) return std::string("ends early");
  for (uint32_t s = 0; s < count; ++s) {
    graph.sectors[s].firstCorner = in.u32();
    graph.sectors[s].cornerCount = in.u32();
  }
  const uint32_t corners = in.u32();
  if (in.remaining() != uint64_t(corners) * 12) {
    return std::to_string(corners) + " corners need " + std::to_string(uint64_t(corners) * 12) +
           " bytes, the section holds " + std::to_string(in.remaining());
  }
  graph.polygonCorners.resize(corners);
  for (glm::vec3& corner : graph.polygonCorners)
    corner = in.vec3();
  return std::nullopt;
}

void writeSurfaces(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.surfaces.size()));
  for (const SurfaceSpec& surface : graph.surfaces) {
    out.text(surface.name);
    out.f32(surface.cost);
    out.u8(surface.allowedKinds);
  }
}

SectionError readSurfaces(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  // An empty name is 4 bytes on disk but a whole std::string in memory: bound the count first.
  if (count > limits.maxSurfaces) {
    return std::to_string(count) + " surfaces (limit " + std::to_string(limits.maxSurfaces) + ")";
  }
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    SurfaceSpec surface;
    surface.name = in.text();
    surface.cost = in.f32();
    surface.allowedKinds = in.u8();
    graph.surfaces.push_back(surface);
  }
  return std::nullopt;
}

void writeDevices(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.devices.size()));
  for (const DeviceSpec& d : graph.devices) {
    out.text(d.id);
    out.u8(uint8_t(d.kind));
    out.aabb(d.entry);
    out.aabb(d.exit);
    out.u8(d.twoWay ? 1 : 0);
    out.u8(d.locked ? 1 : 0);
    out.text(d.key);
    out.text(d.action);
    out.f32(d.waitTime);
    out.f32(d.travelTime);
  }
}

SectionError readDevices(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  if (count > limits.maxDevices) {
    return std::to_string(count) + " devices (limit " + std::to_string(limits.maxDevices) + ")";
  }
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    DeviceSpec d;
    d.id = in.text();
    d.kind = DeviceKind(in.u8());  // range-checked by findGraphError
    d.entry = in.aabb();
    d.exit = in.aabb();
    d.twoWay = in.u8() != 0;
    d.locked = in.u8() != 0;
    d.key = in.text();
    d.action = in.text();
    d.waitTime = in.f32();
    d.travelTime = in.f32();
    graph.devices.push_back(std::move(d));
  }
  return std::nullopt;
}

void writeWaypaths(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.waypaths.size()));
  for (const WaypathSpec& w : graph.waypaths) {
    out.text(w.id);
    out.u8(w.oneWay ? 1 : 0);
    out.u8(w.unitKind ? uint8_t(*w.unitKind) : kAnyUnitKind);
    out.u32(uint32_t(w.points.size()));
    for (const glm::vec3& p : w.points)
      out.vec3(p);
  }
}

SectionError readWaypaths(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  if (count > limits.maxWaypaths) {
    return std::to_string(count) + " waypaths (limit " + std::to_string(limits.maxWaypaths) + ")";
  }
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    WaypathSpec w;
    w.id = in.text();
    w.oneWay = in.u8() != 0;
    const uint8_t kind = in.u8();
    if (kind != kAnyUnitKind) w.unitKind = UnitKind(kind);  // range-checked by findGraphError
    const uint32_t points = in.u32();
    // 12 bytes a point must still be in the section: a hostile count allocates nothing.
    if (points > in.remaining() / 12) {
      return "waypath " + std::to_string(i) + ": " + std::to_string(points) +
             " points do not fit in the section";
    }
    for (uint32_t k = 0; k < points; ++k)
      w.points.push_back(in.vec3());
    graph.waypaths.push_back(std::move(w));
  }
  return std::nullopt;
}

void writeSectors(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.sectors.size()));
  for (const Sector& s : graph.sectors) {
    out.aabb(s.bounds);
    out.ivec2(s.firstColumn);
    out.ivec2(s.lastColumn);
    out.vec3(s.heightPlane);
    out.u16(s.surface);
    out.u8(uint8_t(s.kind));
    out.u32(s.waypath);
    out.u32(s.firstPortal);
    out.u32(s.portalCount);
  }
}

// Checks a fixed-size element count against the limit and the section's size
// before anything is allocated for it.
SectionError checkCount(const ByteReader& in, uint32_t count, uint32_t limit, uint64_t elementBytes,
                        const char* what) {
  if (count > limit) {
    return std::to_string(count) + " " + what + " (limit " + std::to_string(limit) + ")";
  }
  if (in.remaining() != count * elementBytes) {
    return std::to_string(count) + " " + what + " need " + std::to_string(count * elementBytes) +
           " bytes, the section holds " + std::to_string(in.remaining());
  }
  return std::nullopt;
}

SectionError readSectors(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  if (SectionError error = checkCount(in, count, limits.maxSectors, kSectorBytes, "sectors")) {
    return error;
  }
  graph.sectors.resize(count);
  for (Sector& s : graph.sectors) {
    s.bounds = in.aabb();
    s.firstColumn = in.ivec2();
    s.lastColumn = in.ivec2();
    s.heightPlane = in.vec3();
    s.surface = in.u16();
    s.kind = SectorKind(in.u8());  // range-checked by findGraphError
    s.waypath = in.u32();
    s.firstPortal = in.u32();
    s.portalCount = in.u32();
  }
  return std::nullopt;
}

void writePortals(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.portals.size()));
  for (const Portal& p : graph.portals) {
    out.u32(p.fromSector);
    out.u32(p.toSector);
    out.vec3(p.left);
    out.vec3(p.right);
    out.u8(uint8_t(p.direction));
    out.u8(uint8_t(p.kind));
    out.u32(p.link);
    out.u32(p.reverse);
  }
}

void writeDeviceLinks(ByteWriter& out, const NavGraph& graph) {
  out.u32(uint32_t(graph.deviceLinks.size()));
  for (const DeviceLink& link : graph.deviceLinks) {
    out.u32(link.device);
    out.aabb(link.volume);
    out.vec3(link.entryPoint);
    out.vec3(link.exitPoint);
    out.u8(link.reverse ? 1 : 0);
  }
}

SectionError readDeviceLinks(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  if (SectionError error =
          checkCount(in, count, limits.maxPortals, kDeviceLinkBytes, "device links")) {
    return error;
  }
  graph.deviceLinks.resize(count);
  for (DeviceLink& link : graph.deviceLinks) {
    link.device = in.u32();
    link.volume = in.aabb();
    link.entryPoint = in.vec3();
    link.exitPoint = in.vec3();
    link.reverse = in.u8() != 0;
  }
  return std::nullopt;
}

SectionError readPortals(ByteReader& in, NavGraph& graph, const NavFileLimits& limits) {
  const uint32_t count = in.u32();
  if (SectionError error = checkCount(in, count, limits.maxPortals, kPortalBytes, "portals")) {
    return error;
  }
  graph.portals.resize(count);
  for (Portal& p : graph.portals) {
    p.fromSector = in.u32();
    p.toSector = in.u32();
    p.left = in.vec3();
    p.right = in.vec3();
    // Range-checked by findGraphError; a uint8_t enum holds any byte value.
    p.direction = Direction(in.u8());
    p.kind = PortalKind(in.u8());
    p.link = in.u32();
    p.reverse = in.u32();
  }
  return std::nullopt;
}

// Only the ends that reach: most have nothing to store.
void writePortalReach(ByteWriter& out, const NavGraph& graph) {
  const auto count = std::count_if(graph.reach.begin(), graph.reach.end(),
                                   [](const PortalEndReach& reach) { return reach.reaches(); });
  out.u32(uint32_t(count));
  for (size_t end = 0; end < graph.reach.size(); ++end) {
    const PortalEndReach& reach = graph.reach[end];
    if (!reach.reaches()) continue;
    out.u32(uint32_t(end));
    out.vec3(reach.point);
    for (int side = 0; side < 2; ++side) {
      out.f32(reach.outwardMin[side]);
      out.f32(reach.outwardMax[side]);
    }
    out.f32(reach.length);
  }
}

// After the portals; each end is checked against its portal by findGraphError.
SectionError readPortalReach(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  const uint32_t count = in.u32();
  const size_t ends = graph.portals.size() * 2;
  if (SectionError error = checkCount(
          in, count, uint32_t(std::min<size_t>(ends, std::numeric_limits<uint32_t>::max())),
          kPortalEndReachBytes, "portal ends")) {
    return error;
  }
  if (count > 0) graph.reach.assign(ends, PortalEndReach{});
  uint32_t previous = 0;
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    const uint32_t end = in.u32();
    if (end >= ends) {
      return "portal end " + std::to_string(end) + " is past the " +
             std::to_string(graph.portals.size()) +
             " portals' ends (the portals section comes first)";
    }
    if (i > 0 && end <= previous) {
      return "portal end " + std::to_string(end) + " follows " + std::to_string(previous) +
             " (ends must be listed once each, in order)";
    }
    previous = end;
    PortalEndReach& reach = graph.reach[end];
    reach.point = in.vec3();
    for (int side = 0; side < 2; ++side) {
      reach.outwardMin[side] = in.f32();
      reach.outwardMax[side] = in.f32();
    }
    reach.length = in.f32();
  }
  return std::nullopt;
}

struct SectionType {
  uint32_t id;
  const char* name;
  void (*write)(ByteWriter&, const NavGraph&);
  SectionError (*read)(ByteReader&, NavGraph&, const NavFileLimits&);
  /// Files written before the section existed lack it: the graph keeps the default.
  bool addedLater = false;
  /// For a section added later: whether the graph holds what the section's
  /// absence means. It is then written as optional, so that readers from
  /// before it (which skip optional sections they do not know) still read the file.
  bool (*holdsDefault)(const NavGraph&) = nullptr;
  /// Always written as optional: without it the graph still answers every
  /// query right, only less well, so readers from before it may skip it.
  bool optional = false;
};

// Written in this order; every one is required by version 1, except that a
// section added later may be absent from files written before it.
constexpr SectionType kSections[] = {
    {1, "settings", writeSettings, readSettings},
    {2, "surfaces", writeSurfaces, readSurfaces},
    {3, "sectors", writeSectors, readSectors},
    {4, "portals", writePortals, readPortals},
    {5, "devices", writeDevices, readDevices},
    {6, "device links", writeDeviceLinks, readDeviceLinks},
    {7, "waypaths", writeWaypaths, readWaypaths},
    {8, "unit shape", writeUnitShape, readUnitShape, true,
     [](const NavGraph& graph) { return graph.unit.shape == UnitShape::Box; }},
    {9, "portal reach", writePortalReach, readPortalReach, true, nullptr, true},
    {10, "ledge overhang", writeLedgeOverhang, readLedgeOverhang, true,
     [](const NavGraph& graph) { return graph.unit.ledgeOverhang == 0.0f; }},
    {11, "sector heights", writeSectorHeights, readSectorHeights, true, nullptr, true},
    {12, "polygons", writePolygons, readPolygons, true,
     [](const NavGraph& graph) { return graph.polygonCorners.empty(); }},
};

const SectionType* findSection(uint32_t id) {
  for (const SectionType& type : kSections) {
    if (type.id == id) return &type;
  }
  return nullptr;
}

bool finite(float v) {
  return std::isfinite(v);
}
bool finite(const glm::vec2& v) {
  return std::isfinite(v.x) && std::isfinite(v.y);
}
bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool validUtf8(std::string_view s) {
  constexpr uint32_t kSmallestOfLength[4] = {0, 0x80, 0x800, 0x10000};
  for (size_t i = 0; i < s.size();) {
    const auto lead = uint8_t(s[i]);
    size_t extra = 0;
    uint32_t code = lead;
    if (lead >= 0xf0 && lead < 0xf8) {
      extra = 3;
      code = lead & 0x07u;
    } else if (lead >= 0xe0) {
      extra = 2;
      code = lead & 0x0fu;
    } else if (lead >= 0xc0) {
      extra = 1;
      code = lead & 0x1fu;
    } else if (lead >= 0x80) {
      return false;
    }
    if (lead >= 0xf8 || s.size() - i <= extra) return false;
    for (size_t k = 1; k <= extra; ++k) {
      const auto next = uint8_t(s[i + k]);
      if ((next & 0xc0u) != 0x80u) return false;
      code = (code << 6) | (next & 0x3fu);
    }
    // Overlong forms and UTF-16 surrogates are not UTF-8.
    if (code < kSmallestOfLength[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

std::string checkName(const std::string& name, uint32_t maxBytes) {
  if (name.size() > maxBytes) {
    return "name is " + std::to_string(name.size()) + " bytes (limit " + std::to_string(maxBytes) +
           ")";
  }
  if (!validUtf8(name)) return "name is not valid UTF-8";
  return {};
}

std::string describeBox(const Aabb& box) {
  return formatPoint(box.min) + " .. " + formatPoint(box.max);
}

// The checks behind checkNavGraph; messages lack the file name.
std::optional<std::string> findGraphError(const NavGraph& graph, const NavFileLimits& limits) {
  using std::to_string;
  // A navigation mesh's graph has no cells: its cell size is 0.
  const bool polygons = !graph.polygonCorners.empty();
  if (!(finite(graph.cellSize) && (graph.cellSize > 0.0f || (polygons && graph.cellSize == 0.0f)))) {
    return "cellSize " + formatFloat(graph.cellSize) + " is not a positive finite number";
  }
  if (!finite(graph.origin)) return std::string("origin is not finite");
  if (std::string error = checkName(graph.unit.name, limits.maxNameBytes); !error.empty()) {
    return "unit: " + error;
  }
  if (Result<UnitProfile> unit = validateUnitProfile(graph.unit); !unit) {
    return "unit: " + unit.error();
  }
  if (graph.surfaces.size() > limits.maxSurfaces) {
    return to_string(graph.surfaces.size()) + " surfaces (limit " + to_string(limits.maxSurfaces) +
           ")";
  }
  for (size_t m = 0; m < graph.surfaces.size(); ++m) {
    const SurfaceSpec& surface = graph.surfaces[m];
    if (std::string error = checkName(surface.name, limits.maxNameBytes); !error.empty()) {
      return "surface " + to_string(m) + ": " + error;
    }
    if (!(finite(surface.cost) && surface.cost > 0.0f)) {
      return "surface " + to_string(m) + ": cost " + formatFloat(surface.cost) +
             " is not a positive finite number";
    }
  }
  for (size_t d = 0; d < graph.devices.size(); ++d) {
    const DeviceSpec& device = graph.devices[d];
    auto bad = [&](const std::string& what) { return "device " + to_string(d) + ": " + what; };
    for (const std::string* name : {&device.id, &device.key, &device.action}) {
      if (std::string error = checkName(*name, limits.maxNameBytes); !error.empty())
        return bad(error);
    }
    if (uint8_t(device.kind) >= kDeviceKindCount) {
      return bad("kind " + to_string(int(device.kind)) + " is not a device kind");
    }
    for (const Aabb* zone : {&device.entry, &device.exit}) {
      if (!finite(zone->min) || !finite(zone->max) || zone->empty()) {
        return bad("zone " + describeBox(*zone) + " is not a finite box");
      }
    }
    if (!(finite(device.waitTime) && device.waitTime >= 0.0f && finite(device.travelTime) &&
          device.travelTime >= 0.0f)) {
      return bad("times must be finite and >= 0");
    }
  }
  for (size_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    auto bad = [&](const std::string& what) { return "waypath " + to_string(w) + ": " + what; };
    if (std::string error = checkName(waypath.id, limits.maxNameBytes); !error.empty())
      return bad(error);
    if (waypath.unitKind && int(*waypath.unitKind) >= kUnitKindCount)
      return bad("unknown unit kind");
    if (waypath.points.size() < 2) return bad("fewer than 2 points");
    for (const glm::vec3& point : waypath.points) {
      if (!finite(point)) return bad("a point is not finite");
    }
  }
  for (size_t k = 0; k < graph.deviceLinks.size(); ++k) {
    const DeviceLink& link = graph.deviceLinks[k];
    if (link.device >= graph.devices.size()) {
      return "device link " + to_string(k) + ": device " + to_string(link.device) +
             " out of range (" + to_string(graph.devices.size()) + " devices)";
    }
    if (!finite(link.volume.min) || !finite(link.volume.max) || !finite(link.entryPoint) ||
        !finite(link.exitPoint)) {
      return "device link " + to_string(k) + ": a point is not finite";
    }
  }

  // kNoSector and kNoPortal must never be valid indices, and the search numbers
  // its nodes portals.size() + 2 in 32 bits.
  const size_t sectorCount = graph.sectors.size();
  const size_t portalCount = graph.portals.size();
  const size_t maxSectors = std::min<size_t>(limits.maxSectors, kNoSector - 1);
  const size_t maxPortals = std::min<size_t>(limits.maxPortals, kNoPortal - 2);
  if (sectorCount > maxSectors) {
    return to_string(sectorCount) + " sectors (limit " + to_string(maxSectors) + ")";
  }
  if (portalCount > maxPortals) {
    return to_string(portalCount) + " portals (limit " + to_string(maxPortals) + ")";
  }

  for (size_t i = 0; i < portalCount; ++i) {
    const Portal& p = graph.portals[i];
    // Messages are built only on failure: this loop runs over every portal of every load.
    auto bad = [&](const std::string& what) { return "portal " + to_string(i) + ": " + what; };
    auto badSector = [&](const char* field, uint32_t sector) {
      return bad(field + (" " + to_string(sector)) + " out of range (" + to_string(sectorCount) +
                 " sectors)");
    };
    if (p.fromSector >= sectorCount) return badSector("fromSector", p.fromSector);
    if (p.toSector >= sectorCount) return badSector("toSector", p.toSector);
    if (p.toSector == p.fromSector) {
      return bad("leads from sector " + to_string(p.toSector) + " to itself");
    }
    if (!finite(p.left) || !finite(p.right)) return bad("an endpoint is not finite");
    if (uint8_t(p.direction) >= kDirectionCount) {
      return bad("direction " + to_string(int(p.direction)) + " is not one of the 4 directions");
    }
    if (p.kind == PortalKind::Device) {
      if (p.link >= graph.deviceLinks.size()) {
        return bad("device link " + to_string(p.link) + " out of range (" +
                   to_string(graph.deviceLinks.size()) + " links)");
      }
    } else if (p.kind == PortalKind::Waypath) {
      // One end is a waypath sector and the link is one of its points.
      const Sector& from = graph.sectors[p.fromSector];
      const Sector& to = graph.sectors[p.toSector];
      const Sector& waypathSector = from.kind == SectorKind::Waypath ? from : to;
      if (waypathSector.kind != SectorKind::Waypath ||
          waypathSector.waypath >= graph.waypaths.size() ||
          p.link >= graph.waypaths[waypathSector.waypath].points.size()) {
        return bad("waypath point " + to_string(p.link) + " does not belong to a waypath it joins");
      }
    } else if (p.kind != PortalKind::Walk) {
      // Jump portals live in a JumpBucket, never in a file.
      return bad("kind " + to_string(int(p.kind)) + " is not a stored portal kind");
    }
    if (p.reverse == kNoPortal) continue;
    if (p.reverse >= portalCount) {
      return bad("reverse " + to_string(p.reverse) + " out of range (" + to_string(portalCount) +
                 " portals)");
    }
    const Portal& back = graph.portals[p.reverse];
    if (back.reverse != i || back.fromSector != p.toSector || back.toSector != p.fromSector ||
        back.kind != p.kind ||
        (p.kind == PortalKind::Walk && back.direction != opposite(p.direction))) {
      return bad("reverse " + to_string(p.reverse) + " does not lead back over the same edge");
    }
  }

  if (!graph.reach.empty() && graph.reach.size() != portalCount * 2) {
    return to_string(graph.reach.size()) + " portal ends reach, for " + to_string(portalCount) +
           " portals";
  }
  for (size_t end = 0; end < graph.reach.size(); ++end) {
    const PortalEndReach& reach = graph.reach[end];
    if (!reach.reaches()) continue;
    const Portal& p = graph.portals[end / 2];
    auto bad = [&](const std::string& what) {
      return "portal " + to_string(end / 2) + (end % 2 == 0 ? " left" : " right") +
             " end's reach: " + what;
    };
    if (p.kind != PortalKind::Walk || p.oneWay()) return bad("the portal is not a two-way walk");
    if (!finite(reach.point) || !finite(reach.length) || reach.length < 0.0f) {
      return bad("point or length is not finite (or the length is negative)");
    }
    for (int side = 0; side < 2; ++side) {
      const float low = reach.outwardMin[side], high = reach.outwardMax[side];
      if (!finite(low) || !finite(high)) return bad("a direction bound is not finite");
      if (low <= high && (low < -1.0f || high > 1.0f)) {
        return bad("directions " + formatFloat(low) + " .. " + formatFloat(high) +
                   " are not cosines");
      }
    }
    // Out along the portal's line past its own end, by at most half a cell, in both sectors.
    const bool left = end % 2 == 0;
    const glm::vec2 point = groundOf(reach.point);
    const glm::vec2 out = point - groundOf(left ? p.left : p.right);
    const glm::vec2 outward = outwardAlong(p, left);
    const auto inside = [&](uint32_t sector) {
      const Aabb& box = graph.sectors[sector].bounds;
      return point.x >= box.min.x - kReachSlack && point.x <= box.max.x + kReachSlack &&
             point.y >= box.min.z - kReachSlack && point.y <= box.max.z + kReachSlack;
    };
    if (std::abs(cross2(outward, out)) > kReachSlack || glm::dot(out, outward) < -kReachSlack ||
        glm::length(out) > graph.cellSize * 0.5f + kReachSlack || !inside(p.fromSector) ||
        !inside(p.toSector)) {
      return bad("point " + formatPoint(reach.point) +
                 " is not out along the portal from its end, by half a cell at most, in both "
                 "sectors");
    }
    // The reverse portal sees the same end from the other sector.
    const PortalEndReach& mirror = graph.reach[portalEndIndex(p.reverse, !left)];
    if (!(groundOf(mirror.point) == point) || !(mirror.length == reach.length) ||
        !(mirror.outwardMin[0] == reach.outwardMin[1]) ||
        !(mirror.outwardMin[1] == reach.outwardMin[0]) ||
        !(mirror.outwardMax[0] == reach.outwardMax[1]) ||
        !(mirror.outwardMax[1] == reach.outwardMax[0])) {
      return bad("differs from the reverse portal's (" + to_string(p.reverse) + ")");
    }
  }

  // Each sector's outgoing portals follow the previous sector's: portals sorted by fromSector.
  Aabb bounds;
  uint32_t nextPortal = 0;
  for (size_t s = 0; s < sectorCount; ++s) {
    const Sector& sector = graph.sectors[s];
    auto bad = [&](const std::string& what) { return "sector " + to_string(s) + ": " + what; };
    const Aabb& box = sector.bounds;
    if (!finite(box.min) || !finite(box.max) || box.empty()) {
      return bad("bounds " + describeBox(box) + " are not a finite box");
    }
    if (sector.firstColumn.x > sector.lastColumn.x || sector.firstColumn.y > sector.lastColumn.y) {
      return bad("first column is past the last column");
    }
    if (!finite(sector.heightPlane)) return bad("height plane is not finite");
    if (sector.polygonal()) {
      if (sector.kind != SectorKind::Ground) return bad("a polygon for a sector not on the ground");
      if (sector.cornerCount < 3) return bad(to_string(sector.cornerCount) + " corners");
      if (uint64_t(sector.firstCorner) + sector.cornerCount > graph.polygonCorners.size()) {
        return bad("corners " + to_string(sector.firstCorner) + " + " +
                   to_string(sector.cornerCount) + " run past the " +
                   to_string(graph.polygonCorners.size()) + " corners");
      }
      if (sector.firstHeight != kNoHeights) return bad("a polygon with cell heights");
      for (const glm::vec3& corner : graph.cornersOf(sector)) {
        if (!finite(corner)) return bad("a corner is not finite");
      }
    }
    if (sector.firstHeight != kNoHeights) {
      const uint64_t cells = uint64_t(int64_t(sector.lastColumn.x) - sector.firstColumn.x + 1) *
                             uint64_t(int64_t(sector.lastColumn.y) - sector.firstColumn.y + 1);
      if (sector.kind != SectorKind::Ground) return bad("heights for a sector not on the ground");
      if (uint64_t(sector.firstHeight) + cells > graph.cellHeights.size()) {
        return bad("heights " + to_string(sector.firstHeight) + " + " + to_string(cells) +
                   " run past the " + to_string(graph.cellHeights.size()) + " heights");
      }
      if (!finite(sector.heightBase) || !finite(sector.heightStep) || !(sector.heightStep > 0.0f)) {
        return bad("height base or step is not finite (or the step is not positive)");
      }
    }
    if (sector.surface >= graph.surfaces.size()) {
      return bad("surface " + to_string(sector.surface) + " out of range (" +
                 to_string(graph.surfaces.size()) + " surfaces)");
    }
    if (sector.kind == SectorKind::Waypath) {
      if (sector.waypath >= graph.waypaths.size()) {
        return bad("waypath " + to_string(sector.waypath) + " out of range (" +
                   to_string(graph.waypaths.size()) + " waypaths)");
      }
    } else if (sector.kind != SectorKind::Ground && sector.kind != SectorKind::Fall) {
      return bad("kind " + to_string(int(sector.kind)) + " is not a sector kind");
    }
    if (sector.firstPortal != nextPortal) {
      return bad("firstPortal " + to_string(sector.firstPortal) + ", expected " +
                 to_string(nextPortal) + " (portals must be sorted by fromSector)");
    }
    if (sector.portalCount > portalCount - nextPortal) {
      return bad("portals " + to_string(sector.firstPortal) + " + " +
                 to_string(sector.portalCount) + " run past the " + to_string(portalCount) +
                 " portals");
    }
    nextPortal += sector.portalCount;
    for (uint32_t p = sector.firstPortal; p < nextPortal; ++p) {
      if (graph.portals[p].fromSector != s) {
        return "portal " + to_string(p) + ": fromSector " + to_string(graph.portals[p].fromSector) +
               " but listed under sector " + to_string(s);
      }
    }
    bounds.grow(box);
  }
  if (nextPortal != portalCount) {
    return to_string(portalCount - nextPortal) + " portals after the last sector's";
  }
  if (bounds.min != graph.bounds.min || bounds.max != graph.bounds.max) {
    return "bounds " + describeBox(graph.bounds) + " differ from the sectors' " +
           describeBox(bounds);
  }
  return std::nullopt;
}

std::string hex(uint32_t v) {
  char text[11];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

Result<NavGraph> deserialize(std::span<const uint8_t> bytes, std::string_view nameForErrors,
                             const NavFileLimits& limits) {
  using std::to_string;
  auto fail = [&](const std::string& message) {
    return Result<NavGraph>::failure(std::string(nameForErrors) + ": " + message);
  };
  const size_t size = bytes.size();
  if (size == 0) return fail("empty file");
  if (size > limits.maxFileBytes) {
    return fail(to_string(size) + " bytes (limit " + to_string(limits.maxFileBytes) + ")");
  }
  if (!std::equal(bytes.begin(), bytes.begin() + std::ptrdiff_t(std::min(size, kMagic.size())),
                  kMagic.begin())) {
    return fail("not a .nav file (no NAVSCOPE magic)");
  }
  if (size < kHeaderBytes + kChecksumBytes) {
    return fail("truncated: " + to_string(size) + " bytes, a .nav file has at least " +
                to_string(kHeaderBytes + kChecksumBytes));
  }
  ByteReader header(bytes.subspan(kMagic.size(), kHeaderBytes - kMagic.size()));
  const uint32_t version = header.u32();
  const uint32_t sectionCount = header.u32();
  const uint64_t fileBytes = header.u64();
  if (version > kNavFileVersion) {
    return fail("format version " + to_string(version) + " is newer than this navscope reads (" +
                to_string(kNavFileVersion) + "); update navscope or rebuild the file");
  }
  if (version == 0) return fail("format version 0 does not exist");
  if (fileBytes > size) {
    return fail("truncated: " + to_string(size) + " bytes, the header says " +
                to_string(fileBytes));
  }
  if (fileBytes < size) {
    return fail(to_string(size - fileBytes) + " bytes after the end (the header says " +
                to_string(fileBytes) + " bytes)");
  }
  const size_t checksumAt = size - kChecksumBytes;
  const uint32_t stored = ByteReader(bytes.subspan(checksumAt)).u32();
  const uint32_t computed = crc32(bytes.first(checksumAt));
  if (stored != computed) {
    return fail("checksum " + hex(computed) + " does not match the stored " + hex(stored) +
                ": the file is corrupted");
  }

  if (sectionCount > kMaxSections) {
    return fail(to_string(sectionCount) + " sections (limit " + to_string(kMaxSections) + ")");
  }
  const size_t tableEnd = kHeaderBytes + sectionCount * kTableEntryBytes;
  if (tableEnd > checksumAt) {
    return fail("the table of " + to_string(sectionCount) + " sections runs past the end");
  }
  ByteReader table(bytes.subspan(kHeaderBytes, tableEnd - kHeaderBytes));
  NavGraph graph;
  std::vector<uint32_t> seen;
  uint64_t expectedOffset = tableEnd;
  for (uint32_t k = 0; k < sectionCount; ++k) {
    const uint32_t id = table.u32();
    const uint32_t flags = table.u32();
    const uint64_t offset = table.u64();
    const uint64_t sectionBytes = table.u64();
    const SectionType* type = findSection(id);
    const std::string where = "section " + to_string(id) +
                              (type ? std::string(" (") + type->name + ")" : std::string()) + ": ";
    if (flags & ~kRequiredFlag) return fail(where + "unknown flags " + hex(flags));
    // Back to back and inside the file: no overlaps, no gaps, nothing hidden.
    if (offset != expectedOffset) {
      return fail(where + "starts at byte " + to_string(offset) + ", expected " +
                  to_string(expectedOffset));
    }
    if (sectionBytes > checksumAt - offset) {
      return fail(where + to_string(sectionBytes) + " bytes from byte " + to_string(offset) +
                  " run past the end (" + to_string(checksumAt) + ")");
    }
    expectedOffset = offset + sectionBytes;
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) return fail(where + "appears twice");
    seen.push_back(id);
    if (!type) {
      if (flags & kRequiredFlag) {
        return fail(where + "unknown required section (written by a newer navscope?)");
      }
      continue;
    }
    ByteReader in(bytes.subspan(size_t(offset), size_t(sectionBytes)));
    if (SectionError error = type->read(in, graph, limits)) return fail(where + *error);
    if (!in.ok()) return fail(where + "ends early");
    if (in.remaining() != 0) return fail(where + to_string(in.remaining()) + " bytes left over");
  }
  if (expectedOffset != checksumAt) {
    return fail(to_string(checksumAt - expectedOffset) +
                " bytes between the last section and the checksum");
  }
  for (const SectionType& type : kSections) {
    if (!type.addedLater && std::find(seen.begin(), seen.end(), type.id) == seen.end()) {
      return fail(std::string("missing section ") + to_string(type.id) + " (" + type.name + ")");
    }
  }
  if (std::optional<std::string> error = findGraphError(graph, limits)) return fail(*error);
  finishGraphIndexes(graph);
  return Result<NavGraph>::success(std::move(graph));
}

}  // namespace

std::vector<uint8_t> serializeNavGraph(const NavGraph& graph) {
  ByteWriter out;
  for (uint8_t c : kMagic)
    out.u8(c);
  out.u32(kNavFileVersion);
  out.u32(uint32_t(std::size(kSections)));
  const size_t fileBytesAt = out.bytes().size();
  out.u64(0);
  const size_t tableAt = out.bytes().size();
  for (const SectionType& type : kSections) {
    out.u32(type.id);
    const bool optional = type.optional || (type.holdsDefault && type.holdsDefault(graph));
    out.u32(optional ? 0u : kRequiredFlag);
    out.u64(0);
    out.u64(0);
  }
  for (size_t k = 0; k < std::size(kSections); ++k) {
    const size_t start = out.bytes().size();
    kSections[k].write(out, graph);
    const size_t entry = tableAt + k * kTableEntryBytes;
    out.patch(entry + 8, start, 8);
    out.patch(entry + 16, out.bytes().size() - start, 8);
  }
  out.patch(fileBytesAt, out.bytes().size() + kChecksumBytes, 8);
  out.u32(crc32(out.bytes()));
  return std::move(out.bytes());
}

Result<NavGraph> deserializeNavGraph(std::span<const uint8_t> bytes, std::string_view nameForErrors,
                                     const NavFileLimits& limits) {
  try {
    return deserialize(bytes, nameForErrors, limits);
  } catch (const std::bad_alloc&) {
    return Result<NavGraph>::failure(std::string(nameForErrors) + ": out of memory");
  }
}

std::optional<std::string> checkNavGraph(const NavGraph& graph, std::string_view nameForErrors,
                                         const NavFileLimits& limits) {
  std::optional<std::string> error = findGraphError(graph, limits);
  if (error) *error = std::string(nameForErrors) + ": " + *error;
  return error;
}

Result<size_t> writeNavFile(const std::string& path, const NavGraph& graph) {
  using R = Result<size_t>;
  try {
    if (std::optional<std::string> error = checkNavGraph(graph, path)) {
      return R::failure(*error + " (not written)");
    }
    const std::vector<uint8_t> bytes = serializeNavGraph(graph);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return R::failure(path + ": cannot open for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.close();
    if (!out) return R::failure(path + ": cannot write");
    return R::success(bytes.size());
  } catch (const std::bad_alloc&) {
    return R::failure(path + ": out of memory");
  }
}

Result<NavGraph> readNavFile(const std::string& path, const NavFileLimits& limits) {
  using R = Result<NavGraph>;
  try {
    const Result<std::string> text =
        readRegularFile(path, limits.maxFileBytes, "NavFileLimits::maxFileBytes");
    if (!text) return R::failure(text.error());
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(text.value().data()),
                                         text.value().size());
    return deserialize(bytes, path, limits);
  } catch (const std::bad_alloc&) {
    return R::failure(path + ": out of memory");
  }
}

}  // namespace nav
