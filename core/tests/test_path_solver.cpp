// Time slicing: a search advanced in small budgets, alone (PathSolver) or
// among many (PathManager), ends exactly where the one-shot findPath does.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <set>

#include "expect_same.h"
#include "nav/nav_build.h"
#include "nav/path_manager.h"
#include "nav/path_solver.h"
#include "test_levels.h"

namespace nav {
namespace {

struct Query {
  glm::vec3 start, goal;
  SearchOptions options;
};

// Pairs of random cell centres, under filters that reach every ending: found,
// partial, unreachable, too many expansions, off the mesh.
std::vector<Query> randomQueries(const NavBuild& build, uint32_t count, uint32_t seed) {
  const CellGrid& cells = *build.cells;
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  std::vector<SearchOptions> filters(5);
  filters[1].filter.keys = {"red"};
  filters[1].filter.excludedSurfaces = {"lava"};
  filters[2].maxExpansions = 2;
  filters[2].allowPartial = false;
  filters[3].maxExpansions = 2;
  filters[4].portalPoint = PortalPoint::Midpoint;
  filters[4].heuristicScale = 1.5f;
  filters[4].filter.unitKind = UnitKind::Vehicle;
  std::vector<Query> queries;
  for (uint32_t i = 0; i < count; ++i) {
    Query query{cells.center(pick(random)) + glm::vec3(0, 0.05f, 0),
                cells.center(pick(random)) + glm::vec3(0, 0.05f, 0), filters[i % filters.size()]};
    if (i % 23 == 22) query.goal.y += 50.0f;  // off the mesh
    queries.push_back(query);
  }
  return queries;
}

class SlicedLevel : public ::testing::TestWithParam<const char*> {};

// One solver per budget, reused across all the queries (as a game would).
TEST_P(SlicedLevel, SolverBudgetsGiveTheOneShotResult) {
  const NavGraph& graph = test::bundledBuild(GetParam()).graph;
  const std::vector<Query> queries = randomQueries(test::bundledBuild(GetParam()), 120, 5);
  std::set<PathStatus> statuses;
  for (uint32_t budget : {1u, 7u, 1000u}) {
    PathSolver solver;
    for (size_t i = 0; i < queries.size(); ++i) {
      SCOPED_TRACE("budget " + std::to_string(budget) + ", query " + std::to_string(i));
      const Query& query = queries[i];
      SearchTrace oneShotTrace, slicedTrace;
      const PathResult oneShot =
          findPath(graph, query.start, query.goal, query.options, &oneShotTrace);
      statuses.insert(oneShot.status);
      solver.init(graph, query.start, query.goal, query.options, &slicedTrace);
      uint32_t updates = 0;
      while (solver.status() == SolveStatus::InProgress) {
        const uint32_t before = solver.iterations();
        solver.update(budget);
        ASSERT_LE(solver.iterations() - before, budget);
        ASSERT_LT(++updates, 100'000u);
      }
      ASSERT_EQ(solver.status(), SolveStatus::Done);
      // Every iteration but the last expands a node.
      EXPECT_LE(solver.iterations(), oneShot.expansions + 1);
      test::expectSameResult(solver.finalize(), oneShot);
      test::expectSameTrace(slicedTrace, oneShotTrace);
      EXPECT_EQ(solver.status(), SolveStatus::Idle);
    }
  }
  // The queries reach the endings they are meant to test.
  EXPECT_TRUE(statuses.count(PathStatus::Found));
  EXPECT_TRUE(statuses.count(PathStatus::Partial));
  EXPECT_TRUE(statuses.count(PathStatus::TooManyExpansions));
  EXPECT_TRUE(statuses.count(PathStatus::GoalOffMesh));
}

// A time budget of nothing still advances: each call runs a few iterations.
TEST_P(SlicedLevel, TimeBudgetsFinish) {
  const NavGraph& graph = test::bundledBuild(GetParam()).graph;
  const std::vector<Query> queries = randomQueries(test::bundledBuild(GetParam()), 20, 9);
  PathSolver solver;
  for (const Query& query : queries) {
    for (std::chrono::microseconds budget :
         {std::chrono::microseconds(0), std::chrono::microseconds(20)}) {
      solver.init(graph, query.start, query.goal, query.options);
      for (uint32_t updates = 0; solver.status() == SolveStatus::InProgress; ++updates) {
        ASSERT_LT(updates, 100'000u);
        solver.update(budget);
      }
      test::expectSameResult(solver.finalize(),
                             findPath(graph, query.start, query.goal, query.options));
    }
  }
}

// Many requests through a few solvers and a small budget per update: every
// result is findPath's, and no iteration of the budget is wasted.
TEST_P(SlicedLevel, ManagerDeliversEveryResult) {
  const NavGraph& graph = test::bundledBuild(GetParam()).graph;
  const std::vector<Query> queries = randomQueries(test::bundledBuild(GetParam()), 50, 13);
  PathManagerParams params;
  params.solvers = 4;
  params.quantum = 3;
  PathManager manager(graph, params);
  std::vector<PathTicket> tickets;
  // Work the requests need: starting each costs one iteration, then at most
  // one per expansion plus the one that ends the search.
  uint64_t work = 0;
  std::vector<PathResult> oneShots;
  for (const Query& query : queries) {
    tickets.push_back(manager.request(query.start, query.goal, query.options));
    EXPECT_EQ(manager.state(tickets.back()), RequestState::Queued);
    oneShots.push_back(findPath(graph, query.start, query.goal, query.options));
    work += oneShots.back().expansions + 2;
  }
  EXPECT_EQ(manager.pending(), queries.size());
  constexpr uint32_t kBudget = 10;
  std::set<PathTicket> finished;
  uint32_t updates = 0;
  while (manager.pending() > 0) {
    ASSERT_LE(++updates, work / kBudget + 1);
    for (PathTicket ticket : manager.update(kBudget)) {
      EXPECT_TRUE(finished.insert(ticket).second) << "ticket " << ticket << " finished twice";
      EXPECT_EQ(manager.state(ticket), RequestState::Done);
    }
  }
  EXPECT_EQ(finished.size(), queries.size());
  EXPECT_TRUE(manager.update(kBudget).empty());
  for (size_t i = 0; i < tickets.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    std::optional<PathResult> result = manager.takeResult(tickets[i]);
    ASSERT_TRUE(result);
    test::expectSameResult(*result, oneShots[i]);
    EXPECT_EQ(manager.state(tickets[i]), RequestState::Unknown);
    EXPECT_FALSE(manager.takeResult(tickets[i])) << "a result is taken once";
  }
}

// Test names from the file names: "showcase", "funnel".
std::string levelName(const ::testing::TestParamInfo<const char*>& level) {
  const std::string file = level.param;
  return file.substr(0, file.find('.'));
}
INSTANTIATE_TEST_SUITE_P(BundledLevels, SlicedLevel,
                         ::testing::Values("showcase.obj", "funnel.obj"), levelName);

// Queries on the showcase that take many expansions, so a small budget leaves them in flight.
std::vector<Query> longQueries(uint32_t count) {
  const NavBuild& build = test::bundledBuild("showcase.obj");
  std::vector<Query> longOnes;
  for (const Query& query : randomQueries(build, 400, 21)) {
    const PathResult path = findPath(build.graph, query.start, query.goal, query.options);
    if (path.status == PathStatus::Found && path.expansions > 30) longOnes.push_back(query);
    if (longOnes.size() == count) break;
  }
  EXPECT_EQ(longOnes.size(), count);
  return longOnes;
}

// Finalizing early ends the search where it stands: the partial path of a
// search that ran out of expansions at that point.
TEST(PathSolver, FinalizeEarlyGivesThePartialPathSoFar) {
  const NavGraph& graph = test::bundledBuild("showcase.obj").graph;
  for (const Query& query : longQueries(10)) {
    PathSolver solver;
    solver.init(graph, query.start, query.goal, query.options);
    EXPECT_EQ(solver.update(12), SolveStatus::InProgress);
    const PathResult early = solver.finalize();
    SearchOptions limited = query.options;
    limited.maxExpansions = 12;
    const PathResult limitedResult = findPath(graph, query.start, query.goal, limited);
    EXPECT_EQ(early.status, PathStatus::Partial);
    EXPECT_EQ(early.reason, "the search was finalized after 12 expansions, before it ended");
    EXPECT_EQ(early.corridor.portals, limitedResult.corridor.portals);
    EXPECT_EQ(early.cost, limitedResult.cost);
    EXPECT_EQ(early.expansions, 12u);
  }
  PathSolver idle;
  EXPECT_EQ(idle.update(10), SolveStatus::Idle);
  EXPECT_EQ(idle.finalize().reason, "no search was started");
}

// The first requests take the solvers, in request order; the rest wait. Each
// solver gets its turn even when an update's budget covers a single turn.
TEST(PathManager, FifoQueueAndRoundRobinTurns) {
  const NavGraph& graph = test::bundledBuild("showcase.obj").graph;
  const std::vector<Query> queries = longQueries(6);
  PathManagerParams params;
  params.solvers = 3;
  params.quantum = 4;
  PathManager manager(graph, params);
  std::vector<PathTicket> tickets;
  for (const Query& query : queries) {
    tickets.push_back(manager.request(query.start, query.goal, query.options));
  }
  // One turn per update (a start and a quantum): the three solvers start in
  // turn, and the fourth request waits.
  for (uint32_t turn = 0; turn < 3; ++turn) {
    EXPECT_TRUE(manager.update(1 + params.quantum).empty());
    for (uint32_t i = 0; i < tickets.size(); ++i) {
      EXPECT_EQ(manager.state(tickets[i]),
                i <= turn ? RequestState::Searching : RequestState::Queued)
          << "turn " << turn << ", request " << i;
    }
  }
  while (manager.pending() > 0)
    manager.update(7);
  for (size_t i = 0; i < tickets.size(); ++i) {
    test::expectSameResult(*manager.takeResult(tickets[i]),
                           findPath(graph, queries[i].start, queries[i].goal, queries[i].options));
  }
}

TEST(PathManager, SameBudgetsSameOrder) {
  const NavGraph& graph = test::bundledBuild("showcase.obj").graph;
  const std::vector<Query> queries = randomQueries(test::bundledBuild("showcase.obj"), 40, 3);
  auto finishOrder = [&] {
    PathManager manager(graph);
    for (const Query& query : queries)
      manager.request(query.start, query.goal, query.options);
    std::vector<std::vector<PathTicket>> order;
    while (manager.pending() > 0)
      order.push_back(manager.update(25u));
    return order;
  };
  EXPECT_EQ(finishOrder(), finishOrder());
}

TEST(PathManager, CancelForgetsQueuedSearchingAndDoneRequests) {
  const NavGraph& graph = test::bundledBuild("showcase.obj").graph;
  const std::vector<Query> queries = longQueries(6);
  PathManagerParams params;
  params.solvers = 2;
  params.quantum = 2;
  PathManager manager(graph, params);
  std::vector<PathTicket> tickets;
  for (const Query& query : queries) {
    tickets.push_back(manager.request(query.start, query.goal, query.options));
  }
  manager.update(6u);  // both solvers started (a start and a quantum each), nothing finished
  ASSERT_EQ(manager.state(tickets[0]), RequestState::Searching);
  ASSERT_EQ(manager.state(tickets[3]), RequestState::Queued);
  EXPECT_TRUE(manager.cancel(tickets[0]));  // searching: its solver takes the next request
  EXPECT_TRUE(manager.cancel(tickets[3]));  // queued: skipped when its turn comes
  EXPECT_FALSE(manager.cancel(tickets[3]));
  EXPECT_FALSE(manager.cancel(0));
  EXPECT_EQ(manager.state(tickets[0]), RequestState::Unknown);
  EXPECT_EQ(manager.pending(), 4u);

  std::set<PathTicket> finished;
  while (manager.pending() > 0) {
    for (PathTicket ticket : manager.update(16u))
      finished.insert(ticket);
  }
  EXPECT_EQ(finished, (std::set<PathTicket>{tickets[1], tickets[2], tickets[4], tickets[5]}));
  for (size_t i : {1, 2, 4}) {
    test::expectSameResult(*manager.takeResult(tickets[i]),
                           findPath(graph, queries[i].start, queries[i].goal, queries[i].options));
  }
  EXPECT_TRUE(manager.cancel(tickets[5]));  // done: the result is dropped
  EXPECT_FALSE(manager.takeResult(tickets[5]));
}

// No timing assertions: only that a time budget drives every request to its result.
TEST(PathManager, TimeBudgetsFinish) {
  const NavGraph& graph = test::bundledBuild("funnel.obj").graph;
  const std::vector<Query> queries = randomQueries(test::bundledBuild("funnel.obj"), 30, 17);
  PathManager manager(graph);
  std::vector<PathTicket> tickets;
  for (const Query& query : queries) {
    tickets.push_back(manager.request(query.start, query.goal, query.options));
  }
  for (uint32_t updates = 0; manager.pending() > 0; ++updates) {
    ASSERT_LT(updates, 100'000u);
    manager.update(std::chrono::microseconds(updates % 2 ? 0 : 30));
  }
  for (size_t i = 0; i < tickets.size(); ++i) {
    test::expectSameResult(*manager.takeResult(tickets[i]),
                           findPath(graph, queries[i].start, queries[i].goal, queries[i].options));
  }
}

}  // namespace
}  // namespace nav
