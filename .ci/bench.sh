#!/usr/bin/env bash
# make bench: Spyglass side by side with its competitors, as ratios measured
# in the same run (these machines are shared and noisy: compare ratios, not
# absolute times).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/spyglass}
# Runs of each scale benchmark (issue #17): figures are min–median–max.
runs=${BENCH_RUNS:-3}

# minmedmax groups the lines of `go test -bench -count N` by benchmark and
# prints each figure it reported as min–median–max over the N runs
# (ns/op, meaningless at -benchtime 1x, left out).
minmedmax() {
	awk '/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
		for (i = 3; i < NF; i += 2) {
			u = $(i + 1); if (u == "ns/op") continue
			k = name SUBSEP u
			if (!(k in cnt)) { units[name] = units[name] " " u }
			v[k, ++cnt[k]] = $i + 0
		}
	}
	END {
		for (j = 1; j <= nn; j++) {
			name = names[j]; printf "%s\n", name
			m = split(units[name], us, " ")
			for (x = 1; x <= m; x++) {
				k = name SUBSEP us[x]; c = cnt[k]
				for (a = 1; a <= c; a++) s[a] = v[k, a]
				for (a = 2; a <= c; a++) { t = s[a]; b = a - 1; while (b > 0 && s[b] > t) { s[b + 1] = s[b]; b-- }; s[b + 1] = t }
				printf "    %-20s %.6g – %.6g – %.6g\n", us[x], s[1], s[int((c + 1) / 2)], s[c]
			}
		}
	}'
}

echo "== CLI: Spyglass vs the official MCP Inspector's --cli (targets: HTTP wall <= 0.05, memory <= 0.25; stdio wall <= 0.4;"
echo "   10,000 tools (issue #17): wall and memory ratios printed, memory being the larger of client and server on both sides)"
go run ./core/internal/benchcmp -spyglass "$bin"

echo
echo "== Recording overhead: 10,000 tools/call round trips, Spyglass's recorded session vs a bare mcp-go client (target ratio <= 1.10)"
go test -run '^$' -bench 'RecordingOverhead' -benchtime 10000x ./core/internal/benchcmp | grep -E '^Benchmark'
go test -run '^$' -bench 'BenchmarkCallTool' -benchtime 10000x ./core/session | grep -E '^Benchmark'

echo
echo "== Tap: 10,000 tools/call echo round trips to server-everything over stdio, direct vs through spyglass --tap recording a trace, in 10 interleaved rounds;"
echo "   min – median – max over the rounds of the wall ratio (goal: median <= 1.05) and the CPU ratio (the server and the tap against the server alone);"
echo "   tap-cpu-µs/call is the tap's own CPU per call, what copying and recording cost;"
echo "   floor-* is a bare Go relay (blocking read/write both ways, nothing recorded) taking the same turns: what two extra pipe hops cost here,"
echo "   tap/floor-wall-median how far the tap is from it; *-sleeps/call counts the threads' voluntary context switches per call"
go test -run '^$' -bench 'BenchmarkTapEcho' -benchtime 10000x ./core/tap | grep -E '^Benchmark'

echo
echo "== Schema forms: field model vs json.Unmarshal (targets: 500 properties <= 3x, 5000 vs 500 <= 12x)"
go test -run '^$' -bench 'BenchmarkSchema' -count 3 ./core/schemaform | grep -E '^Benchmark'

echo
echo "== Event log: a million events into a 100,000-event ring with a listener"
go test -run '^$' -bench 'Append|After|Match' -benchtime 1s ./core/events | grep -E '^Benchmark'

echo
echo "== Scale (issue #17), min – median – max over $runs runs:"
echo "== Retention: 1,000,000 events of a recorded server-everything session (payload sizes as recorded) into core/events.Log, default options"
echo "   (256 MB bound; older events sealed and snappy-compressed, spilled to a file past the bound). goal: kept-events = 1,000,000 (dropped 0)"
echo "   within 256 MB: bound-MB is what the log counts against its bound, heap-MB the heap it holds after a GC; ns/event is the append."
echo "== Search: the inspector's search (Log.Search over titles and payloads, sealed chunks included) vs bytes.Contains over the same payloads"
echo "   held in memory, for a query found nowhere. goal: ratio <= 3"
go test -run '^$' -bench 'RetentionMillion|SearchMillion' -benchtime 1x -count "$runs" ./core/events | minmedmax

echo
echo "== Ingest: the demo server's flood (200,000 notifications/message) into a session over stdio (a child process) and Streamable HTTP."
echo "   goals: notif/s >= 10,000 sustained; recorded == sent (none lost); heap-cleared-MB back at heap-before-MB after Clear."
echo "== Huge payloads: one 50 MB tool result (demo get_embedded_resource size) read, recorded and decoded. goal: peak-rss-x <= 3 (peak memory / payload)"
echo "== Soak: connect / call / disconnect cycles against the demo server. goal: goroutines, fds and heap at the end as at the start"
echo "== Thousand tools: tools/list of 10,000 tools from a TypeScript SDK v2 server through a session: list-ms in all, server-ms the request's round trip"
echo "   as the log measured it (the Node server building and writing its answer), client-ms the rest, ours. goal (the window's first step): client-ms <= 100"
go test -run '^$' -bench 'BenchmarkFlood|BenchmarkHugeToolResult|BenchmarkSoak|BenchmarkListManyTools' -benchtime 1x -count "$runs" ./core/session | minmedmax

echo
echo "== Huge payloads and thousand tools in the window (Fyne's test driver over the real screens; -ms wall, -cpu-ms the CPU the process spent):"
echo "   a 50 MB result's card (its preview) and its inspector pane (the lazy tree): time and bytes allocated per payload byte (alloc-x, on top of core's peak-rss-x above)"
echo "   10,000 tools: list (grouped, filtered, laid out; core's tools/list is list-ms above), search (one query; keystroke-max-ms typing it), open form. goal: each <= 100 ms"
echo "   10,000 resources (res-): list (grouped by URI folder, filtered, laid out), search (one query; res-keystroke-max-ms typing it), open the last. goal: each <= 100 ms"
out=$(mktemp)
if ! go test -run '^$' -bench 'BenchmarkHugeResultWindow|BenchmarkThousandTools|BenchmarkThousandResources' -benchtime 1x -count "$runs" ./ui >"$out"; then
	cat "$out"
	rm -f "$out"
	exit 1
fi
minmedmax <"$out"
rm -f "$out"

echo
echo "== Ingest into the window (issue #17): the demo server's flood, 10,000 notifications/s for ${BENCH_FLOOD_SECONDS:-10} s (BENCH_FLOOD_SECONDS=60: the issue's full run),"
echo "   into a window under Xvfb connected over stdio and over Streamable HTTP, measured by the window's own benchmark mode (SPYGLASS_BENCH=ui-latency)."
echo "   goals: p99-ms <= 50 (the UI thread's scheduling delay: how late a callback posted with fyne.Do every 10 ms runs); recorded == sent;"
echo "   memory back at rss-before-MB after the inspector's Clear: settled/before 1.0, read ${BENCH_FLOOD_SETTLE:-80} s after Clear (BENCH_FLOOD_SETTLE), once Fyne's caches"
echo "   have freed what the flood drew (they keep each renderer, canvas object and text measurement a minute after its last use); cleared/before is the"
echo "   same read at once; live-*-MB are the Go heap's live objects (the in-use heap also counts free room in spans a few survivors keep)."
echo "   rss-before-MB is read after a warm-up flood of 1,000 drawn and cleared, so that the font faces and caches any use of the"
echo "   window fills once are in both; ui-cpu/s is the UI thread's CPU per second of flood"
echo "== The app itself: cold start to the first drawn frame (first-frame-ms, from exec) and PSS of every process with the demo server connected over HTTP,"
echo "   against the official inspector's web mode (its Node server + a headless Chromium tab that connects on load; their-first-paint-ms from starting Node,"
echo "   their-browser-paint-ms from starting Chromium). goals: pss-ratio <= 0.25; frame/paint < 1 (our first frame sooner than their page's first paint)"
# the output is kept so that a failing run shows why (minmedmax keeps only the figures)
out=$(mktemp)
if ! SPYGLASS_BIN="$(realpath "$bin")" go test -run '^$' -bench 'BenchmarkUIFlood|BenchmarkAppItself' -benchtime 1x -count "$runs" -timeout 60m ./core/internal/benchcmp >"$out"; then
	cat "$out"
	rm -f "$out"
	exit 1
fi
minmedmax <"$out"
rm -f "$out"
