# Reads initialize and exits without an answer.
. "$(dirname "$0")/lib.sh"
request
echo 'fatal: cannot open database' >&2
exit 1
