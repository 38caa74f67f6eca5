#include "frame_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace nav::app {

void FrameBench::print() const {
  if (m_times.empty()) return;
  std::vector<double> sorted = m_times;
  std::sort(sorted.begin(), sorted.end());
  // The nearest-rank percentile.
  const auto percentile = [&](double p) {
    const size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
  };
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
  std::printf("bench frames=%zu p50=%.2f p90=%.2f p99=%.2f max=%.2f mean=%.2f ms: %.1f fps\n",
              sorted.size(), percentile(50), percentile(90), percentile(99), sorted.back(), mean,
              1000.0 / mean);
  std::fflush(stdout);
}

}  // namespace nav::app
