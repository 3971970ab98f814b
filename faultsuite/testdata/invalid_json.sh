# Prints broken JSON and bytes that are not UTF-8 before every answer.
. "$(dirname "$0")/lib.sh"
while :; do
	request
	printf '{"jsonrpc":"2.0","id":\n'
	printf 'not json \377\376 at all\n'
	printf '[{"jsonrpc":"2.0","method":"x"},\n'
	printf '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bad \377 byte"}}\n'
	answer
done
