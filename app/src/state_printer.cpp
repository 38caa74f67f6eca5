#include "state_printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nav::app {
namespace {

/// Crowd frames between two `crowd frame=` / `crowd solver_us` reports (a second at 60 fps).
constexpr uint64_t kCrowdReportFrames = 60;

std::string format(const char* pattern, auto... values) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

}  // namespace

std::string statusName(PathStatus status) {
  // One word for the line's key=value format: "start off mesh" -> "start_off_mesh".
  std::string name = toString(status);
  std::replace(name.begin(), name.end(), ' ', '_');
  return name;
}

void StatePrinter::print(const std::string& line) {
  if (!m_enabled) return;
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

void StatePrinter::levelLoaded(const std::string& path, size_t triangles) {
  print(format("level %s triangles=%zu", path.c_str(), triangles));
}

void StatePrinter::levelFailed(const std::string& message) {
  print("level error " + message);
}

void StatePrinter::levelOpening(const std::string& path) {
  print("level opening " + path);
}

void StatePrinter::levelGivenUp(const std::string& path) {
  print("level given up " + path);
}

void StatePrinter::navFileLoaded(const std::string& path, const NavGraph& graph) {
  print(format("level %s nav unit=%s sectors=%zu portals=%zu", path.c_str(),
               graph.unit.name.c_str(), graph.sectors.size(), graph.portals.size()));
}

void StatePrinter::unitFailed(const std::string& message) {
  print("unit error " + message);
}

void StatePrinter::buildStarted(const std::string& unit, float cellSize) {
  print(format("build start unit=%s cell=%.3f", unit.c_str(), double(cellSize)));
}

void StatePrinter::buildFinished(const std::string& unit, const BuildStats& stats,
                                 BuildSource source, bool navmesh) {
  const char* suffix = source == BuildSource::Cached   ? " cached"
                       : source == BuildSource::Loaded ? " loaded"
                                                       : "";
  print(format("build unit=%s cells=%zu sectors=%zu portals=%zu ms=%.1f%s%s", unit.c_str(),
               stats.cells, stats.sectors, stats.portals, stats.totalMs,
               navmesh ? " graph=navmesh" : "", suffix));
  for (const std::string& warning : stats.warnings)
    print("build warning " + warning);
}

void StatePrinter::buildCancelled(const std::string& unit) {
  print("build cancelled unit=" + unit);
}

void StatePrinter::buildFailed(const std::string& message) {
  print("build error " + message);
}

void StatePrinter::setFrame(const GridFrame& frame) {
  if (frame.degrees == m_frame.degrees && frame.centre == m_frame.centre &&
      frame.offset == m_frame.offset)
    return;
  m_frame = frame;
  if (frame.offset == glm::vec3(0.0f)) {
    print(format("grid angle=%.3f", double(frame.degrees)));
    return;
  }
  print(format("grid angle=%.3f offset=%.0f,%.0f,%.0f", double(frame.degrees),
               double(frame.offset.x), double(frame.offset.y), double(frame.offset.z)));
}

void StatePrinter::observe(const PathTool& path) {
  if (path.start() && path.start() != m_start) {
    const glm::vec3 start = m_frame.toFile(*path.start());
    print(format("start %.3f %.3f %.3f", start.x, start.y, start.z));
  }
  if (path.goal() && path.goal() != m_goal) {
    const glm::vec3 goal = m_frame.toFile(*path.goal());
    print(format("goal %.3f %.3f %.3f", goal.x, goal.y, goal.z));
  }
  m_start = path.start();
  m_goal = path.goal();
  if (path.notice() != m_notice && !path.notice().empty()) print("notice " + path.notice());
  m_notice = path.notice();
  if (path.revision() == m_pathRevision) return;
  m_pathRevision = path.revision();
  const PathAnswer* solution = path.solution();
  if (solution == nullptr) return;
  print(format(
      "path status=%s corners=%zu length=%.3f funnel_steps=%zu search=%s regions=%d expansions=%u "
      "reached=%zu left_out=%zu",
      statusName(solution->search.status).c_str(), solution->funnel.corners.size(),
      solution->funnel.length, solution->funnel.steps.size(),
      toString(solution->search.portalPoint), solution->search.overRegions ? 1 : 0,
      solution->search.expansions, solution->funnel.reachedCorners,
      solution->sectorsLeftOut.size()));
  if (!path.islandNote().empty()) print("island " + path.islandNote());
  if (solution->funnel.corners.empty()) return;
  std::string corners = "corners";
  for (const glm::vec3& corner : solution->funnel.corners) {
    const glm::vec3 c = m_frame.toFile(corner);
    corners += format(" %.3f,%.3f,%.3f", c.x, c.y, c.z);
  }
  print(corners);
  if (solution->clearance.empty()) return;
  const ClearanceSummary summary = summarizeClearance(solution->clearance);
  std::string line = format("clearance stretches=%zu touching=%zu deepest=%.3f", summary.stretches,
                            summary.touching, summary.deepest);
  if (summary.touching > 0) {
    const glm::vec3 at = m_frame.toFile(summary.deepestAt);
    line += format(" at=%.3f,%.3f,%.3f", at.x, at.y, at.z);
  }
  line += format(" over_no_ground=%zu", summary.overNoGround);
  print(line);
}

void StatePrinter::observeQuery(const PathTool& path) {
  const SearchOptions& options = path.searchOptions();
  const QueryFilter& filter = options.filter;
  const auto joined = [](const auto& items, auto&& text) {
    std::string out;
    for (const auto& item : items) {
      if (!out.empty()) out += ",";
      out += text(item);
    }
    return out.empty() ? std::string("-") : out;
  };
  const auto name = [](const std::string& item) { return item; };
  const std::string line = format(
      "query search=%s regions=%d keys=%s costs=%s excluded=%s bias=%.3f heuristic=%.3f turning=%s",
      toString(options.portalPoint), options.searchRegions ? 1 : 0,
      joined(filter.keys, name).c_str(),
      joined(filter.surfaceCosts,
             [](const auto& cost) { return cost.first + format(":%.3f", double(cost.second)); })
          .c_str(),
      joined(filter.excludedSurfaces, name).c_str(), double(filter.waypathBias),
      double(options.heuristicScale),
      options.turningRadius ? format("%.3f", double(*options.turningRadius)).c_str() : "unit");
  if (line != m_queryLine) print(line);
  m_queryLine = line;
  if (path.lastChange() != m_queryChange && !path.lastChange().empty())
    print("query change " + path.lastChange());
  m_queryChange = path.lastChange();
}

void StatePrinter::observeWidgets(const std::string& panel,
                                  const std::map<std::string, WidgetBox>& widgets) {
  std::map<std::string, WidgetBox>& printed = m_widgets[panel];
  for (const auto& [label, box] : widgets) {
    const auto known = printed.find(label);
    if (known != printed.end() && known->second == box) continue;
    print(format("widget %s %.0f %.0f %.0f %.0f", label.c_str(), double(box.min.x),
                 double(box.min.y), double(box.max.x), double(box.max.y)));
  }
  printed = widgets;
}

void StatePrinter::observeSearchStep(const SearchReplay* replay, std::optional<uint32_t> hovered,
                                     const FrameView& view) {
  const auto name = [](uint32_t portal) {
    return portal == kNoPortal ? std::string("start") : std::to_string(portal);
  };
  const auto values = [&](const ReplayNode& node) {
    return format("portal=%s g=%.3f h=%.3f f=%.3f", name(node.portal).c_str(),
                  double(node.costSoFar), double(node.heuristic()), double(node.estimatedTotal));
  };
  std::string line;
  if (replay != nullptr && replay->expanding()) {
    const ReplayNode& node = replay->nodes()[*replay->expanding()];
    const std::vector<uint32_t> open = replay->openByEstimate();
    const std::optional<glm::vec2> pixel = view.project(node.middle());
    line = format("search step=%zu/%zu %s open=%zu next=%s px=%d,%d", replay->step(),
                  replay->expansions(), values(node).c_str(), open.size(),
                  open.empty() ? "none" : name(replay->nodes()[open.front()].portal).c_str(),
                  pixel ? int(std::lround(pixel->x)) : -1, pixel ? int(std::lround(pixel->y)) : -1);
  }
  if (line != m_searchLine && !line.empty()) print(line);
  m_searchLine = line;
  const std::string hover =
      replay != nullptr && hovered ? "hover node " + values(replay->nodes()[*hovered]) : "";
  if (hover != m_hoverLine && !hover.empty()) print(hover);
  m_hoverLine = hover;
}

void StatePrinter::observeInspector(const std::string& description, glm::vec2 mouse) {
  if (description != m_inspectLine && !description.empty()) {
    print(format("inspect px=%d,%d ", int(std::lround(mouse.x)), int(std::lround(mouse.y))) +
          description);
  }
  m_inspectLine = description;
}

void StatePrinter::navSaved(const std::string& path) {
  print("saved " + path);
}

void StatePrinter::pathExported(const std::string& path) {
  print("exported " + path);
}

void StatePrinter::saveFailed(const std::string& message) {
  print("save error " + message);
}

void StatePrinter::observeHelp(bool shown) {
  if (shown != m_helpShown) print(shown ? "help shown" : "help hidden");
  m_helpShown = shown;
}

void StatePrinter::observeFunnel(std::optional<size_t> step, const PathAnswer* solution) {
  std::string line;
  if (step && solution && *step < solution->funnel.steps.size()) {
    line = format("funnel step=%zu/%zu event=%s", *step + 1, solution->funnel.steps.size(),
                  toString(solution->funnel.steps[*step].event));
  }
  if (line == m_funnelLine) return;
  m_funnelLine = line;
  if (!line.empty()) print(line);
}

void StatePrinter::observeJumps(const JumpTool& jumps) {
  if (jumps.revision() != m_jumpRevision) {
    m_jumpRevision = jumps.revision();
    print("jump " + jumps.lastEvent());
  }
  if (jumps.notice() != m_jumpNotice && !jumps.notice().empty())
    print("jump notice " + jumps.notice());
  m_jumpNotice = jumps.notice();
}

void StatePrinter::observePanels(const std::map<std::string, ScreenRect>& panels) {
  for (const auto& [name, rect] : panels) {
    const auto known = m_panels.find(name);
    if (known != m_panels.end() && known->second.min == rect.min && known->second.max == rect.max)
      continue;
    print(format("panel %s %.0f %.0f %.0f %.0f", name.c_str(), double(rect.min.x),
                 double(rect.min.y), double(rect.max.x), double(rect.max.y)));
  }
  m_panels = panels;
}

void StatePrinter::observeFly(bool flying, const glm::vec3& focus) {
  if (flying == m_flying) return;
  m_flying = flying;
  const glm::vec3 at = m_frame.toFile(focus);
  print(format("fly %s focus=%.3f,%.3f,%.3f", flying ? "start" : "stop", double(at.x), double(at.y),
               double(at.z)));
}

void StatePrinter::observeSelection(const std::string& note) {
  if (note == m_selection) return;
  m_selection = note;
  print(note.empty() ? std::string("select none") : "select " + note);
}

void StatePrinter::observeCompare(const CompareTool& compare) {
  if (compare.enabled() != m_compareOn) {
    m_compareOn = compare.enabled();
    print(m_compareOn ? "compare on" : "compare off");
  }
  if (compare.unavailable() != m_compareUnavailable) {
    m_compareUnavailable = compare.unavailable();
    if (!m_compareUnavailable.empty()) print("compare unavailable " + m_compareUnavailable);
  }
  if (compare.revision() == m_compareRevision) return;
  m_compareRevision = compare.revision();
  if (!compare.comparison()) return;
  const Comparison& both = *compare.comparison();
  const auto side = [](const char* name, const ComparedPath& path) {
    return format("%s found=%d length=%.3f corners=%zu us=%.1f", name, path.found ? 1 : 0,
                  double(path.length), path.corners.size(), path.microseconds);
  };
  print("compare " + side("navscope", both.navscope) + " " + side("detour", both.detour) +
        format(" polygons=%zu", compare.reference()->polygonCount()));
}

void StatePrinter::observeCrowd(const Crowd& crowd, std::chrono::microseconds budget) {
  const size_t agents = crowd.agents().size();
  if (crowd.spawnRevision() != m_crowdRevision) {
    m_crowdRevision = crowd.spawnRevision();
    m_crowdSolved = 0;
    m_crowdReportedFrame = 0;
    if (agents > 0) {
      print(format("crowd spawned agents=%zu seed=%llu unit=%s", agents,
                   (unsigned long long)crowd.seed(), crowd.unit()->name.c_str()));
    } else if (!crowd.active()) {
      print("crowd cleared");
    }
  }
  if (crowd.notice() != m_crowdNotice && !crowd.notice().empty())
    print("crowd notice " + crowd.notice());
  m_crowdNotice = crowd.notice();
  if (agents == 0) return;
  const CrowdTotals& totals = crowd.totals();
  if (totals.agentsWithPath != m_crowdSolved) {
    m_crowdSolved = totals.agentsWithPath;
    print(
        format("crowd solved=%u/%zu pending=%zu", m_crowdSolved, agents, crowd.pendingRequests()));
  }
  if (crowd.frames() < m_crowdReportedFrame + kCrowdReportFrames) return;
  m_crowdReportedFrame = crowd.frames();
  const CrowdCounts counts = crowd.counts();
  print(format("crowd frame=%llu walking=%u waiting=%u solving=%u stuck=%u paths=%llu walked=%.1f",
               (unsigned long long)crowd.frames(), counts.walking, counts.waiting, counts.solving,
               counts.stuck, (unsigned long long)(totals.found + totals.partial), totals.walked));
  const SolverTimeSummary time = crowd.solverTime();
  print(format("crowd solver_us last=%.1f mean=%.1f max=%.1f budget=%lld", double(time.last),
               double(time.mean), double(time.max), (long long)budget.count()));
}

void StatePrinter::screenshotSaved(const std::string& path) {
  print("screenshot " + path);
}

}  // namespace nav::app
