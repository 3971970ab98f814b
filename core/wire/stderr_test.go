package wire

import (
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// A huge stderr line is recorded cut to maxStderrLine (marked truncated,
// with its full size), and '\r' progress bars are split into readable
// lines.
func TestStdioStderrBounded(t *testing.T) {
	rec := newMemRec()
	startStdio(t, helperConfig(t, "stderrflood"), rec)
	rec.waitFor(t, "the line after the progress bar", func(e events.Event) bool { return e.Text == "done" })
	var texts []string
	for _, e := range rec.ofKind(events.KindStderr) {
		if strings.HasPrefix(e.Text, "yyyy") {
			if len(e.Text) > maxStderrLine+100 || !strings.Contains(e.Text, "truncated") || e.Size != 1<<20 {
				t.Fatalf("the 1 MiB line was recorded as %d bytes (size %d), ending %q", len(e.Text), e.Size, e.Text[len(e.Text)-min(60, len(e.Text)):])
			}
			texts = append(texts, "<long>")
			continue
		}
		texts = append(texts, e.Text)
	}
	if got, want := strings.Join(texts, "|"), "<long>|10%|50%|100%|done"; got != want {
		t.Fatalf("stderr lines %q, want %q", got, want)
	}
}
