package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

func TestRedactHeaders(t *testing.T) {
	r := NewRedactor()
	h := http.Header{
		"Authorization":       {"Bearer abc.def.ghi"},
		"Proxy-Authorization": {"Basic dXNlcjpwYXNz"},
		"Cookie":              {"sid=123"},
		"Set-Cookie":          {"sid=123; HttpOnly"},
		"X-Api-Key":           {"k-999"},
		"X-Github-Token":      {"ghp_xyz"},
		"X-Client-Secret":     {"s3cr3t"},
		"X-Password":          {"hunter22"},
		"Mcp-Session-Id":      {"session-1"},
		"Www-Authenticate":    {`Bearer resource_metadata="http://x"`},
		"Content-Type":        {"application/json"},
	}
	got := r.Header(h)
	want := map[string]string{
		"Authorization":       "Bearer ****",
		"Proxy-Authorization": "Basic ****",
		"Cookie":              "****",
		"Set-Cookie":          "****",
		"X-Api-Key":           "****",
		"X-Github-Token":      "****",
		"X-Client-Secret":     "****",
		"X-Password":          "****",
		"Mcp-Session-Id":      "session-1",
		"Www-Authenticate":    `Bearer resource_metadata="http://x"`,
		"Content-Type":        "application/json",
	}
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("%s: got %q, want %q", k, got.Get(k), v)
		}
	}
	if h.Get("Authorization") != "Bearer abc.def.ghi" {
		t.Fatal("Header changed its input")
	}
}

func TestRedactEvent(t *testing.T) {
	r := NewRedactor("env-secret-value", "abc") // "abc" is too short to mask
	r.Add(`quo"te-secret`)
	for _, tc := range []struct {
		name       string
		in         events.Event
		text, raw  string
		url        string
		reqAuth    string
		respCookie string
	}{
		{
			name: "stderr line with a bearer token and a registered secret",
			in:   events.Event{Kind: events.KindStderr, Text: "calling with Authorization: Bearer eyJhbGciOi.x-y_z= and env-secret-value abc"},
			text: "calling with Authorization: Bearer **** and **** abc",
		},
		{
			name: "message payload",
			in:   events.Event{Kind: events.KindMessage, Raw: json.RawMessage(`{"result":{"text":"token env-secret-value","access_token":"at-1","refresh_token":"rt\"2","q":"quo\"te-secret"}}`)},
			raw:  `{"result":{"text":"token ****","access_token":"****","refresh_token":"****","q":"****"}}`,
		},
		{
			name:       "HTTP exchange",
			in:         events.Event{Kind: events.KindHTTP, HTTP: &events.HTTPInfo{URL: "https://u:pw@x/cb?code=c-1&state=s&client_secret=cs&page=2", ReqHeader: http.Header{"Authorization": {"Bearer t"}}, RespHeader: http.Header{"Set-Cookie": {"a=b"}}, Err: "dial env-secret-value"}},
			url:        "https://u:****@x/cb?code=****&state=****&client_secret=****&page=2",
			reqAuth:    "Bearer ****",
			respCookie: "****",
		},
		{
			name: "plain words stay",
			in:   events.Event{Kind: events.KindStderr, Text: "basic usage: the bearer of news"},
			text: "basic usage: the bearer of news",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.in
			r.Redact(&e)
			if tc.text != "" && e.Text != tc.text {
				t.Errorf("text %q, want %q", e.Text, tc.text)
			}
			if tc.raw != "" {
				if string(e.Raw) != tc.raw {
					t.Errorf("raw %s, want %s", e.Raw, tc.raw)
				}
				if !json.Valid(e.Raw) {
					t.Error("redacted raw is not valid JSON")
				}
			}
			if tc.url != "" {
				if e.HTTP.URL != tc.url {
					t.Errorf("url %q, want %q", e.HTTP.URL, tc.url)
				}
				if e.HTTP.ReqHeader.Get("Authorization") != tc.reqAuth || e.HTTP.RespHeader.Get("Set-Cookie") != tc.respCookie {
					t.Errorf("headers %v %v", e.HTTP.ReqHeader, e.HTTP.RespHeader)
				}
				if strings.Contains(e.HTTP.Err, "env-secret-value") {
					t.Errorf("error text %q", e.HTTP.Err)
				}
				if tc.in.HTTP.ReqHeader.Get("Authorization") != "Bearer t" {
					t.Error("Redact changed the caller's header map")
				}
			}
		})
	}
}

func TestRedactKeepsJSONValid(t *testing.T) {
	r := NewRedactor(`":"`) // a secret that spans JSON structure
	e := events.Event{Raw: json.RawMessage(`{"a":"b"}`)}
	r.Redact(&e)
	if !json.Valid(e.Raw) {
		t.Fatalf("raw became invalid: %s", e.Raw)
	}
	// A message without secrets is not copied.
	raw := json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	e = events.Event{Raw: raw}
	NewRedactor("some-secret").Redact(&e)
	if &e.Raw[0] != &raw[0] {
		t.Fatal("a clean payload was copied")
	}
}

func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if got := r.Header(http.Header{"Authorization": {"Bearer x"}}).Get("Authorization"); got != "Bearer ****" {
		t.Fatalf("nil redactor header %q", got)
	}
	if got := r.String("Bearer xyz123"); got != "Bearer ****" {
		t.Fatalf("nil redactor string %q", got)
	}
}

// TestRedactShapes runs the redactor over the headers, URL parameters and
// URL password of core/redact's table of secret shapes (the table every
// output is tested against).
func TestRedactShapes(t *testing.T) {
	b, err := os.ReadFile("../redact/testdata/shapes.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			Shape, Name string
			Secret      bool
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	value := func(i int) string { return fmt.Sprintf("sv%03dq", i) }
	u := &url.URL{Scheme: "https", Host: "x", Path: "/mcp"}
	h := http.Header{}
	var query []string
	for i, r := range doc.Rows {
		switch r.Shape {
		case "header":
			h.Set(r.Name, value(i))
		case "query":
			query = append(query, r.Name+"="+value(i))
		case "userinfo":
			u.User = url.UserPassword(r.Name, value(i))
		}
	}
	u.RawQuery = strings.Join(query, "&")
	e := events.Event{Kind: events.KindHTTP, HTTP: &events.HTTPInfo{URL: u.String(), ReqHeader: h}}
	NewRedactor().Redact(&e)
	rec, _ := json.Marshal(e)
	for i, r := range doc.Rows {
		if r.Shape != "header" && r.Shape != "query" && r.Shape != "userinfo" {
			continue
		}
		if strings.Contains(string(rec), value(i)) == r.Secret {
			t.Errorf("%s %s (secret=%v): its value %s is wrongly shown or hidden", r.Shape, r.Name, r.Secret, value(i))
		}
	}
	if t.Failed() {
		t.Logf("the recorded exchange: %s", rec)
	}
}

// TestRedactorAddWhileRedacting registers secrets while other goroutines
// redact: Add must never change a list a reader is iterating (run with
// -race), and every secret added before a Redact call is masked by it.
func TestRedactorAddWhileRedacting(t *testing.T) {
	r := NewRedactor("first-secret")
	const n = 200
	var wg sync.WaitGroup
	added := make(chan string, n)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(added)
		for i := range n {
			s := fmt.Sprintf("secret-%0*d", 1+i%7, i) // lengths vary, so the list is re-sorted
			r.Add(s)
			added <- s
		}
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				e := events.Event{Text: "first-secret and secret-1", Raw: json.RawMessage(`{"a":"first-secret"}`)}
				r.Redact(&e)
				if strings.Contains(e.Text, "first-secret") || strings.Contains(string(e.Raw), "first-secret") {
					t.Errorf("a registered secret leaked: %q %s", e.Text, e.Raw)
					return
				}
			}
		}()
	}
	for s := range added {
		e := events.Event{Text: "value " + s + "."}
		r.Redact(&e)
		if e.Text != "value "+Mask+"." {
			t.Fatalf("secret %q added before Redact was not masked: %q", s, e.Text)
		}
	}
	wg.Wait()
	if got := len(r.list()); got != n+1 {
		t.Fatalf("%d secrets registered, want %d", got, n+1)
	}
}

func BenchmarkRedactMessage(b *testing.B) {
	r := NewRedactor("env-secret-value", "client-secret-1")
	raw := json.RawMessage(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hello"}]}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e := events.Event{Kind: events.KindMessage, Raw: raw}
		r.Redact(&e)
	}
}
