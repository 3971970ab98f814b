#!/usr/bin/env bash
# Runs a command inside a throwaway Secret Service: a private D-Bus
# session bus (dbus-run-session) with a gnome-keyring daemon whose keyring
# file lives in a fresh temporary XDG_DATA_HOME, unlocked with a random
# password. The daemon is stopped by its PID and the folder removed when
# the command ends; the command's exit status is returned.
#
#   .ci/keyring.sh go test ./core/secrets/keyringtest/
#
# Needs the Debian packages dbus and gnome-keyring (not dbus-x11).
set -euo pipefail

if [ $# -eq 0 ]; then
	echo "usage: $0 COMMAND [ARG...]" >&2
	exit 2
fi
for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
	if ! command -v "$tool" >/dev/null; then
		echo "keyring.sh: $tool is missing (apt-get install -y dbus gnome-keyring)" >&2
		exit 2
	fi
done

if [ -z "${SPYGLASS_KEYRING_INNER:-}" ]; then
	export SPYGLASS_KEYRING_INNER=1
	exec dbus-run-session -- "$0" "$@"
fi

# Inside the private session bus from here on.
data="$(mktemp -d "${TMPDIR:-/tmp}/spyglass-keyring.XXXXXX")"
export XDG_DATA_HOME="$data"
export XDG_RUNTIME_DIR="$data/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
pid=""
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$data"
}
trap cleanup EXIT

password="$(head -c 18 /dev/urandom | base64)"
printf '%s' "$password" | gnome-keyring-daemon --foreground --unlock --components=secrets >"$data/daemon.log" 2>&1 &
pid=$!

ready=""
for _ in $(seq 1 100); do
	if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
		ready=1
		break
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		break
	fi
	sleep 0.1
done
if [ -z "$ready" ]; then
	echo "keyring.sh: gnome-keyring-daemon did not come up; its log:" >&2
	cat "$data/daemon.log" >&2 || true
	exit 1
fi

set +e
"$@"
status=$?
set -e
exit $status
