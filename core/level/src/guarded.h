#pragma once
// The core's public functions never let an exception escape: bad input and
// even running out of memory come back as an error result.
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "nav/result.h"

namespace nav {

/// Runs f, turning anything thrown (out of memory above all) into an error naming `name`.
template <class T, class F>
Result<T> guarded(std::string_view name, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Result<T>::failure(std::string(name) + ": out of memory");
  } catch (const std::exception& e) {
    return Result<T>::failure(std::string(name) + ": " + e.what());
  } catch (...) {
    return Result<T>::failure(std::string(name) + ": unexpected error");
  }
}

}  // namespace nav
