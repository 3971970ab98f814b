# Prints lines that are not JSON-RPC (a banner, log lines, bare JSON
# values, blank lines) before every answer; the answers themselves are
# right.
. "$(dirname "$0")/lib.sh"
echo 'my-server v0.1 starting...'
while :; do
	request
	echo 'INFO handling request'
	echo
	echo '   '
	echo '42'
	echo 'null'
	echo '"a string"'
	echo '{"not":"json-rpc"}'
	answer
done
