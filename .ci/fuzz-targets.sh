#!/usr/bin/env bash
# Lists every Go fuzz target as ./package/dir:FuzzName, one per line.
set -uo pipefail
cd "$(dirname "$0")/.."
git ls-files '*_test.go' | while read -r f; do
  { grep -oE '^func Fuzz[A-Za-z0-9_]+\(' "$f" || true; } | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | while read -r name; do
    echo "./$(dirname "$f"):$name"
  done
done | sort -u
