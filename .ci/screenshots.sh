#!/bin/sh
# Takes the README's screenshots of the real window under Xvfb, against the
# built-in demo server: the server list (one server connected, one failed),
# the Tools screen with a result, the inspector with an event's details.
# Usage: .ci/screenshots.sh [OUTDIR]   (default assets/screenshots)
# The window is driven by a script that only a build with -tags screenshots
# carries (cmd/screenshots.go, ui/automate.go), so this builds its own binary.
set -eu
cd "$(dirname "$0")/.."
out=${1:-assets/screenshots}
# SIZE=1024x700 checks the smallest supported window
size=${SIZE:-1280x800}
mkdir -p "$out"
for tool in xvfb-run import; do
	command -v $tool >/dev/null || { echo "screenshots: $tool is missing: sudo apt-get install -y xvfb imagemagick" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/spyglass
go build -tags screenshots -o "$bin" .
cat >"$work/mcp.json" <<JSON
{
  "mcpServers": {
    "demo": {
      "command": "spyglass",
      "args": ["--demo-server"],
      "env": {"SPYGLASS_DEMO_NOTES_DIR": "$work"}
    },
    "everything": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"]
    },
    "remote-api": {
      "type": "http",
      "url": "http://127.0.0.1:9/mcp"
    }
  }
}
JSON
cat >"$work/run.sh" <<'RUN'
#!/bin/sh
# inside Xvfb: run the app, take a picture whenever it says SHOT name
set -u
"$BIN" --catalog "$WORK/mcp.json" | while IFS= read -r line; do
	case $line in
	"SHOT "*)
		name=${line#SHOT }
		import -window root "$OUT/$name.png"
		echo "screenshots: $OUT/$name.png"
		touch "$WORK/$name.done"
		;;
	DONE) echo "screenshots: done" ;;
	FAILED) echo "screenshots: the app could not reach a state, see above" >&2; exit 1 ;;
	esac
done
RUN
chmod +x "$work/run.sh"
# FLOW=sessions: two recorded runs opened as traces, their diff, a
# collection run, a protocol matrix, a recorded Tools screen and a replay
# (into assets/screenshots by default)
# FLOW=history: the Attempts, History chain, Experimental and tester shots
# (into assets/screenshots by default); Quick Mock answers the sampling loop
flow=${FLOW:-}
if [ "$flow" = history ]; then
	[ $# -ge 1 ] || out=assets/screenshots
	mkdir -p "$out" "$work/config/spyglass"
	cat >"$work/config/spyglass/sampling-profiles.json" <<'JSON'
{"active": "Quick Mock", "profiles": [{"name": "Quick Mock", "provider": "mock", "autoRespond": true,
  "template": "This is a mock LLM response for testing purposes.", "model": "mock-model-1.0", "stopReason": "endTurn", "callTools": true}]}
JSON
fi
# a runtime folder of its own: another Spyglass open on this desktop would
# otherwise take the start over (the single-instance hand-off)
mkdir -p "$work/run" && chmod 700 "$work/run"
LANG=en_US.UTF-8 BIN=$bin WORK=$work OUT=$(cd "$out" && pwd) \
	SPYGLASS_SCREENSHOT_SCRIPT=$work SPYGLASS_SCREENSHOT_SERVERS=demo,remote-api SPYGLASS_SCREENSHOT_SIZE=$size SPYGLASS_SCREENSHOT_FLOW=$flow \
	XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work/run \
	timeout 300 xvfb-run -a -s "-screen 0 ${size}x24" "$work/run.sh"
shots="1-servers 2-tools 3-inspector"
[ "$flow" != history ] || shots="attempts-light history-chain-dark tester-light"
[ "$flow" != sessions ] || shots="7-trace 8-session-diff 9-collection-run 10-protocol-matrix 10-protocol-matrix-light 11-recorded-tools 11-recorded-tools-light 12-replay 12-replay-light"
for f in $shots; do
	[ -s "$out/$f.png" ] || { echo "screenshots: $out/$f.png was not taken" >&2; exit 1; }
done
