#pragma once
// The build's threads: a pool (oneTBB's task arena) kept for a whole stage,
// so that the flood fill can share out every level of its front, however
// small, without starting threads each time. Work is handed out in chunks as
// threads come free; each thread has a slot of its own for scratch memory.
#include <algorithm>
#include <cstddef>
#include <optional>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace nav {

class WorkerThreads {
 public:
  /// Up to `threads` threads, the caller's included. [clamped to 1 .. 64]
  explicit WorkerThreads(int threads) : m_threads(std::clamp(threads, 1, 64)) {
    if (m_threads > 1) m_arena.emplace(m_threads);
  }

  int threads() const { return m_threads; }

  /// Calls work(first, last, slot) over consecutive chunks [first, last) of
  /// [0, items), each about `grain` items, on up to threads() threads at
  /// once, and returns when all are done. `slot` (< threads()) is the thread's
  /// own while it runs the chunk. An exception thrown by work reaches the caller.
  template <class Work>
  void forChunks(size_t items, size_t grain, Work&& work) {
    grain = std::max<size_t>(grain, 1);
    if (!m_arena || items <= grain) {
      if (items > 0) work(size_t(0), items, 0);
      return;
    }
    m_arena->execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, items, grain),
          [&](const tbb::blocked_range<size_t>& range) {
            // In the arena a thread's index is below its concurrency, threads().
            work(range.begin(), range.end(), size_t(tbb::this_task_arena::current_thread_index()));
          },
          tbb::simple_partitioner());
    });
  }

 private:
  int m_threads;
  std::optional<tbb::task_arena> m_arena;
};

}  // namespace nav
