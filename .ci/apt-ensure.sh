#!/usr/bin/env bash
# Installs the named Debian packages that are missing, or, without root,
# prints the one command the user must run. Quiet when all are present.
set -euo pipefail
missing=()
if ! command -v dpkg-query >/dev/null; then
  echo "apt-ensure: not a Debian/Ubuntu system; make sure these are installed: $*" >&2
  exit 0
fi
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; else
    echo "Missing system packages. Run this once, then try again:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi
echo "Installing ${missing[*]}"
${SUDO:-} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}"
