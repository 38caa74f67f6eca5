// The one reader of user files: regular files of bounded size, read whole;
// anything else refused at once, without blocking, with the file named.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "nav/file_reading.h"

namespace nav {
namespace {

std::string scratch(const std::string& name) {
  const std::filesystem::path folder =
      std::filesystem::path(::testing::TempDir()) / "navscope_file_reading";
  std::filesystem::create_directories(folder);
  const std::filesystem::path path = folder / name;
  std::filesystem::remove_all(path);
  return path.string();
}

void expectRefused(const std::string& path, const std::string& says) {
  const Result<std::string> read = readRegularFile(path, 1000, "TestLimit");
  ASSERT_FALSE(read.ok()) << path;
  EXPECT_EQ(read.error().rfind(path + ": ", 0), 0u) << read.error();
  EXPECT_NE(read.error().find(says), std::string::npos) << read.error();
}

TEST(FileReading, ReadsARegularFileWhole) {
  const std::string path = scratch("plain.txt");
  std::string text(700, 'x');
  text += "\nend";
  std::ofstream(path, std::ios::binary) << text;
  const Result<std::string> read = readRegularFile(path, 1000, "TestLimit");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), text);
  // Exactly at the limit is allowed; a byte more is not.
  const Result<std::string> atLimit = readRegularFile(path, text.size(), "TestLimit");
  EXPECT_TRUE(atLimit.ok()) << atLimit.error();
  const Result<std::string> over = readRegularFile(path, text.size() - 1, "TestLimit");
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().find("is 704 bytes, over the limit of 703 bytes (TestLimit)"),
            std::string::npos)
      << over.error();
}

TEST(FileReading, AnEmptyFileIsEmptyText) {
  const std::string path = scratch("empty.txt");
  std::ofstream(path, std::ios::binary).flush();
  const Result<std::string> read = readRegularFile(path, 1000, "TestLimit");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_TRUE(read.value().empty());
}

TEST(FileReading, RefusesWhatIsNotARegularFile) {
  expectRefused(scratch("missing.txt"), "file not found");
  const std::string folder = scratch("folder");
  std::filesystem::create_directories(folder);
  expectRefused(folder, "is a directory, not a regular file");
  expectRefused("/dev/zero", "is a character device, not a regular file");
  // A FIFO with no writer: opening it for reading would block for ever.
  const std::string fifo = scratch("pipe.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expectRefused(fifo, "is a FIFO (named pipe), not a regular file");
  std::filesystem::remove(fifo);
}

}  // namespace
}  // namespace nav
