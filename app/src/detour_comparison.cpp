#include "detour_comparison.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "nav/path_pipeline.h"

#ifdef NAVSCOPE_WITH_RECAST
#include "detour_reference.h"
#include "recast_reference.h"
#endif

namespace nav::app {
namespace {

// The shortest of kRuns timed calls of `query`. [microseconds]
template <class Query>
double bestMicroseconds(Query&& query) {
  double best = std::numeric_limits<double>::infinity();
  for (int run = 0; run < DetourComparison::kRuns; ++run) {
    const auto start = std::chrono::steady_clock::now();
    query();
    const auto end = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::micro>(end - start).count());
  }
  return best;
}

}  // namespace

#ifdef NAVSCOPE_WITH_RECAST

struct DetourComparison::Reference {
  recast::DetourMesh mesh;
  size_t polygons = 0;
  std::vector<glm::vec3> edges;
};

std::shared_ptr<const DetourComparison> DetourComparison::build(const Level& level,
                                                                const FloodFillParams& params,
                                                                std::string& error) {
  const recast::TriangleSoup soup(level);
  const float radius = 0.5f * params.unit.footprint();
  const rcConfig config = recast::matchedConfig(params.unit, radius, effectiveCellSize(params));
  std::optional<recast::NavMesh> navMesh = recast::buildNavMesh(soup, config, error);
  if (!navMesh) return nullptr;
  std::optional<recast::DetourMesh> mesh =
      recast::DetourMesh::create(*navMesh, config, params.unit.height, radius, error);
  if (!mesh) return nullptr;
  auto reference = std::make_unique<Reference>(Reference{std::move(*mesh), 0, {}});
  reference->polygons = size_t(reference->mesh.polygonCount());
  reference->edges = reference->mesh.polygonEdges();
  return std::shared_ptr<const DetourComparison>(new DetourComparison(std::move(reference)));
}

ComparedPath DetourComparison::detourPath(const glm::vec3& start, const glm::vec3& goal) const {
  recast::DetourPath path;
  ComparedPath compared;
  compared.microseconds = bestMicroseconds([&] { m_reference->mesh.findPath(start, goal, path); });
  compared.found = path.found;
  compared.length = path.length;
  compared.corners = path.corners;
  return compared;
}

#else

struct DetourComparison::Reference {
  size_t polygons = 0;
  std::vector<glm::vec3> edges;
};

std::shared_ptr<const DetourComparison> DetourComparison::build(const Level&,
                                                                const FloodFillParams&,
                                                                std::string& error) {
  error =
      "built without Recast/Detour: install librecast-dev (apt) and build again to compare with "
      "Detour";
  return nullptr;
}

ComparedPath DetourComparison::detourPath(const glm::vec3&, const glm::vec3&) const {
  return {};
}

#endif

DetourComparison::DetourComparison(std::unique_ptr<Reference> reference)
    : m_reference(std::move(reference)) {}

DetourComparison::~DetourComparison() = default;

size_t DetourComparison::polygonCount() const {
  return m_reference->polygons;
}

const std::vector<glm::vec3>& DetourComparison::polygonEdges() const {
  return m_reference->edges;
}

ComparedPath DetourComparison::navscopePath(const NavGraph& graph, const SearchOptions& options,
                                            const glm::vec3& start, const glm::vec3& goal) {
  // Kept between runs, as Detour's query object and buffers are.
  PathAnswer answer;
  ComparedPath compared;
  compared.microseconds =
      bestMicroseconds([&] { planPath(graph, start, goal, options, {}, answer); });
  compared.found = answer.search.status == PathStatus::Found;
  compared.length = answer.funnel.length;
  compared.corners = answer.funnel.corners;
  return compared;
}

}  // namespace nav::app
