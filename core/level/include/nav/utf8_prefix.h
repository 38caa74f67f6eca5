#pragma once
// Cutting long text for a message without splitting a UTF-8 character.
#include <cstddef>
#include <string_view>

namespace nav {

/// The first `most` bytes of `text` (all of it when shorter), moved back to
/// the start of the character a cut there would split.
inline std::string_view utf8Prefix(std::string_view text, size_t most) {
  if (text.size() <= most) return text;
  size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return text.substr(0, cut);
}

}  // namespace nav
