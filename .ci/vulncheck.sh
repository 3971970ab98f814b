#!/usr/bin/env bash
# govulncheck over the whole module against a local copy of the Go
# vulnerability database (the Makefile builds it from a pinned snapshot of
# golang.org/x/vulndb: these machines reach only the module proxy).
#
#   .ci/vulncheck.sh GOVULNCHECK DBDIR
#
# Fails when code we build calls into a vulnerable module version: bump the
# module (go get MODULE@FIXED). Advisories in the Go standard library alone
# are printed but do not fail the run: they are fixed by a newer Go release,
# which is go.mod's toolchain line (raise it to the release named under
# "Fixed in"); the Makefile builds with that toolchain.
set -uo pipefail
bin="${1:?usage: $0 GOVULNCHECK DBDIR}"
db="${2:?usage: $0 GOVULNCHECK DBDIR}"
out=$("$bin" -db "file://$db" ./... 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	echo "govulncheck: no vulnerable code is called"
	exit 0
fi
if [ $rc -ne 3 ]; then
	echo "$out"
	echo "govulncheck: failed to run (exit $rc)" >&2
	exit $rc
fi
# One line per advisory (its id and title, where found, where fixed); the
# call traces are left to 'govulncheck -show traces' run by hand.
grep -E '^Vulnerability #|^[[:space:]]+(Found in|Fixed in|More info):' <<<"$out"
# "Found in: MODULE@VERSION" lines; the standard library's versions are go1.x.
modules=$(grep -E '^[[:space:]]+Found in: ' <<<"$out" | grep -vE '@go1\.' | sort -u)
if [ -n "$modules" ]; then
	echo "govulncheck: code we build calls vulnerable module versions:" >&2
	echo "$modules" >&2
	exit 1
fi
echo "govulncheck: only the Go standard library of $(go env GOVERSION) is affected;"
echo "  the fix is a newer Go release (see 'Fixed in' above) — not a failure of this change."
exit 0
