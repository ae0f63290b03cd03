#!/usr/bin/env bash
# Installs the apt packages scripts/apt-packages.txt lists for this Debian release that are
# missing, then checks that a Swift toolchain new enough for the package is on PATH.
#   scripts/install-deps.sh [--with ci]      (--with ci: also what .ci/run needs)
#   scripts/install-deps.sh --list RELEASE   (prints the names for RELEASE, installs nothing)
# Uses sudo when not root. Installs nothing (and needs no network) when all are present.
# SWIFT names the swift command to check (make passes its own; default: swift).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
extra=""
list=""
case "${1:-}" in
  "") ;;
  --with) [ "${2:-}" = ci ] || { echo "install-deps: --with takes 'ci', not '${2:-}'" >&2; exit 2; }; extra=ci ;;
  --list) [ -n "${2:-}" ] || { echo "install-deps: --list needs a release (bookworm, trixie)" >&2; exit 2; }; list=$2 ;;
  *) echo "install-deps: unknown option '$1'; valid: --with ci, --list RELEASE" >&2; exit 2 ;;
esac

# The release's code name; a derivative names the Debian release it follows (Raspberry Pi OS
# uses Debian's own names). Any other release gets the newest release's names.
release=${list:-$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")}
case "$release" in
  bookworm|trixie) ;;
  *) echo "install-deps: release '${release:-unknown}' is not Debian 12 or 13; using Debian 13's package names" >&2
     release=trixie ;;
esac

wanted=()
while read -r package releases; do
  [ -n "$package" ] || continue
  if [ -z "$releases" ] || [[ " $releases " == *" $release "* ]] || { [ -n "$extra" ] && [[ " $releases " == *" $extra "* ]]; }; then
    wanted+=("$package")
  fi
done < <(sed -e 's/#.*//' "$here/apt-packages.txt")
if [ -n "$list" ]; then printf '%s\n' "${wanted[@]}"; exit 0; fi

missing=()
for package in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

"$here/check-swift.sh"
