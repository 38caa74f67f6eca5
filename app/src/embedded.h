#pragma once
// Files compiled into the binary at build time (shaders, the default window
// layout), so the debugger runs from any directory.
#include <string_view>

namespace nav::app {

/// Contents of an embedded file by its path relative to the repository root
/// ("shaders/debug.vert"); empty when no such file was embedded.
std::string_view embeddedFile(std::string_view path);

}  // namespace nav::app
