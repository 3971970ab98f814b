# Answers initialize, reads notifications/initialized, then never reads
# stdin again (a request bigger than the pipe's buffer blocks the writer).
. "$(dirname "$0")/lib.sh"
request
answer
next
hang
