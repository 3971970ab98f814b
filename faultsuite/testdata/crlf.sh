# Ends every line with CRLF, as a server on Windows might.
EOL='\r\n'
. "$(dirname "$0")/lib.sh"
serve
