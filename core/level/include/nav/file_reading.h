#pragma once
// Reading a whole input file safely: only a regular file, of bounded size,
// never blocking on a device or a pipe. Every reader of user files (levels,
// sidecars, .nav, grid maps, scenarios, query lists) goes through it.
#include <cstdint>
#include <string>
#include <string_view>

#include "nav/result.h"

namespace nav {

/// The file's bytes, when it is a regular file of at most maxBytes. It is
/// opened without blocking and checked on the open file, so a device, a FIFO,
/// a socket or a directory is refused at once, even one swapped in after an
/// earlier look. Errors name the file: "PATH: file not found", "PATH: is a
/// FIFO (named pipe), not a regular file", "PATH: is N bytes, over the limit of
/// M bytes (LIMIT)" with `limitName` saying which limit.
Result<std::string> readRegularFile(const std::string& path, uint64_t maxBytes,
                                    std::string_view limitName);

}  // namespace nav
