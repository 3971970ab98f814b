# Helpers for the hostile stdio servers of the fault suite, sourced by
# each of them. The first argument of every server is a file that it (and
# every process it starts) appends its PID to, so the suite can check
# that nothing is left running afterwards.
PIDS=$1
echo $$ >>"$PIDS"
EOL=${EOL:-'\n'}

# send writes one line (the message in $1) to stdout, ended by $EOL.
send() { printf "%s$EOL" "$1"; }

# next reads one client message into LINE, ID and METHOD; the server
# exits quietly when the client closes stdin.
next() {
	IFS= read -r LINE || exit 0
	ID=$(printf '%s\n' "$LINE" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
	METHOD=$(printf '%s\n' "$LINE" | sed -n 's/.*"method":"\([^"]*\)".*/\1/p')
}

# request reads client messages until one is a request (has an id).
request() {
	next
	while [ -z "$ID" ]; do next; done
}

init_result() {
	echo "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"${NAME:-hostile}\",\"version\":\"1\"}}}"
}
tools_result() {
	echo "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"}}}}]}}"
}
call_result() {
	echo "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}"
}

# answer sends the well-behaved answer to the request just read.
answer() {
	case $METHOD in
	initialize) send "$(init_result)" ;;
	tools/list) send "$(tools_result)" ;;
	tools/call) send "$(call_result)" ;;
	ping) send "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{}}" ;;
	*) send "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}" ;;
	esac
}

# serve answers every further request as a well-behaved server would.
serve() {
	while :; do
		request
		answer
	done
}

# hang blocks forever without reading stdin (a child sleep, recorded in
# $PIDS, that the client must stop with the whole process group).
hang() {
	sleep 1000 &
	echo $! >>"$PIDS"
	wait
}
