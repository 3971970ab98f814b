package mcpresult

import (
	"bytes"
	"encoding/base64"
	"runtime"
	"strings"
	"testing"
)

// TestDecodeAliasesRaw: the decoded result's raw parts are windows on the
// result's bytes, not copies (issue #17: a 50 MB result was held three
// times); should encoding/json ever hand UnmarshalJSON a copy, this fails.
func TestDecodeAliasesRaw(t *testing.T) {
	raw := []byte(`{"content":[{"type":"text","text":"hi"}],"structuredContent":{"a":1}}`)
	r := DecodeToolResult(raw)
	if len(r.Problems) > 0 || len(r.Content) != 1 || r.Content[0].Text != "hi" {
		t.Fatalf("decoded %+v", r)
	}
	raw[bytes.Index(raw, []byte(`"a"`))+1] = 'b'
	raw[bytes.Index(raw, []byte(`"hi"`))+1] = 'H'
	if string(r.StructuredContent) != `{"b":1}` {
		t.Errorf("structuredContent %s is a copy, want a window on the result", r.StructuredContent)
	}
	if !bytes.Contains(r.Content[0].Raw, []byte(`"Hi"`)) {
		t.Errorf("the block's Raw %s is a copy, want a window on the result", r.Content[0].Raw)
	}
	if cap(r.StructuredContent) != len(r.StructuredContent) {
		t.Errorf("a window must not reach past its value (cap %d, len %d)", cap(r.StructuredContent), len(r.StructuredContent))
	}
}

// TestDecodeHugeResultOnce: decoding a result with an 8 MB embedded text
// (with escapes) and an 8 MB blob allocates the blob's bytes once (3/4 of
// its base64) and no copy of the text, which is checked and measured and
// decoded only when asked for (encoding/json made two copies, and an
// eager decode one), plus a small baseline: the blocks, the envelope and
// the base64 text are not copied (each would add 8 MB).
func TestDecodeHugeResultOnce(t *testing.T) {
	const n = 8 << 20
	text := strings.Repeat("line of text\n", n/13+1)[:n]
	blob := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1, 2, 3}, n/4))
	raw := []byte(`{"content":[{"type":"resource","resource":{"uri":"a://t","mimeType":"text/plain","text":"` +
		strings.ReplaceAll(text, "\n", `\n`) + `"}},{"type":"resource","resource":{"uri":"a://b","blob":"` + blob + `"}}]}`)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := DecodeToolResult(raw)
	runtime.ReadMemStats(&after)
	if len(r.Problems) > 0 || len(r.Content) != 2 || r.Content[0].TextLen() != n || len(r.Content[1].Data) != 3*(n/4) {
		t.Fatalf("decoded %d blocks, problems %v", len(r.Content), r.Problems)
	}
	want := uint64(len(r.Content[1].Data) + 1<<20)
	if got := after.TotalAlloc - before.TotalAlloc; got > want {
		t.Errorf("decoding allocated %d bytes, want at most %d (the blob's bytes once, no copy of the text)", got, want)
	}
	if r.Content[0].FullText() != text {
		t.Error("the text decoded on demand differs from the text sent")
	}
}
