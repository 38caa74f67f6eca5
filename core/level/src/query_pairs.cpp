#include "nav/query_pairs.h"

#include <sstream>
#include <string>
#include <utility>

namespace nav {

Result<std::vector<QueryEndpoints>> parseQueryPairs(std::string_view text, std::string_view name,
                                                    size_t maxPairs) {
  std::istringstream in{std::string(text)};
  std::vector<QueryEndpoints> pairs;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string where = std::string(name) + ":" + std::to_string(number) + ": ";
    if (pairs.size() == maxPairs) {
      return Result<std::vector<QueryEndpoints>>::failure(
          where + "more than " + std::to_string(maxPairs) + " queries; split the file");
    }
    std::istringstream fields(line);
    float v[6];
    for (float& f : v)
      fields >> f;
    std::string rest;
    if (!fields || (fields >> rest) || !isFinite({v[0], v[1], v[2]}) ||
        !isFinite({v[3], v[4], v[5]})) {
      return Result<std::vector<QueryEndpoints>>::failure(
          where + "expected six finite numbers 'sx sy sz gx gy gz'");
    }
    pairs.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}});
  }
  return Result<std::vector<QueryEndpoints>>::success(std::move(pairs));
}

}  // namespace nav
