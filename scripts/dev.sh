#!/usr/bin/env bash
# One entry point for setting up, building, running and testing navscope on Debian 12.
#   scripts/dev.sh run [LEVEL]   install what is missing, build, open the debugger
#   scripts/dev.sh test          install what is missing, build, run every test through ctest
#   scripts/dev.sh sanitize      build the core with clang, ASan + UBSan and run its tests
#   scripts/dev.sh fuzz [SECONDS] run every fuzz target of that build for SECONDS (default 60)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NAVSCOPE_BUILD_DIR:-$root/build}"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(
  build-essential cmake pkg-config
  libimgui-dev libstb-dev libglfw3-dev libgl-dev libgl1-mesa-dri libglx-mesa0 libglm-dev
  python3-glad libtinyobjloader-dev libassimp-dev nlohmann-json3-dev libcli11-dev
  libtbb-dev libgtest-dev libbenchmark-dev librecast-dev clang-14 libclang-rt-14-dev zlib1g-dev
  xvfb xauth xdotool
)

# Idempotent: one dpkg-query over the list; apt runs only when something is missing.
install_missing() {
  local missing=()
  local package status
  for package in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "navscope: installing ${missing[*]}" >&2
  local sudo=()
  if ((EUID != 0)); then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

configure_and_build() {
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$build" -j "$jobs"
}

# The sanitizer build: clang, so that it also holds the libFuzzer targets,
# and a second compiler checks the golden hashes.
build_sanitized() {
  build="$root/build-sanitize"
  configure_and_build -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DNAVSCOPE_SANITIZE=ON -DNAVSCOPE_FUZZ=ON -DNAVSCOPE_BUILD_APP=OFF -DNAVSCOPE_BUILD_BENCH=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
}

# Mutates each target's seeds for `seconds`, $jobs targets at a time, in a
# scratch corpus (the committed seeds stay as they are), from a fixed random
# seed so that every run of a commit tries the same inputs in the same order.
# An input that crashes, hangs (10 s) or takes more than 2 GB fails the run
# and stays beside its log until the next run: commit it under
# fuzz/regressions/TARGET with the fix.
fuzz_one() {
  local name="$1"
  local dir="$out/$name"
  mkdir -p "$dir/corpus"
  local suppressions=""
  # Assimp's own leaks on files it refuses (fuzz/lsan.supp): the scene target only.
  [[ "$name" == scene ]] && suppressions="suppressions=$root/fuzz/lsan.supp"
  if UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LSAN_OPTIONS="$suppressions" \
      "$build/fuzz/navscope_fuzz_$name" -seed=1 -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=16384 -dict="$root/fuzz/dictionaries/$name.dict" \
      -artifact_prefix="$dir/" "$dir/corpus" "$root/fuzz/seeds/$name" >"$dir/log" 2>&1; then
    echo "fuzz $name: $(grep -Eo "#[0-9]+[[:space:]]+DONE[[:space:]]+cov: [0-9]+" "$dir/log" | tail -1) in $seconds s"
  else
    # One report, written whole, however the targets' runs interleave.
    { echo "fuzz $name FAILED; log and input in $dir:"; tail -n 30 "$dir/log"; } >"$dir/failure"
    cat "$dir/failure" >&2
    return 1
  fi
}

fuzz_all() {
  out="$build/fuzz-runs"
  rm -rf "$out"
  mkdir -p "$out"
  export root build out seconds
  export -f fuzz_one
  printf '%s\n' obj scene sidecar nav map scen queries |
    xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {}
}

command="${1:-run}"
shift || true
case "$command" in
  run)
    install_missing
    configure_and_build
    exec "$build/app/navscope" "${1:-$root/assets/showcase.obj}"
    ;;
  test)
    install_missing
    configure_and_build
    # One X server for the whole suite: window tests share it instead of racing.
    xvfb-run -a -s "-screen 0 1280x720x24" \
      ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  sanitize)
    install_missing
    build_sanitized
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
      ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  fuzz)
    seconds="${1:-60}"
    if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
      echo "scripts/dev.sh fuzz: SECONDS must be a whole number above 0, got '$seconds'" >&2
      exit 2
    fi
    install_missing
    build_sanitized
    fuzz_all
    ;;
  *)
    echo "usage: scripts/dev.sh run [LEVEL] | test | sanitize | fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
