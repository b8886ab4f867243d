#!/bin/sh
# deps.sh: install what Pagescope needs to build, run and test on Debian 12 (bookworm).
# Idempotent; uses sudo only when not already root.
set -eu

PACKAGES="
  build-essential pkg-config meson ninja-build
  libglib2.0-dev libglib2.0-bin libcairo2-dev libgtk-4-dev libadwaita-1-dev
  gettext desktop-file-utils appstream groff-base
  xvfb xauth dbus-daemon xdotool imagemagick
  python3 util-linux strace pkexec polkitd libxml2-utils
"

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
  echo "deps.sh: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
