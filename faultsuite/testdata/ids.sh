# Answers ids nobody asked for, answers the request's id as a string
# (which is another id), then answers every request twice.
. "$(dirname "$0")/lib.sh"
while :; do
	request
	send "{\"jsonrpc\":\"2.0\",\"id\":9999,\"result\":{}}"
	send "{\"jsonrpc\":\"2.0\",\"id\":\"$ID\",\"result\":{}}"
	send "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"
	answer
	answer
done
