#!/usr/bin/env bash
# Lists every Go fuzz target as ./package/dir:FuzzName, one per line, and
# fails when it finds none (a `make fuzz` that fuzzes nothing must not pass).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=$(git ls-files '*_test.go' | while read -r f; do
  { grep -oE '^func Fuzz[A-Za-z0-9_]+\(' "$f" || true; } | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | while read -r name; do
    echo "./$(dirname "$f"):$name"
  done
done | sort -u)
if [ -z "$targets" ]; then
  echo "fuzz-targets.sh: no fuzz target found (no 'func FuzzXxx(' in any tracked *_test.go)" >&2
  exit 1
fi
echo "$targets"
