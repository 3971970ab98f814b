# Sends $COUNT notifications/message with $BYTES bytes of data each
# before it answers tools/list (a server flooding its log).
. "$(dirname "$0")/lib.sh"
COUNT=${COUNT:-10000}
BYTES=${BYTES:-10}
while :; do
	request
	if [ "$METHOD" != tools/list ]; then
		answer
		continue
	fi
	if [ "$BYTES" -le 1000 ]; then
		data=$(head -c "$BYTES" /dev/zero | tr '\0' x)
		yes "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"$data\"}}" | head -n "$COUNT"
	else
		i=0
		while [ $i -lt "$COUNT" ]; do
			printf '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"'
			head -c "$BYTES" /dev/zero | tr '\0' x
			printf '"}}\n'
			i=$((i + 1))
		done
	fi
	answer
done
