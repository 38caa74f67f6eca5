#include "panels/build_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "nav/grid_frame.h"

namespace nav::app {
namespace {

/// Slider drags change values every frame: wait this long after the last change. [seconds]
constexpr double kDebounceSeconds = 0.35;
/// More warnings than this scroll in a box of their own.
constexpr size_t kInlineWarnings = 5;

const char* stageName(BuildStage stage) {
  switch (stage) {
    case BuildStage::Idle:
      return "starting";
    case BuildStage::FloodFill:
      return "flood fill";
    case BuildStage::Compress:
      return "compression";
    case BuildStage::Done:
      return "finishing";
  }
  return "";
}

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarningColor(1.0f, 0.85f, 0.3f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.65f, 0.65f, 1.0f);

/// 1234567 -> "1,234,567".
std::string grouped(uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

std::string unitLabel(const UnitProfile& unit) {
  return unit.name + "  (" + toString(unit.kind) + ")";
}

void wrappedText(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

struct PortalCounts {
  size_t device = 0;
  size_t waypath = 0;
};

PortalCounts countPortals(const NavGraph& graph) {
  PortalCounts counts;
  for (const Portal& portal : graph.portals) {
    counts.device += portal.kind == PortalKind::Device ? 1 : 0;
    counts.waypath += portal.kind == PortalKind::Waypath ? 1 : 0;
  }
  return counts;
}

void drawProgress(const BuildStatus& status, bool pending, double now) {
  // A spinner the eye can catch: the build runs on another thread.
  const char spinner[] = {'|', '/', '-', '\\'};
  const char glyph = spinner[int(now * 8.0) & 3];
  if (pending && !status.building) {
    ImGui::TextColored(kWarningColor, "%c waiting for the sliders to settle", glyph);
    return;
  }
  if (status.choosingGrid) {
    ImGui::TextColored(kWarningColor, "%c choosing grid: trial %s", glyph, stageName(status.stage));
  } else {
    ImGui::TextColored(kWarningColor, "%c building %s: %s", glyph, status.buildingUnit.c_str(),
                       stageName(status.stage));
  }
  const float fraction = std::clamp(status.stageFraction, 0.0f, 1.0f);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s %.0f%%", stageName(status.stage),
                double(fraction) * 100.0);
  ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), overlay);
  if (status.stage == BuildStage::FloodFill) {
    const std::string found = grouped(status.cellsFound);
    if (status.estimatedCells > 0) {
      ImGui::TextColored(kDimColor, "%s of ~%s cells", found.c_str(),
                         grouped(status.estimatedCells).c_str());
    } else {
      ImGui::TextColored(kDimColor, "%s cells", found.c_str());
    }
  } else if (status.stage == BuildStage::Compress) {
    ImGui::TextColored(kDimColor, "into sectors: %s cells", grouped(status.cellsFound).c_str());
  }
}

void drawStats(const BuildStatus& status) {
  const NavBuild& build = *status.build;
  const BuildStats& stats = build.stats;
  const NavGraph& graph = build.graph;
  if (!status.buildIsCurrent) {
    wrappedText(kDimColor, graph.unit.name == status.selectedUnit
                               ? "on screen: the build from before the last change"
                               : "on screen: the " + graph.unit.name + " build");
  }
  const PortalCounts portals = countPortals(graph);
  if (ImGui::BeginTable("stats", 2)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 130.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    auto row = [](const char* name, const std::string& value) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(kDimColor, "%s", name);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value.c_str());
    };
    auto milliseconds = [](double ms) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f ms", ms);
      return std::string(text);
    };
    row("unit", unitLabel(graph.unit));
    char gridAngle[48];
    std::snprintf(gridAngle, sizeof gridAngle, "%.2f deg", double(graph.gridFrame.degrees));
    row("grid angle", gridAngle);
    if (const glm::vec3& offset = graph.gridFrame.offset; offset != glm::vec3(0.0f)) {
      char moved[96];
      std::snprintf(moved, sizeof moved, "%.0f, %.0f, %.0f m", double(offset.x), double(offset.y),
                    double(offset.z));
      row("built moved by", moved);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "The level reaches beyond %s m, where a float's step passes a millimetre:\n"
            "it is built moved near the origin. Points shown stay in the file's coordinates.",
            grouped(uint64_t(nav::kFarFromOrigin)).c_str());
      }
    }
    if (graph.unit.ledgeOverhang > 0.0f) {
      char overhang[32];
      std::snprintf(overhang, sizeof overhang, "%.2f m", double(graph.unit.ledgeOverhang));
      row("ledge overhang", overhang);
    }
    if (!status.fixedGraph) row("cells", grouped(stats.cells));
    row("sectors", grouped(stats.sectors));
    if (!status.fixedGraph && stats.cells > 0) {
      char perCells[48];
      std::snprintf(perCells, sizeof perCells, "%.1f",
                    1000.0 * double(stats.sectors) / double(stats.cells));
      row("sectors / 1k cells", perCells);
    }
    if (status.recastPolygons) {
      char against[64];
      std::snprintf(against, sizeof against, "%s (sectors %.1fx)",
                    grouped(*status.recastPolygons).c_str(),
                    double(stats.sectors) / double(std::max<size_t>(1, *status.recastPolygons)));
      row("Recast polygons", against);
    }
    row("fall sectors",
        grouped(size_t(std::count_if(graph.sectors.begin(), graph.sectors.end(),
                                     [](const Sector& s) { return s.kind == SectorKind::Fall; }))));
    row("portals", grouped(stats.portals));
    if (!status.fixedGraph) {
      row("widened ends", grouped(stats.widenedPortalEnds));
      row("ends with reach", grouped(stats.reachingPortalEnds));
    }
    row("device portals", grouped(portals.device));
    row("waypaths", grouped(graph.waypaths.size()) + " (" + grouped(portals.waypath) + " portals)");
    char bytes[48];
    std::snprintf(bytes, sizeof bytes, "%.1f KiB", double(stats.graphBytes) / 1024.0);
    row("graph memory", bytes);
    if (status.fixedGraph) {
      row("read in", milliseconds(stats.totalMs));
    } else {
      row("flood fill", milliseconds(stats.floodFillMs));
      row("compression", milliseconds(stats.compressMs));
      row("total", milliseconds(stats.totalMs));
    }
    ImGui::EndTable();
  }
  const std::vector<std::string>& warnings = stats.warnings;
  if (warnings.empty()) return;
  ImGui::TextColored(kWarningColor, "%zu warning%s", warnings.size(),
                     warnings.size() == 1 ? "" : "s");
  const bool scroll = warnings.size() > kInlineWarnings;
  if (scroll) ImGui::BeginChild("warnings", ImVec2(0.0f, 150.0f), true);
  for (const std::string& warning : warnings)
    wrappedText(kWarningColor, "- " + warning);
  if (scroll) ImGui::EndChild();
}

}  // namespace

bool sameBuildInputs(const FloodFillParams& a, const FloodFillParams& b) {
  const UnitProfile& u = a.unit;
  const UnitProfile& v = b.unit;
  return effectiveCellSize(a) == effectiveCellSize(b) && a.maxCells == b.maxCells &&
         u.name == v.name && u.kind == v.kind && u.shape == v.shape && u.width == v.width &&
         u.height == v.height && u.stepHeight == v.stepHeight && u.maxDrop == v.maxDrop &&
         u.maxSlopeDegrees == v.maxSlopeDegrees && u.length == v.length &&
         u.turningRadius == v.turningRadius && u.ledgeOverhang == v.ledgeOverhang;
}

void BuildPanel::reset(const Level& level) {
  std::vector<UnitProfile> units = level.settings.units;
  if (units.empty()) units.emplace_back();
  m_defaults.clear();
  for (const UnitProfile& unit : units) {
    FloodFillParams params = fillParamsFor(level, unit);
    // The slider shows the size a build uses, also when the sidecar leaves it to the unit.
    params.cellSize = effectiveCellSize(params);
    params.threads = machineFillThreads();
    m_defaults.push_back(std::move(params));
  }
  m_profiles = m_defaults;
  m_selected = 0;
  m_source = level.settings.navmesh ? GraphSource::NavMesh : GraphSource::FloodFill;
  m_declaredFrame = level.declaredFrame;
  m_pending = false;
  m_forceRequested = false;
  m_cancelRequested = false;
}

void BuildPanel::setSource(GraphSource source, double now) {
  if (source == m_source) return;
  m_source = source;
  changed(now - kDebounceSeconds);
}

void BuildPanel::resetFixed(const UnitProfile& unit, float cellSize) {
  FloodFillParams params;
  params.unit = unit;
  params.cellSize = cellSize;
  m_defaults = {params};
  m_profiles = m_defaults;
  m_selected = 0;
  m_source = GraphSource::FloodFill;
  m_pending = false;
  m_forceRequested = false;
  m_cancelRequested = false;
}

size_t BuildPanel::findProfile(const std::string& name) const {
  for (size_t i = 0; i < m_profiles.size(); ++i) {
    if (m_profiles[i].unit.name == name) return i;
  }
  return m_profiles.size();
}

std::string BuildPanel::profileNames() const {
  std::string names;
  for (const FloodFillParams& profile : m_profiles)
    names += (names.empty() ? "" : ", ") + profile.unit.name;
  return names;
}

void BuildPanel::select(size_t profile, double now) {
  if (profile >= m_profiles.size() || profile == m_selected) return;
  m_selected = profile;
  // Switching needs no settling: a kept build shows at once, a new one starts now.
  changed(now - kDebounceSeconds);
}

bool BuildPanel::selectUnit(const std::string& name, double now) {
  const size_t profile = findProfile(name);
  if (profile == m_profiles.size()) return false;
  select(profile, now);
  return true;
}

void BuildPanel::selectNextUnit(double now) {
  if (m_profiles.size() > 1) select((m_selected + 1) % m_profiles.size(), now);
}

void BuildPanel::changed(double now) {
  m_pending = true;
  m_changedAt = now;
}

bool BuildPanel::takeRebuildRequest(double now) {
  if (!m_pending || now - m_changedAt < kDebounceSeconds) return false;
  m_pending = false;
  return true;
}

void BuildPanel::moveToGrid(const Level& level) {
  for (std::vector<FloodFillParams>* set : {&m_defaults, &m_profiles}) {
    for (FloodFillParams& params : *set) {
      params.seeds = level.settings.seeds;
      params.devices = level.settings.devices;
    }
  }
}

void BuildPanel::setGrid(float degrees, bool automatic) {
  m_gridDegrees = degrees;
  m_gridAuto = automatic;
  m_gridPending = false;
}

std::optional<GridAngleOverride> BuildPanel::takeGridRequest(double now) {
  if (!m_gridPending || now - m_gridChangedAt < kDebounceSeconds) return std::nullopt;
  m_gridPending = false;
  return m_gridAuto ? GridAngleOverride{} : GridAngleOverride{m_gridDegrees};
}

void BuildPanel::noteWidget(const std::string& label) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  m_widgets[label] = WidgetBox{{min.x, min.y}, {max.x, max.y}};
}

void BuildPanel::drawGrid(double now) {
  bool edited = ImGui::Checkbox("auto", &m_gridAuto);
  noteWidget("check:auto grid");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Cells are squares along the grid: a wall at an angle to it leaves a staircase of\n"
        "thin sectors. Auto keeps the file's axes unless the level's straight edges run\n"
        "more along another direction and a trial build there gives fewer sectors.");
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-110.0f);
  if (m_gridAuto) ImGui::BeginDisabled();
  edited |= ImGui::SliderFloat("grid angle", &m_gridDegrees, -kMaxGridDegrees, kMaxGridDegrees,
                               "%.1f deg");
  if (m_gridAuto) ImGui::EndDisabled();
  noteWidget("slider:grid angle");
  if (edited) {
    m_gridPending = true;
    m_gridChangedAt = now;
  }
}

void BuildPanel::drawFileReading(const BuildStatus& status) {
  // Folded, its label saying how the file is read, unless the build on
  // screen warns of that (its warnings name the sidecar's keys).
  if (status.build && m_readingRevision != status.buildRevision) {
    m_readingRevision = status.buildRevision;
    for (const std::string& warning : status.build->stats.warnings) {
      for (const char* key : {"flipFaces", "upAxis", "unitScale"})
        m_readingOpen |= warning.find(key) != std::string::npos;
    }
  }
  if (m_readingOpen) ImGui::SetNextItemOpen(true);
  char label[96];
  std::snprintf(label, sizeof label, "file: %s up, %g m a unit%s###file reading", m_zUp ? "Z" : "Y",
                double(m_unitScale), m_facesFlipped ? ", flipped" : "");
  const bool open = ImGui::TreeNode(label);
  noteWidget("tree:file reading");
  m_readingOpen = open;
  if (!open) return;
  if (!m_declaredFrame.empty()) {
    ImGui::TextDisabled("the file declares %s: applied first", m_declaredFrame.c_str());
  }
  m_readingPending |= ImGui::Checkbox("flip faces", &m_facesFlipped);
  noteWidget("check:flip faces");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Turn every face over. Only faces turned up (wound counter-clockwise seen from\n"
        "above) are ground: a file whose floors are wound the other way builds no cells.\n"
        "The sidecar's \"flipFaces\" sets it for the file.");
  }
  ImGui::SameLine();
  m_readingPending |= ImGui::Checkbox("Z up", &m_zUp);
  noteWidget("check:Z up");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Read the file Z up (as many exporters write it): its point (x, y, z) is\n"
        "navscope's (x, z, -y). The sidecar's \"upAxis\" sets it for the file.");
  }
  ImGui::SetNextItemWidth(-110.0f);
  const float before = m_unitScale;
  if (ImGui::InputFloat("unit scale", &m_unitScale, 0.0f, 0.0f, "%g",
                        ImGuiInputTextFlags_EnterReturnsTrue)) {
    // Past kMaxCoordinate the reading itself is refused, with the level's error.
    if (std::isfinite(m_unitScale) && m_unitScale > 0.0f) {
      m_readingPending |= m_unitScale != before;
    } else {
      m_unitScale = before;
    }
  }
  noteWidget("input:unit scale");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Metres one unit of the file measures (0.01: centimetres, 0.0254: inches);\n"
        "Enter reads the file again. The sidecar's \"unitScale\" sets it for the file.");
  }
  ImGui::TreePop();
}

void BuildPanel::setReading(const LevelSettings& settings) {
  m_facesFlipped = settings.flipFaces;
  m_zUp = settings.upAxis == UpAxis::Z;
  m_unitScale = settings.unitScale;
}

std::optional<LevelReading> BuildPanel::takeReadingRequest() {
  if (!m_readingPending) return std::nullopt;
  m_readingPending = false;
  return LevelReading{m_facesFlipped, m_zUp ? UpAxis::Z : UpAxis::Y, m_unitScale};
}

bool BuildPanel::takeForceRequest() {
  const bool requested = m_forceRequested;
  m_forceRequested = false;
  return requested;
}

void BuildPanel::cancel() {
  m_cancelRequested = true;
  m_pending = false;
  m_forceRequested = false;
}

bool BuildPanel::takeCancelRequest() {
  const bool requested = m_cancelRequested;
  m_cancelRequested = false;
  return requested;
}

bool BuildPanel::drawParameters(bool fixed, double now) {
  bool edited = false;
  ImGui::PushItemWidth(-110.0f);
  if (fixed) ImGui::BeginDisabled();
  const char* comboLabel = m_profiles.size() > 1 && !fixed ? "unit (U)" : "unit";
  if (ImGui::BeginCombo(comboLabel, unitLabel(params().unit).c_str())) {
    for (size_t i = 0; i < m_profiles.size(); ++i) {
      ImGui::PushID(int(i));
      if (ImGui::Selectable(unitLabel(m_profiles[i].unit).c_str(), i == m_selected)) select(i, now);
      if (i == m_selected) ImGui::SetItemDefaultFocus();
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (fixed) ImGui::EndDisabled();
  FloodFillParams& params = m_profiles[m_selected];
  UnitProfile& unit = params.unit;
  ImGui::TextColored(kDimColor, "kind: %s", toString(unit.kind));
  if (unit.kind == UnitKind::Vehicle) {
    ImGui::SameLine();
    ImGui::TextColored(kDimColor, "  footprint %.2f m", double(unit.footprint()));
  }
  if (fixed) {
    ImGui::TextColored(kWarningColor, "graph read from a file: fixed");
    ImGui::BeginDisabled();
  }
  edited |= ImGui::SliderFloat("cell size", &params.cellSize, 0.05f, 2.0f, "%.2f m",
                               ImGuiSliderFlags_Logarithmic);
  edited |= ImGui::SliderFloat("unit width", &unit.width, 0.1f, 4.0f, "%.2f m");
  int shape = int(unit.shape);
  edited |= ImGui::RadioButton("box", &shape, int(UnitShape::Box));
  ImGui::SameLine();
  edited |= ImGui::RadioButton("round", &shape, int(UnitShape::Round));
  ImGui::SameLine();
  ImGui::TextUnformatted("shape");
  unit.shape = UnitShape(shape);
  if (unit.kind == UnitKind::Vehicle) {
    edited |= ImGui::SliderFloat("length", &unit.length, 0.0f, 12.0f, "%.2f m");
    edited |= ImGui::SliderFloat("turning radius", &unit.turningRadius, 0.0f, 20.0f, "%.1f m");
  }
  edited |= ImGui::SliderFloat("unit height", &unit.height, 0.2f, 5.0f, "%.2f m");
  edited |= ImGui::SliderFloat("step height", &unit.stepHeight, 0.0f, 2.0f, "%.2f m");
  edited |= ImGui::SliderFloat("max drop", &unit.maxDrop, 0.0f, 20.0f, "%.1f m");
  edited |= ImGui::SliderFloat("max slope", &unit.maxSlopeDegrees, 0.0f, 89.0f, "%.0f deg");
  // Up to half the footprint: the unit's centre stays over its ground.
  edited |= ImGui::SliderFloat("ledge overhang", &unit.ledgeOverhang, 0.0f, 0.5f * unit.footprint(),
                               "%.2f m");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "How far the unit's footprint may hang over a ledge. 0: it stands only where ground\n"
        "supports its whole footprint (cells over a ledge are drawn orange when allowed).");
  }
  if (fixed) ImGui::EndDisabled();
  ImGui::PopItemWidth();
  return edited && !fixed;
}

void BuildPanel::draw(const BuildStatus& status, double now) {
  if (!ImGui::Begin("Build")) {
    ImGui::End();
    return;
  }
  if (!status.levelError.empty()) {
    ImGui::TextColored(kErrorColor, "Level failed to load");
    wrappedText(kErrorColor, status.levelError);
    ImGui::End();
    return;
  }
  ImGui::Text("%s", status.levelName.c_str());
  if (status.levelReading) {
    ImGui::TextColored(kDimColor, "reading...");
  } else if (status.fixedGraph) {
    ImGui::TextColored(kDimColor, "navigation graph (.nav), no mesh");
  } else {
    ImGui::TextColored(kDimColor, "%s triangles", grouped(status.levelTriangles).c_str());
  }
  if (!status.unitError.empty()) wrappedText(kErrorColor, status.unitError);
  ImGui::Separator();
  if (m_profiles.empty()) {
    ImGui::End();
    return;
  }

  if (!status.fixedGraph) {
    // In the order of GraphSource.
    const char* const kGraphs[] = {"flood fill sectors", "level as navmesh",
                                   "navmesh, no steep faces"};
    int graph = int(m_source);
    ImGui::SetNextItemWidth(-110.0f);
    if (ImGui::Combo("graph", &graph, kGraphs, IM_ARRAYSIZE(kGraphs)))
      setSource(GraphSource(graph), now);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "flood fill sectors: the unit explores the level and its cells are compressed\n"
          "into sectors. level as navmesh: the level's faces are the walkable polygons\n"
          "(a mesh exported by Recast, Unity, Godot, Unreal...), neighbours across shared\n"
          "edges; no fill runs, the cell size is not used. No steep faces: without the\n"
          "faces steeper than the max slope (a level's walls, say).");
  }
  if (!status.fixedGraph && m_source == GraphSource::FloodFill) {
    drawGrid(now);
    drawFileReading(status);
  }
  if (drawParameters(status.fixedGraph, now)) changed(now);
  if (!status.fixedGraph) {
    if (ImGui::Button("Rebuild")) {
      m_forceRequested = true;
      changed(now - kDebounceSeconds);
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset to level settings")) {
      m_profiles[m_selected] = m_defaults[m_selected];
      changed(now - kDebounceSeconds);
    }
  }
  ImGui::Separator();

  if (status.building || m_pending) {
    drawProgress(status, m_pending, now);
    if (ImGui::Button("Cancel")) cancel();
    ImGui::SameLine();
    ImGui::TextDisabled("(Esc)");
  } else if (status.buildCancelled) {
    ImGui::TextColored(kWarningColor, "build cancelled (Rebuild to start again)");
  }
  if (!status.buildError.empty()) wrappedText(kErrorColor, "Build failed: " + status.buildError);
  if (status.build != nullptr) drawStats(status);
  ImGui::End();
}

}  // namespace nav::app
