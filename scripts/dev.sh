#!/usr/bin/env bash
# One entry point for setting up, building, running and testing navscope on Debian 12.
#   scripts/dev.sh run [LEVEL]   install what is missing, build, open the debugger
#   scripts/dev.sh test          install what is missing, build, run every test through ctest
#   scripts/dev.sh sanitize      build the core with ASan + UBSan and run its tests
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NAVSCOPE_BUILD_DIR:-$root/build}"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(
  build-essential cmake pkg-config
  libimgui-dev libstb-dev libglfw3-dev libgl-dev libgl1-mesa-dri libglx-mesa0 libglm-dev
  python3-glad libtinyobjloader-dev libassimp-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libbenchmark-dev librecast-dev
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
    build="$root/build-sanitize"
    configure_and_build -DNAVSCOPE_SANITIZE=ON -DNAVSCOPE_BUILD_APP=OFF -DNAVSCOPE_BUILD_BENCH=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
      ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: scripts/dev.sh run [LEVEL] | test | sanitize" >&2
    exit 2
    ;;
esac
