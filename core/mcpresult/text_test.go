package mcpresult

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// unquote decodes as encoding/json does, and rejects what it rejects.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`""`, `"hi"`, `"a\nb\t\"c\\d\/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`,
		"\"\xff\xfe ok\"", `"caf\u00E9"`, `"\x"`, `"a"b"`, "\"a\nb\"", `"\u12"`, `"é"`, `"\`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, q []byte) {
		var want string
		werr := json.Unmarshal(q, &want)
		isString := len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' // a span is the value alone
		got, ok := unquote(q)
		if werr != nil || !isString {
			if ok && isString {
				t.Fatalf("unquote(%q) = %q, encoding/json: %v", q, got, werr)
			}
			return
		}
		if !ok || got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json %q", q, got, ok, want)
		}
	})
}

// A big text is one copy at most: none without escapes (it is the
// message's bytes), one with them; encoding/json made two.
func TestDecodeTextCopies(t *testing.T) {
	body := strings.Repeat("Spyglass demo server line ", 40_000)
	for _, tc := range []struct {
		name    string
		text    string
		aliases bool
	}{{"plain", body, true}, {"escaped", strings.ReplaceAll(body, "line ", "line\n"), false}} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := json.Marshal(tc.text)
			raw := []byte(`{"type":"text","text":` + string(q) + `}`)
			var c Content
			allocs := testing.AllocsPerRun(3, func() { c, _ = DecodeContent(raw, "/content/0") })
			if c.Text != tc.text {
				t.Fatalf("text of %d bytes, want %d", len(c.Text), len(tc.text))
			}
			p := uintptr(unsafe.Pointer(unsafe.StringData(c.Text)))
			inRaw := p >= uintptr(unsafe.Pointer(&raw[0])) && p < uintptr(unsafe.Pointer(&raw[0]))+uintptr(len(raw))
			if inRaw != tc.aliases {
				t.Fatalf("text within the message: %v, want %v", inRaw, tc.aliases)
			}
			ms0 := allocBytes()
			c, _ = DecodeContent(raw, "/content/0")
			ms1 := allocBytes()
			if limit := uint64(len(tc.text)/8 + 64<<10); !tc.aliases {
				limit += uint64(len(tc.text))
				if ms1-ms0 > limit {
					t.Fatalf("allocated %d bytes for a %d-byte text (%v allocs), want at most one copy", ms1-ms0, len(tc.text), allocs)
				}
			} else if ms1-ms0 > limit {
				t.Fatalf("allocated %d bytes for a %d-byte text without escapes, want no copy", ms1-ms0, len(tc.text))
			}
		})
	}
}

func allocBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}
