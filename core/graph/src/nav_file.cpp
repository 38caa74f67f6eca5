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
#include "nav/graph_check.h"

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

// Required when the grid is turned: a reader from before it would give points
// in the grid's coordinates as the file's.
void writeGridFrame(ByteWriter& out, const NavGraph& graph) {
  out.f32(graph.gridFrame.degrees);
  out.f32(graph.gridFrame.centre.x);
  out.f32(graph.gridFrame.centre.y);
}

SectionError readGridFrame(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  GridFrame& frame = graph.gridFrame;
  frame.degrees = in.f32();
  frame.centre.x = in.f32();
  frame.centre.y = in.f32();
  if (!(std::abs(frame.degrees) <= kMaxGridDegrees))
    return "grid angle " + std::to_string(frame.degrees) + " is not a finite angle within +-45";
  if (!std::isfinite(frame.centre.x) || !std::isfinite(frame.centre.y))
    return std::string("the grid's centre is not finite");
  return std::nullopt;
}

// Required when the level was moved near the origin: a reader from before it
// would give points in the grid's coordinates as the file's.
void writeGridOffset(ByteWriter& out, const NavGraph& graph) {
  out.f32(graph.gridFrame.offset.x);
  out.f32(graph.gridFrame.offset.y);
  out.f32(graph.gridFrame.offset.z);
}

SectionError readGridOffset(ByteReader& in, NavGraph& graph, const NavFileLimits&) {
  glm::vec3& offset = graph.gridFrame.offset;
  offset.x = in.f32();
  offset.y = in.f32();
  offset.z = in.f32();
  // Range-checked with the rest of the frame by checkGraph.
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

// Read after the sectors (table order); checked by checkNavGraph.
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

// Read after the sectors (table order); checked by checkNavGraph.
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
    d.kind = DeviceKind(in.u8());  // range-checked by checkNavGraph
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
    if (kind != kAnyUnitKind) w.unitKind = UnitKind(kind);  // range-checked by checkNavGraph
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
    s.kind = SectorKind(in.u8());  // range-checked by checkNavGraph
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
    // Range-checked by checkNavGraph; a uint8_t enum holds any byte value.
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

// After the portals; each end is checked against its portal by checkNavGraph.
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
    {13, "grid frame", writeGridFrame, readGridFrame, true,
     [](const NavGraph& graph) { return !graph.gridFrame.turned(); }},
    {14, "grid offset", writeGridOffset, readGridOffset, true,
     [](const NavGraph& graph) { return graph.gridFrame.offset == glm::vec3(0.0f); }},
};

const SectionType* findSection(uint32_t id) {
  for (const SectionType& type : kSections) {
    if (type.id == id) return &type;
  }
  return nullptr;
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
  if (std::optional<std::string> error = checkNavGraph(graph, nameForErrors, limits)) {
    return Result<NavGraph>::failure(*error);
  }
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

std::optional<uint32_t> navFileVersion(std::span<const uint8_t> bytes) {
  if (bytes.size() < kMagic.size() + sizeof(uint32_t) ||
      !std::equal(kMagic.begin(), kMagic.end(), bytes.begin()))
    return std::nullopt;
  ByteReader header(bytes.subspan(kMagic.size(), sizeof(uint32_t)));
  return header.u32();
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
