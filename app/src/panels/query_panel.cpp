#include "panels/query_panel.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <vector>

namespace nav::app {
namespace {

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);
const ImVec4 kHeading(0.55f, 0.75f, 1.0f, 1.0f);

// Slider ranges: the CLI's where it has one (query --heuristic-scale 0..10,
// --turning-radius 0..1000), narrowed to what a slider can set finely. Typed
// values (ctrl+click) are clamped to them too.
constexpr float kMinCost = 0.1f, kMaxCost = 20.0f;
constexpr float kMinBias = 0.05f, kMaxBias = 2.0f;
constexpr float kMaxHeuristicScale = 3.0f;
constexpr float kMaxTurningRadius = 50.0f;
constexpr ImGuiSliderFlags kClamped = ImGuiSliderFlags_AlwaysClamp;

void heading(const char* text) {
  ImGui::Separator();
  ImGui::TextColored(kHeading, "%s", text);
}

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// Each key a locked device asks for, with the devices it opens ("red: storeroom_door").
std::map<std::string, std::string> keysOf(const NavGraph& graph) {
  std::map<std::string, std::string> keys;
  for (const DeviceSpec& device : graph.devices) {
    if (!device.locked || device.key.empty()) continue;
    std::string& opens = keys[device.key];
    if (!opens.empty()) opens += ", ";
    opens += device.id;
  }
  return keys;
}

// The surfaces some sector lies on, in the graph's order.
std::vector<uint16_t> surfacesInUse(const NavGraph& graph) {
  std::set<uint16_t> used;
  for (const Sector& sector : graph.sectors) {
    if (sector.surface < graph.surfaces.size()) used.insert(sector.surface);
  }
  return {used.begin(), used.end()};
}

void methodControls(SearchOptions& options) {
  // In the order of nav::kPortalPoints.
  const char* const kLabels[] = {"centroids", "midpoints", "crossing points",
                                 "exact (any-angle)"};
  static_assert(std::size(kLabels) == std::size(kPortalPoints));
  int choice = 0;
  while (kPortalPoints[choice] != options.portalPoint)
    ++choice;
  ImGui::SetNextItemWidth(150.0f);
  if (ImGui::Combo("search", &choice, kLabels, IM_ARRAYSIZE(kLabels)))
    options.portalPoint = kPortalPoints[choice];
  tooltip(
      "How A* costs a step: between sector centroids (the classic triangle A*),\n"
      "through portal midpoints (Detour), where the straight line crosses each\n"
      "portal (the default), or exact any-angle intervals.");
  ImGui::Checkbox("search regions", &options.searchRegions);
  tooltip(
      "The A* searches near-convex groups of sectors first (Draw: regions), then walks\n"
      "them sector by sector: far fewer nodes where walls cut sectors into staircases.\n"
      "Crossing points only, with no open waypath, no jump and no turning radius;\n"
      "otherwise the sectors are searched. Off by default: the path may come out\n"
      "longer than the sector search's.");
}

}  // namespace

SearchOptions startingSearchOptions(const AppOptions& options) {
  SearchOptions search;
  search.portalPoint = options.portalPoint;
  search.searchRegions = options.searchRegions;
  return search;
}

void QueryPanel::noteWidget(const std::string& label) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  m_widgets[label] = WidgetBox{{min.x, min.y}, {max.x, max.y}};
}

void QueryPanel::draw(PathTool& tool, const NavGraph* graph) {
  m_widgets.clear();
  if (!ImGui::Begin("Query")) {
    ImGui::End();
    return;
  }
  SearchOptions options = tool.searchOptions();
  methodControls(options);
  ImGui::SameLine(0.0f, 20.0f);
  if (ImGui::Button("Reset")) options = m_starting;
  noteWidget("reset");
  tooltip(
      "Back to the values the session started with: the command line's search,\n"
      "the level's surface costs, no keys.");

  if (graph == nullptr) {
    ImGui::TextColored(kDim, "waiting for a graph");
  } else {
    QueryFilter& filter = options.filter;
    heading("keys held");
    const std::map<std::string, std::string> keys = keysOf(*graph);
    if (keys.empty()) ImGui::TextColored(kDim, "no locked device");
    for (const auto& [key, devices] : keys) {
      const auto held = std::find(filter.keys.begin(), filter.keys.end(), key);
      bool holds = held != filter.keys.end();
      if (ImGui::Checkbox(key.c_str(), &holds)) {
        if (holds) {
          filter.keys.push_back(key);
          std::sort(filter.keys.begin(), filter.keys.end());
        } else {
          filter.keys.erase(held);
        }
      }
      noteWidget("key:" + key);
      ImGui::SameLine();
      ImGui::TextColored(kDim, "opens %s", devices.c_str());
    }

    heading("surfaces: cost a metre");
    for (const uint16_t s : surfacesInUse(*graph)) {
      const SurfaceSpec& surface = graph->surfaces[s];
      ImGui::PushID(s);
      const auto costed = filter.surfaceCosts.find(surface.name);
      float cost = costed != filter.surfaceCosts.end() ? costed->second : surface.cost;
      ImGui::SetNextItemWidth(120.0f);
      if (ImGui::SliderFloat("##cost", &cost, kMinCost, kMaxCost, "%.2f",
                             kClamped | ImGuiSliderFlags_Logarithmic)) {
        // The graph's own cost needs no entry: the filter then equals the starting one.
        if (cost == surface.cost) {
          filter.surfaceCosts.erase(surface.name);
        } else {
          filter.surfaceCosts[surface.name] = cost;
        }
      }
      noteWidget("cost:" + surface.name);
      tooltip("Cost per metre walked on this surface (the level's sidecar sets it; 1 = distance).");
      ImGui::SameLine();
      const auto excluded =
          std::find(filter.excludedSurfaces.begin(), filter.excludedSurfaces.end(), surface.name);
      bool exclude = excluded != filter.excludedSurfaces.end();
      if (ImGui::Checkbox("off", &exclude)) {
        if (exclude) {
          filter.excludedSurfaces.push_back(surface.name);
          std::sort(filter.excludedSurfaces.begin(), filter.excludedSurfaces.end());
        } else {
          filter.excludedSurfaces.erase(excluded);
        }
      }
      noteWidget("exclude:" + surface.name);
      tooltip("The path may not enter this surface.");
      ImGui::SameLine();
      ImGui::TextUnformatted(surface.name.c_str());
      ImGui::PopID();
    }

    heading("search");
    if (!graph->waypaths.empty()) {
      ImGui::SetNextItemWidth(120.0f);
      ImGui::SliderFloat("waypath bias", &filter.waypathBias, kMinBias, kMaxBias, "%.2f", kClamped);
      tooltip("Cost per metre along a waypath: below 1 the path prefers waypaths.");
    }
    ImGui::SetNextItemWidth(120.0f);
    ImGui::SliderFloat("heuristic scale", &options.heuristicScale, 0.0f, kMaxHeuristicScale, "%.3f",
                       kClamped);
    tooltip(
        "A* heuristic = straight-line distance x this (times the cheapest metre).\n"
        "Up to 1 the path stays the cheapest; above 1 the search expands fewer\n"
        "nodes and may return a longer path. 0 is Dijkstra.");
    bool ownRadius = !options.turningRadius;
    if (ImGui::Checkbox("unit's turning radius", &ownRadius))
      options.turningRadius = ownRadius ? std::nullopt : std::optional(graph->unit.turningRadius);
    tooltip("The unit profile's own turning radius; untick to set another.");
    if (ownRadius) {
      ImGui::SameLine();
      ImGui::TextColored(kDim, "%.1f m", double(graph->unit.turningRadius));
    } else {
      float radius = *options.turningRadius;
      ImGui::SetNextItemWidth(120.0f);
      if (ImGui::SliderFloat("turning radius", &radius, 0.0f, kMaxTurningRadius, "%.1f m",
                             kClamped))
        options.turningRadius = radius;
      tooltip("A portal is skipped when the turn onto it needs a longer arc than the runs allow.");
    }
  }

  tool.setSearchOptions(options);
  ImGui::End();
}

}  // namespace nav::app
