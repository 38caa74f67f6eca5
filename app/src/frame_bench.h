#pragma once
// --bench-frames: frame times gathered while the debugger draws unthrottled,
// printed as the frame rate and the frame-time percentiles.
#include <cstdint>
#include <vector>

namespace nav::app {

class FrameBench {
 public:
  /// One frame's wall time. [milliseconds]
  void add(double milliseconds) { m_times.push_back(milliseconds); }
  uint64_t frames() const { return m_times.size(); }
  /// Prints `bench frames=N p50=A p90=B p99=C max=D mean=E ms: F fps` (F = 1000 / E) to stdout.
  void print() const;

 private:
  std::vector<double> m_times;
};

}  // namespace nav::app
