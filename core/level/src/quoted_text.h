#pragma once
// Text from a file in error messages: quoted, and cut when long, so that a
// megabyte token makes a message of a line, not of a megabyte.
#include <string>
#include <string_view>

namespace nav {

inline std::string quotedText(std::string_view text) {
  // Characters shown of a long text; a text up to a few more is shown whole.
  constexpr size_t kShown = 48, kWhole = 64;
  // Built by appending: GCC 12 warns, wrongly, on "'" + a string.
  std::string quoted = "'";
  if (text.size() <= kWhole) {
    quoted += text;
    quoted += '\'';
    return quoted;
  }
  // Cut before a UTF-8 continuation byte, not inside a character.
  size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  quoted += text.substr(0, cut);
  quoted += "...' (";
  quoted += std::to_string(text.size());
  quoted += " characters)";
  return quoted;
}

}  // namespace nav
