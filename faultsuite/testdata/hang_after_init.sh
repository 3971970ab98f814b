# Answers initialize, then never answers anything again.
. "$(dirname "$0")/lib.sh"
request
answer
request
hang
