# Answers initialize, then stops halfway through the answer to tools/list.
. "$(dirname "$0")/lib.sh"
request
answer
request
printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"ec' "$ID"
hang
