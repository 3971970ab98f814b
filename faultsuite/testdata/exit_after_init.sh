# Answers initialize, then exits when the next request arrives.
. "$(dirname "$0")/lib.sh"
request
answer
request
exit 0
