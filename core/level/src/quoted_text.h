#pragma once
// Text from a file in error messages: quoted, and cut when long, so that a
// megabyte token makes a message of a line, not of a megabyte.
#include <string>
#include <string_view>

#include "nav/utf8_prefix.h"

namespace nav {

/// A text this long or shorter is quoted whole.
inline constexpr size_t kQuotedWhole = 64;

inline std::string quotedText(std::string_view text) {
  // Characters shown of a longer text.
  constexpr size_t kShown = 48;
  // Built by appending: GCC 12 warns, wrongly, on "'" + a string.
  std::string quoted = "'";
  if (text.size() <= kQuotedWhole) {
    quoted += text;
    quoted += '\'';
    return quoted;
  }
  quoted += utf8Prefix(text, kShown);
  quoted += "...' (";
  quoted += std::to_string(text.size());
  quoted += " characters)";
  return quoted;
}

}  // namespace nav
