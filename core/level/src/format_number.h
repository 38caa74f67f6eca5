#pragma once
// Numbers in error messages: the shortest text that reads back as the same
// float (std::to_string would print "0.000000"), and points as "(x, y, z)".
#include <charconv>
#include <string>

#include <glm/glm.hpp>

namespace nav {

inline std::string formatFloat(float value) {
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return error == std::errc() ? std::string(text, end) : std::string("?");
}

inline std::string formatPoint(const glm::vec3& point) {
  std::string text = "(";
  text += formatFloat(point.x);
  text += ", ";
  text += formatFloat(point.y);
  text += ", ";
  text += formatFloat(point.z);
  text += ")";
  return text;
}

}  // namespace nav
