# A well-behaved server whose serverInfo name is not valid UTF-8.
NAME=$(printf 'bad\377\376name')
. "$(dirname "$0")/lib.sh"
serve
