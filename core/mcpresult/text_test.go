package mcpresult

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
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
		// the counting pass that checks and measures a lazy text agrees
		var cok bool
		counter := unquoter{count: true}
		if in, qok := quoted(q); qok {
			_, cok = counter.run(in, -1)
		}
		if werr != nil || !isString {
			if ok && isString {
				t.Fatalf("unquote(%q) = %q, encoding/json: %v", q, got, werr)
			}
			if cok && isString {
				t.Fatalf("the counting pass took %q, encoding/json: %v", q, werr)
			}
			return
		}
		if !ok || got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json %q", q, got, ok, want)
		}
		if !cok || counter.n != len(want) {
			t.Fatalf("the counting pass over %q: %d bytes, %v; want %d", q, counter.n, cok, len(want))
		}
		// a head decodes a prefix of the text, at least as long as asked
		c := Content{lazy: span(q), textLen: len(want)}
		for _, n := range []int{0, 1, 3, len(want) / 2, len(want)} {
			h := c.TextHead(n)
			if !strings.HasPrefix(want, h) || len(h) < min(n, len(want)) || len(h) > n+utf8.UTFMax-1 {
				t.Fatalf("TextHead(%d) of %q = %q, want a prefix of %q of %d bytes or a character more", n, q, h, want, n)
			}
		}
		if c.FullText() != want || c.TextLen() != len(want) {
			t.Fatalf("FullText of %q = %q", q, c.FullText())
		}
	})
}

// A big text is one copy at most: none without escapes (it is the
// message's bytes), one with them; encoding/json made two. (Beyond
// LazyText, one with escapes is decoded on demand: TestDecodeLazyText.)
func TestDecodeTextCopies(t *testing.T) {
	body := strings.Repeat("Spyglass demo server line ", 36_000)
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
			if c.Text != tc.text || c.TextLen() != len(tc.text) || c.FullText() != tc.text {
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

// A text beyond LazyText with escapes is checked and measured when the
// result is decoded, without a copy; its head decodes only itself, and
// the whole text comes on demand (issue #17: the window shows 64 KB of a
// 50 MB text that was decoded whole and held beside the message).
func TestDecodeLazyText(t *testing.T) {
	text := strings.Repeat(`Spyglass demo server\tline \u00e9\n`, 100_000) // escaped JSON
	raw := []byte(`{"type":"text","text":"` + text + `"}`)
	var want string
	if err := json.Unmarshal([]byte(`"`+text+`"`), &want); err != nil {
		t.Fatal(err)
	}
	ms0 := allocBytes()
	c, ps := DecodeContent(raw, "/content/0")
	ms1 := allocBytes()
	if len(ps) > 0 || c.Text != "" || c.TextLen() != len(want) {
		t.Fatalf("problems %v, Text of %d bytes, TextLen %d; want a lazy text of %d", ps, len(c.Text), c.TextLen(), len(want))
	}
	if got := ms1 - ms0; got > 64<<10 {
		t.Fatalf("decoding allocated %d bytes, want no copy of the %d-byte text", got, len(want))
	}
	h := c.TextHead(64 << 10)
	ms2 := allocBytes()
	if !strings.HasPrefix(want, h) || len(h) < 64<<10 || ms2-ms1 > 80<<10 {
		t.Fatalf("TextHead(64 KB): %d bytes (a prefix: %v), %d allocated", len(h), strings.HasPrefix(want, h), ms2-ms1)
	}
	if c.FullText() != want {
		t.Fatal("FullText differs from the text sent")
	}
	// one escape, then a long plain run: the head still stops at its size
	long := `\t` + strings.Repeat("a", 2*LazyText)
	c, ps = DecodeContent([]byte(`{"type":"text","text":"`+long+`"}`), "/content/0")
	if h := c.TextHead(64 << 10); len(ps) > 0 || c.TextLen() != 2*LazyText+1 || len(h) != 64<<10 {
		t.Fatalf("TextHead(64 KB) of a text with one escape: %d bytes (problems %v, TextLen %d)", len(h), ps, c.TextLen())
	}
	// a malformed big text is a problem at once, as a small one is
	bad := []byte(`{"type":"text","text":"` + text + `\x"}`)
	if c, ps := DecodeContent(bad, "/content/0"); len(ps) == 0 || c.TextLen() != 0 {
		t.Fatalf("a malformed %d-byte text: problems %v, TextLen %d", len(bad), ps, c.TextLen())
	}
}

func allocBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// TestTextHeadNegative: a head of fewer than no bytes is empty, for a
// plain text and a lazy one alike (a plain text panicked).
func TestTextHeadNegative(t *testing.T) {
	for _, raw := range []string{`{"type":"text","text":"plain"}`, `{"type":"text","text":"a\n` + strings.Repeat("b", 2<<20) + `"}`} {
		var c Content
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatal(err)
		}
		if got := c.TextHead(-1); got != "" {
			t.Errorf("TextHead(-1) of a %d-byte text = %d bytes, want none", c.TextLen(), len(got))
		}
	}
}
