// The --queries file's lines: what is read, what is skipped, what is refused.
#include <gtest/gtest.h>

#include <string>

#include "nav/query_pairs.h"

namespace nav {
namespace {

TEST(QueryPairs, ReadsSixNumbersALineAndSkipsCommentsAndBlankLines) {
  const Result<std::vector<QueryEndpoints>> pairs = parseQueryPairs(
      "# start goal\n1 2 3 4 5 6\n\n   \t\r\n-1.5e1 0 .25\t7 8 9\r\n  # indented comment\n",
      "q.txt", 10);
  ASSERT_TRUE(pairs) << pairs.error();
  ASSERT_EQ(pairs.value().size(), 2u);
  EXPECT_EQ(pairs.value()[0].from, glm::vec3(1, 2, 3));
  EXPECT_EQ(pairs.value()[0].to, glm::vec3(4, 5, 6));
  EXPECT_EQ(pairs.value()[1].from, glm::vec3(-15, 0, 0.25f));
  EXPECT_EQ(pairs.value()[1].to, glm::vec3(7, 8, 9));
}

TEST(QueryPairs, RefusesABadLineNamingIt) {
  for (const std::string line : {"1 2 3 4 5", "1 2 3 4 5 6 7", "1 2 3 4 5 nan", "1 2 3 inf 5 6",
                                 "1 2 3 4 5 x", "1 2 3 4 5 1e39"}) {
    const Result<std::vector<QueryEndpoints>> pairs =
        parseQueryPairs("0 0 0 1 1 1\n" + line, "q.txt", 10);
    ASSERT_FALSE(pairs) << line;
    EXPECT_EQ(pairs.error(), "q.txt:2: expected six finite numbers 'sx sy sz gx gy gz'") << line;
  }
}

TEST(QueryPairs, RefusesMoreThanTheLimit) {
  EXPECT_TRUE(parseQueryPairs("0 0 0 1 1 1\n0 0 0 1 1 1\n# end\n", "q.txt", 2));
  const Result<std::vector<QueryEndpoints>> pairs =
      parseQueryPairs("0 0 0 1 1 1\n\n0 0 0 1 1 1\n0 0 0 1 1 1\n", "q.txt", 2);
  ASSERT_FALSE(pairs);
  EXPECT_EQ(pairs.error(), "q.txt:4: more than 2 queries; split the file");
}

}  // namespace
}  // namespace nav
