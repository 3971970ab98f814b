package wire

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// TestRedactLargeMessageNoCopy: a large message that holds a hint word
// ("password" in a description) but nothing to mask is returned as it
// is, without a copy (issue #11.6: it used to be copied twice as a
// string); one that holds a secret is masked.
func TestRedactLargeMessageNoCopy(t *testing.T) {
	r := NewRedactor("s3cret-value-1234")
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"reset your password here ` + strings.Repeat("x", 8<<20) + `"}}`)
	r.JSON(raw) // compiles the patterns
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := r.JSON(raw)
	runtime.ReadMemStats(&after)
	if &out[0] != &raw[0] || len(out) != len(raw) {
		t.Fatal("a message with nothing to mask was copied")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("masking nothing in an 8 MB message allocated %d bytes, want no copy of it", n)
	}
	withSecret := []byte(`{"a":"s3cret-value-1234","access_token":"abc","b":"Bearer abcdefgh"}`)
	got := string(r.JSON(withSecret))
	if want := `{"a":"` + Mask + `","access_token":"` + Mask + `","b":"Bearer ` + Mask + `"}`; got != want {
		t.Errorf("JSON(%s) = %s, want %s", withSecret, got, want)
	}
	if !bytes.Contains(withSecret, []byte("s3cret")) {
		t.Error("JSON modified its input")
	}
}
