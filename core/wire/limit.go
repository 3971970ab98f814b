package wire

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// DefaultMaxMessageSize bounds one message read from a server (a stdio
// line, an SSE event's data) when the config sets no MaxMessageSize.
const DefaultMaxMessageSize = 256 << 20

// headBytes is how much of an oversize message is kept for the record.
const headBytes = 1 << 10

func maxSize(n int) int {
	if n <= 0 {
		return DefaultMaxMessageSize
	}
	return n
}

// tooLongError is a line longer than the limit; it was read through its
// end and dropped, only its first bytes are kept.
type tooLongError struct {
	size, limit int
	head        []byte
	unread      bool // the rest of the message was not read: size is what was
}

func (e *tooLongError) Error() string {
	return fmt.Sprintf("message of %s bytes exceeds the %d-byte limit", e.sizeText(), e.limit)
}

func (e *tooLongError) sizeText() string {
	if e.unread {
		return fmt.Sprintf("more than %d", e.limit)
	}
	return fmt.Sprint(e.size)
}

// readLine reads one line (with its '\n', like bufio.Reader.ReadBytes)
// of at most limit bytes before its line ending, holding no more than
// that in memory: a longer line is consumed through its '\n' and returned
// as a *tooLongError. A line longer than br's buffer is gathered in a
// stage and moved into a line allocated at its exact size, so that it
// costs its own size and a stage chunk, not twice its size.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var st stage
	defer st.free()
	var head []byte
	n, over := 0, false
	for {
		frag, err := br.ReadSlice('\n')
		n += len(frag)
		if !over && n > limit+2 { // 2: room for "\r\n"
			over = true
			head = st.head(headBytes)
			st.free()
		}
		if over {
			if len(head) < headBytes {
				head = append(head, frag[:min(len(frag), headBytes-len(head))]...)
			}
		} else if err == bufio.ErrBufferFull {
			st.write(frag)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if !over {
			line := make([]byte, n)
			copy(line[st.moveTo(line):], frag)
			if content := len(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})); content > limit {
				return nil, &tooLongError{size: content, limit: limit, head: line[:min(len(line), headBytes)]}
			}
			return line, err
		}
		size := n
		if err == nil {
			size-- // the '\n'
		}
		return nil, &tooLongError{size: size, limit: limit, head: head}
	}
}

// tooLong records a message dropped for its size as invalid: its size,
// the limit and its first bytes.
func (r recorder) tooLong(e *tooLongError) {
	r.add(events.Event{Kind: events.KindInvalid, Size: e.size,
		Text: fmt.Sprintf("message of %s bytes exceeds the %d-byte limit (the server's maxMessageSize) and was skipped; it began: %s", e.sizeText(), e.limit, e.head)})
}
