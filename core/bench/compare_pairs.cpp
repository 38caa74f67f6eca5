// Which paths did a change make longer, and which shorter?
//
// Reads two files `navscope_bench_recast --pairs FILE` wrote (before and after
// a change, same seed and levels) and, per level, over the pairs navscope
// found in both: the total length after over before, how many pairs got
// longer or shorter by more than BY percent (and a millimetre), and the worst
// of each with its pair. With --exact, a third such file written with
// `--exact` (the exact search's lengths): the totals before and after over
// the exact one, and how many pairs lie more than 2 % over it. Exits with 1
// when any pair got longer, 2 on a file it cannot read.
//
// Run: build/core/navscope_compare_pairs BEFORE.tsv AFTER.tsv [--exact EXACT.tsv]
//          [--by PERCENT]
//   PERCENT defaults to 0.5.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

// One pair as --pairs wrote it: its level and end points (as text, the same
// in every file drawn with one seed) and navscope's length, if it found one.
struct PairLine {
  std::string level, start, goal;
  std::optional<double> length;
};

using PairKey = std::tuple<std::string, std::string, std::string>;

struct PairFile {
  std::vector<PairLine> lines;
  std::map<PairKey, size_t> byKey;
};

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char c : line) {
    if (c == '\t')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// The file, or an error naming it (and the line) on stderr.
std::optional<PairFile> readPairs(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    std::fprintf(stderr, "navscope_compare_pairs: %s: not a regular file\n", path.c_str());
    return std::nullopt;
  }
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "navscope_compare_pairs: %s: cannot read\n", path.c_str());
    return std::nullopt;
  }
  PairFile file;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::vector<std::string> f = fields(line);
    if (number == 1) {
      if (f.size() < 4 || f[0] != "level" || f[3] != "navscope_m") {
        std::fprintf(stderr,
                     "navscope_compare_pairs: %s:1: not a --pairs file of navscope_bench_recast "
                     "(its header starts level, start, goal, navscope_m)\n",
                     path.c_str());
        return std::nullopt;
      }
      continue;
    }
    if (f.size() < 4) {
      std::fprintf(stderr, "navscope_compare_pairs: %s:%zu: expected at least 4 fields, got %zu\n",
                   path.c_str(), number, f.size());
      return std::nullopt;
    }
    PairLine pair{f[0], f[1], f[2], std::nullopt};
    if (f[3] != "none") {
      char* end = nullptr;
      errno = 0;
      const double length = std::strtod(f[3].c_str(), &end);
      if (end == f[3].c_str() || *end != '\0' || errno != 0 || !std::isfinite(length) ||
          length < 0.0) {
        std::fprintf(stderr,
                     "navscope_compare_pairs: %s:%zu: length '%s' is neither a finite number of "
                     "metres nor 'none'\n",
                     path.c_str(), number, f[3].c_str());
        return std::nullopt;
      }
      pair.length = length;
    }
    file.byKey[{pair.level, pair.start, pair.goal}] = file.lines.size();
    file.lines.push_back(std::move(pair));
  }
  return file;
}

const PairLine* find(const PairFile& file, const PairLine& pair) {
  const auto it = file.byKey.find({pair.level, pair.start, pair.goal});
  return it == file.byKey.end() ? nullptr : &file.lines[it->second];
}

// A pair whose length changed most, as a ratio after / before.
struct Change {
  double ratio = 1.0;
  const PairLine* before = nullptr;
  const PairLine* after = nullptr;
};

struct LevelSummary {
  std::string level;
  size_t pairs = 0, longer = 0, shorter = 0, overExact = 0;
  double before = 0.0, after = 0.0, exactOfBefore = 0.0, exactOfAfter = 0.0, exact = 0.0;
  size_t withExact = 0;
  Change mostLonger, mostShorter;
};

// Per level, in the order `after` first names them.
std::vector<LevelSummary> summarize(const PairFile& before, const PairFile& after,
                                    const PairFile* exact, double part) {
  // Beyond rounding of the lengths: a millimetre.
  constexpr double kSlack = 1e-3;
  std::vector<LevelSummary> levels;
  std::map<std::string, size_t> levelIndex;
  for (const PairLine& now : after.lines) {
    const auto [it, added] = levelIndex.try_emplace(now.level, levels.size());
    if (added) {
      levels.emplace_back();
      levels.back().level = now.level;
    }
    LevelSummary& s = levels[it->second];
    const PairLine* was = find(before, now);
    if (!now.length || !was || !was->length) continue;
    const double a = *now.length, b = *was->length;
    ++s.pairs;
    s.before += b;
    s.after += a;
    const double ratio = b > 0.0 ? a / b : a > 0.0 ? INFINITY : 1.0;
    if (a > b * (1.0 + part) + kSlack) {
      ++s.longer;
      if (!s.mostLonger.after || ratio > s.mostLonger.ratio) s.mostLonger = {ratio, was, &now};
    } else if (b > a * (1.0 + part) + kSlack) {
      ++s.shorter;
      if (!s.mostShorter.after || ratio < s.mostShorter.ratio) s.mostShorter = {ratio, was, &now};
    }
    if (!exact) continue;
    const PairLine* best = find(*exact, now);
    if (!best || !best->length) continue;
    ++s.withExact;
    s.exact += *best->length;
    s.exactOfBefore += b;
    s.exactOfAfter += a;
    if (a > *best->length * 1.02 + kSlack) ++s.overExact;
  }
  return levels;
}

void printChange(const char* what, const Change& change) {
  if (!change.after) return;
  std::printf("  %s: %+.2f %%: (%s) -> (%s): %.3f m before, %.3f m after\n", what,
              100.0 * (change.ratio - 1.0), change.after->start.c_str(), change.after->goal.c_str(),
              *change.before->length, *change.after->length);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string exactPath;
  double by = 0.5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--exact" && i + 1 < argc) {
      exactPath = argv[++i];
    } else if (arg == "--by" && i + 1 < argc) {
      char* end = nullptr;
      by = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !std::isfinite(by) || by < 0.0 || by > 100.0) {
        std::fprintf(stderr, "navscope_compare_pairs: --by %s: expected a percentage, 0 to 100\n",
                     argv[i]);
        return 2;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "navscope_compare_pairs: unknown option %s\n", arg.c_str());
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.size() != 2) {
    std::fprintf(stderr,
                 "usage: navscope_compare_pairs BEFORE.tsv AFTER.tsv [--exact EXACT.tsv] "
                 "[--by PERCENT]\n");
    return 2;
  }
  const std::optional<PairFile> before = readPairs(files[0]);
  const std::optional<PairFile> after = readPairs(files[1]);
  std::optional<PairFile> exact;
  if (!exactPath.empty()) exact = readPairs(exactPath);
  if (!before || !after || (!exactPath.empty() && !exact)) return 2;

  const std::vector<LevelSummary> levels =
      summarize(*before, *after, exact ? &*exact : nullptr, by / 100.0);
  bool anyLonger = false;
  std::printf("Pairs navscope found before and after; longer, shorter: by more than %.2f %%\n", by);
  for (const LevelSummary& s : levels) {
    anyLonger = anyLonger || s.longer > 0;
    std::printf("%s: pairs %zu, total after / before %.4f, %zu longer, %zu shorter",
                s.level.c_str(), s.pairs, s.before > 0.0 ? s.after / s.before : 1.0, s.longer,
                s.shorter);
    if (exact && s.exact > 0.0) {
      std::printf(
          "; over the exact search (pairs %zu): before %.4f, after %.4f, %zu more than 2 %%",
          s.withExact, s.exactOfBefore / s.exact, s.exactOfAfter / s.exact, s.overExact);
    }
    std::printf("\n");
    printChange("most longer", s.mostLonger);
    printChange("most shorter", s.mostShorter);
  }
  return anyLonger ? 1 : 0;
}
