# Answers tools/list inside a batch, next to a notification and members
# that are not objects; the empty batch and a batch of one bare number
# come first.
. "$(dirname "$0")/lib.sh"
while :; do
	request
	case $METHOD in
	tools/list)
		send '[]'
		send '[1]'
		send "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"in a batch\"}},$(tools_result),42,\"x\",null]"
		;;
	*) answer ;;
	esac
done
