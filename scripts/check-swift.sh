#!/usr/bin/env bash
# Stops, saying what to do, unless the swift on PATH (or $SWIFT) is at least the version the
# package's tools version (Package.swift's first line) asks for. Debian's own swiftlang (6.0.3 on
# Debian 13) is older than CaptureKit's dependencies need.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
swift=${SWIFT:-swift}
needed=$(sed -n '1s|^// swift-tools-version: *\([0-9.]*\).*|\1|p' "$here/../Package.swift")
[ -n "$needed" ] || { echo "check-swift: Package.swift's first line names no swift-tools-version" >&2; exit 2; }
get="Install a toolchain from https://www.swift.org/install/linux/ (the tarball for your release, or swiftly) and put its usr/bin first on PATH."
if ! path=$(command -v "$swift"); then
  echo "CaptureKit needs Swift $needed or newer, and there is no '$swift' on PATH. $get" >&2
  exit 1
fi
found=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
if [ -z "$found" ] || [ "$(printf '%s\n%s\n' "$needed" "$found" | sort -V | head -n 1)" != "$needed" ]; then
  echo "CaptureKit needs Swift $needed or newer (Package.swift's tools version; Hummingbird, swift-nio and the other dependencies need it too), and '$path' is Swift ${found:-of an unknown version}. $get" >&2
  exit 1
fi
