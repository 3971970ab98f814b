#!/usr/bin/env bash
# make bench: side-by-side figures against the official inspector, then the
# Go benchmarks (recording overhead, event log, schema forms).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/spyglass}
go run ./core/internal/benchcmp -spyglass "$bin"
echo
echo "Go benchmarks (ratios are computed inside each benchmark's report):"
go test -run '^$' -bench . -benchtime 2s -benchmem ./core/... 2>&1 | grep -E '^(Benchmark|ok|FAIL|---)' 
