#pragma once
// What a file is, by its name's extension: the CLI and the debugger decide by
// it alike.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <string_view>

namespace nav {

/// True when `path`'s extension is `extension` (".nav", say), in any case.
inline bool hasExtension(const std::string& path, std::string_view extension) {
  std::string own = std::filesystem::path(path).extension().string();
  std::transform(own.begin(), own.end(), own.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return own == extension;
}

}  // namespace nav
