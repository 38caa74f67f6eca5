#include "nav/file_reading.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace nav {
namespace {

// Closes the descriptor however the read ends.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : m_fd(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (m_fd >= 0) ::close(m_fd);
  }
  int get() const { return m_fd; }

 private:
  int m_fd;
};

const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "something else";
}

}  // namespace

Result<std::string> readRegularFile(const std::string& path, uint64_t maxBytes,
                                    std::string_view limitName) {
  using R = Result<std::string>;
  // Non-blocking: opening a FIFO for reading would wait for a writer.
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT) return R::failure(path + ": file not found");
    return R::failure(path + ": cannot open: " + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) {
    return R::failure(path + ": cannot read its status: " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    return R::failure(path + ": is " + kindOf(info.st_mode) + ", not a regular file");
  }
  const std::string limit =
      "the limit of " + std::to_string(maxBytes) + " bytes (" + std::string(limitName) + ")";
  if (uint64_t(info.st_size) > maxBytes) {
    return R::failure(path + ": is " + std::to_string(info.st_size) + " bytes, over " + limit);
  }
  try {
    std::string text(size_t(info.st_size), '\0');
    size_t filled = 0;
    // Reads until the end, one byte past the limit at most: the file may have
    // changed since fstat.
    for (;;) {
      if (filled == text.size()) {
        if (text.size() > maxBytes) {
          return R::failure(path + ": grew while it was read, past " + limit);
        }
        text.resize(text.size() + 1 + std::min<size_t>(text.size(), maxBytes - text.size()));
      }
      const ssize_t got = ::read(file.get(), text.data() + filled, text.size() - filled);
      if (got < 0) {
        if (errno == EINTR) continue;
        return R::failure(path + ": read error: " + std::strerror(errno));
      }
      if (got == 0) break;
      filled += size_t(got);
    }
    text.resize(filled);
    return R::success(std::move(text));
  } catch (const std::bad_alloc&) {
    return R::failure(path + ": out of memory reading " + std::to_string(info.st_size) + " bytes");
  }
}

}  // namespace nav
