# Starts the answer to tools/list and never ends the line.
. "$(dirname "$0")/lib.sh"
while :; do
	request
	case $METHOD in
	tools/list)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big","description":"' "$ID"
		tr '\0' x </dev/zero &
		echo $! >>"$PIDS"
		wait
		;;
	*) answer ;;
	esac
done
