#!/usr/bin/env bash
# make bench: Spyglass side by side with its competitors, as ratios measured
# in the same run (these machines are shared and noisy: compare ratios, not
# absolute times).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/spyglass}

echo "== CLI: Spyglass vs the official MCP Inspector's --cli (targets: HTTP wall <= 0.05, memory <= 0.25; stdio wall <= 0.4)"
go run ./core/internal/benchcmp -spyglass "$bin"

echo
echo "== Recording overhead: 10,000 tools/call round trips, Spyglass's recorded session vs a bare mcp-go client (target ratio <= 1.10)"
go test -run '^$' -bench 'RecordingOverhead' -benchtime 10000x ./core/internal/benchcmp | grep -E '^Benchmark'
go test -run '^$' -bench 'BenchmarkCallTool' -benchtime 10000x ./core/session | grep -E '^Benchmark'

echo
echo "== Tap: 10,000 tools/call echo round trips to server-everything over stdio, direct vs through spyglass --tap recording a trace (goal: ratio <= 1.05; cpu-ratio is the server and the tap against the server alone)"
go test -run '^$' -bench 'BenchmarkTapEcho' -benchtime 10000x ./core/tap | grep -E '^Benchmark'

echo
echo "== Schema forms: field model vs json.Unmarshal (targets: 500 properties <= 3x, 5000 vs 500 <= 12x)"
go test -run '^$' -bench 'BenchmarkSchema' -count 3 ./core/schemaform | grep -E '^Benchmark'

echo
echo "== Event log: a million events into a 100,000-event ring with a listener"
go test -run '^$' -bench 'Append|After|Match' -benchtime 1s ./core/events | grep -E '^Benchmark'
