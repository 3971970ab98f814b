package har

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/spyglass-mcp/spyglass/internal/hartest"
)

type mask struct{ secret string }

func (m mask) URL(u string) string { return m.String(u) }
func (m mask) Header(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			out.Add(k, m.String(v))
		}
	}
	return out
}
func (m mask) String(s string) string { return strings.ReplaceAll(s, m.secret, "****") }

func TestRecorderHAR(t *testing.T) {
	const secret = "tok-SECRET-42"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"echo":%q}`, body)
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 3 {
				fmt.Fprintf(w, "id: %d\nevent: message\ndata: {\"n\":%d}\n\n", i, i)
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	rec := &Recorder{}
	cl := &http.Client{Transport: rec}
	req, _ := http.NewRequest("POST", srv.URL+"/json?key="+secret+"&page=2", strings.NewReader(`{"token":"`+secret+`"}`))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	resp, err = cl.Get(srv.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	if _, err := cl.Get("http://127.0.0.1:1/refused"); err == nil {
		t.Fatal("port 1 answered")
	}

	var buf bytes.Buffer
	if err := rec.Write(&buf, Creator{Name: "spyglass", Version: "test"}, mask{secret}); err != nil {
		t.Fatal(err)
	}
	hartest.Validate(t, buf.Bytes())
	if strings.Contains(buf.String(), secret) {
		t.Fatalf("the HAR holds the secret:\n%s", buf.String())
	}
	var f harFile
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	es := f.Log.Entries
	if f.Log.Version != "1.2" || len(es) != 3 {
		t.Fatalf("entries %d: %s", len(es), buf.String())
	}
	if p := es[0].Request.PostData; p == nil || p.Text != `{"token":"****"}` || es[0].Response.Content.Text != `{"echo":"{\"token\":\"****\"}"}` || es[0].Response.Status != 200 {
		t.Errorf("POST entry: %+v", es[0])
	}
	if len(es[0].Request.QueryString) != 2 || es[0].Request.QueryString[0].Value != "****" {
		t.Errorf("query %+v", es[0].Request.QueryString)
	}
	if len(es[1].SSEEvents) != 3 || es[1].SSEEvents[2].Text != "id: 2\nevent: message\ndata: {\"n\":2}" || es[1].Open {
		t.Errorf("SSE events %+v", es[1].SSEEvents)
	}
	if es[2].Error == "" || es[2].Response.Status != 0 {
		t.Errorf("failed exchange %+v", es[2])
	}
}

// A stream still open when the file is written is written as far as it
// got.
func TestRecorderOpenStream(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		<-release
	}))
	defer srv.Close()
	defer close(release)
	rec := &Recorder{}
	resp, err := (&http.Client{Transport: rec}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line := make([]byte, len("data: first\n\n"))
	if _, err := io.ReadFull(resp.Body, line); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec.Write(&buf, Creator{Name: "t", Version: "1"}, mask{"x-never"})
	hartest.Validate(t, buf.Bytes())
	var f harFile
	json.Unmarshal(buf.Bytes(), &f)
	if e := f.Log.Entries[0]; !e.Open || len(e.SSEEvents) != 1 || e.SSEEvents[0].Text != "data: first" {
		t.Errorf("open stream: %+v", e)
	}
}

// The schema is not a rubber stamp.
func TestHARSchemaRejects(t *testing.T) {
	s := hartest.Schema(t)
	for _, doc := range []string{
		`{"log":{"version":"1.2","entries":[]}}`,
		`{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"startedDateTime":"now"}]}}`,
		`{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"startedDateTime":"2026-01-01T00:00:00Z","time":1,"request":{},"response":{},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}`,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if s.Validate(inst) == nil {
			t.Errorf("accepted %s", doc)
		}
	}
}

// TestRecorderForget: after a Forget (the window's Clear) an ended
// exchange is gone and an open stream keeps only what came after, its
// content saying how many bytes were cleared; the file stays valid HAR.
func TestRecorderForget(t *testing.T) {
	next := make(chan string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/done" {
			fmt.Fprint(w, "ok")
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush() // the headers, before the first event
		for s := range next {
			fmt.Fprint(w, s)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	rec := &Recorder{}
	client := &http.Client{Transport: rec}
	done, err := client.Get(srv.URL + "/done")
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(done.Body)
	done.Body.Close()
	resp, err := client.Get(srv.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	read := func(s string) {
		t.Helper()
		next <- s
		if _, err := io.ReadFull(resp.Body, make([]byte, len(s))); err != nil {
			t.Fatal(err)
		}
	}
	read("data: first\n\ndata: sec")
	rec.Forget()
	read("ond\n\n")
	close(next)

	var buf bytes.Buffer
	if err := rec.Write(&buf, Creator{Name: "t", Version: "1"}, mask{"x-never"}); err != nil {
		t.Fatal(err)
	}
	hartest.Validate(t, buf.Bytes())
	var f harFile
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Log.Entries) != 1 {
		t.Fatalf("%d entries after Forget, want the open stream only", len(f.Log.Entries))
	}
	e := f.Log.Entries[0]
	if len(e.SSEEvents) != 1 || e.SSEEvents[0].Text != "data: second" || e.Response.Content.Text != "data: second\n\n" {
		t.Errorf("the stream after Forget: events %+v, content %q; want the second event only", e.SSEEvents, e.Response.Content.Text)
	}
	if c := e.Response.Content.Comment; !strings.Contains(c, "first 13 bytes were cleared") {
		t.Errorf("content comment %q, want the 13 bytes cleared said", c)
	}
}

// TestRecorderForgetCutStream: a stream cut at MaxBody and then cleared
// (the window's Clear during a long flood) is recorded again from its
// next complete event — it had stayed empty until it ended — and says
// how many bytes went.
func TestRecorderForgetCutStream(t *testing.T) {
	next := make(chan string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		for s := range next {
			fmt.Fprint(w, s)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	rec := &Recorder{}
	resp, err := (&http.Client{Transport: rec}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	read := func(s string) {
		t.Helper()
		next <- s
		if _, err := io.ReadFull(resp.Body, make([]byte, len(s))); err != nil {
			t.Fatal(err)
		}
	}
	big := "data: " + strings.Repeat("x", MaxBody) + "\n\n"
	read(big)
	read("data: cut")
	rec.Forget()
	read(" off\n\ndata: after\n\n")
	close(next)

	var buf bytes.Buffer
	if err := rec.Write(&buf, Creator{Name: "t", Version: "1"}, mask{"x-never"}); err != nil {
		t.Fatal(err)
	}
	hartest.Validate(t, buf.Bytes())
	var f harFile
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	e := f.Log.Entries[0]
	if len(e.SSEEvents) != 1 || e.SSEEvents[0].Text != "data: after" || e.Response.Content.Text != "data: after\n\n" {
		t.Errorf("the cut stream after Forget: events %+v, content %q; want the event after the cut one", e.SSEEvents, e.Response.Content.Text)
	}
	gone := len(big) + len("data: cut off\n\n")
	if c := e.Response.Content.Comment; c != fmt.Sprintf("the first %d bytes were cleared in the window", gone) {
		t.Errorf("content comment %q, want %d bytes cleared and nothing said cut", c, gone)
	}
}
