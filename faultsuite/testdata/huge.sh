# Answers tools/list with one line of $SIZE bytes and more (a tool whose
# description is $SIZE bytes long).
. "$(dirname "$0")/lib.sh"
while :; do
	request
	case $METHOD in
	tools/list)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big","description":"' "$ID"
		head -c "$SIZE" /dev/zero | tr '\0' x
		printf '","inputSchema":{"type":"object"}}]}}\n'
		;;
	*) answer ;;
	esac
done
