#pragma once
// A list of start and goal points, one query a line: the text of the CLI's
// --queries file, which scripts and benchmarks write.
#include <cstddef>
#include <string_view>
#include <vector>

#include "nav/geometry.h"
#include "nav/result.h"

namespace nav {

struct QueryEndpoints {
  glm::vec3 from, to;
};

/// Reads lines of six finite numbers "sx sy sz gx gy gz"; blank lines and lines
/// starting with '#' are skipped. Fails past `maxPairs` queries or on any other
/// line, naming `name` and the line ("name:line: ...").
Result<std::vector<QueryEndpoints>> parseQueryPairs(std::string_view text, std::string_view name,
                                                    size_t maxPairs);

}  // namespace nav
