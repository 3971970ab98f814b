# Reads initialize and never answers.
. "$(dirname "$0")/lib.sh"
request
hang
