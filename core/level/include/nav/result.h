#pragma once
// Result of an operation that can fail on bad input: a value or a message that
// names the file, line or parameter at fault. The core never throws for bad input.
#include <optional>
#include <string>
#include <utility>

namespace nav {

template <class T>
class Result {
 public:
  static Result success(T value) {
    Result r;
    r.m_value.emplace(std::move(value));
    return r;
  }
  static Result failure(std::string message) {
    Result r;
    r.m_error = std::move(message);
    return r;
  }

  bool ok() const { return m_value.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return *m_value; }
  T& value() & { return *m_value; }
  T&& value() && { return std::move(*m_value); }
  const std::string& error() const { return m_error; }

 private:
  Result() = default;
  std::optional<T> m_value;
  std::string m_error;
};

}  // namespace nav
