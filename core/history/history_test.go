package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAddListNewestFirstBounded(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, &Options{Max: 3})
	for i, m := range []string{"a", "b", "c", "d"} {
		if err := s.Add("srv/one", Entry{Time: time.Unix(int64(i), 0).UTC(), Method: m, Status: "ok", Duration: time.Duration(i) * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	// a new store over the same folder: what a restart sees
	got, err := New(dir, nil).List("srv/one")
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, e := range got {
		methods = append(methods, e.Method)
	}
	if strings.Join(methods, ",") != "d,c,b" {
		t.Fatalf("methods %v, want d,c,b", methods)
	}
	if got[0].Duration != 3*time.Millisecond || !got[0].Time.Equal(time.Unix(3, 0)) {
		t.Fatalf("entry %+v", got[0])
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 || filepath.Dir(files[0]) != dir {
		t.Fatalf("files %v: want one file inside the folder", files)
	}
	if none, err := s.List("other"); err != nil || none != nil {
		t.Fatalf("no history: %v %v", none, err)
	}
}

func TestSecretsMasked(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, &Options{Mask: func(raw json.RawMessage) json.RawMessage {
		return json.RawMessage(strings.ReplaceAll(string(raw), "KNOWN-SECRET", "****"))
	}})
	e := Entry{
		Method:  "tools/call",
		Params:  json.RawMessage(`{"name":"x","arguments":{"apiKey":"sk-1","nested":[{"DB_PWD":"p"}],"url":"https://h/?token=t0k&x=1","note":"KNOWN-SECRET","count":2}}`),
		Headers: map[string]string{"Authorization": "Bearer abc", "X-Request-ID": "r1"},
		Status:  "ok",
	}
	if err := s.Add("s", e); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"sk-1", `"p"`, "t0k", "abc", "KNOWN-SECRET"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("file holds %s:\n%s", secret, data)
		}
	}
	got, _ := s.List("s")
	if got[0].Headers["X-Request-ID"] != "r1" || got[0].Headers["Authorization"] != "****" {
		t.Fatalf("headers %v", got[0].Headers)
	}
	var p struct {
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(got[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.Arguments["apiKey"] != "****" || p.Arguments["count"] != 2.0 || p.Arguments["url"] != "https://h/?token=****&x=1" {
		t.Fatalf("params %s", got[0].Params)
	}
	// the caller's entry is not changed
	if e.Headers["Authorization"] != "Bearer abc" {
		t.Fatal("Add changed the caller's headers")
	}
}

func TestMaskJSONUnchanged(t *testing.T) {
	for _, in := range []string{`{"b": 1,  "a": "x"}`, `not json`, ``} {
		if got := string(MaskJSON(json.RawMessage(in))); got != in {
			t.Errorf("MaskJSON(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestUnreadableFileReplaced(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(dir, nil)
	if _, err := s.List("s"); err == nil {
		t.Fatal("garbage read without an error")
	}
	if err := s.Add("s", Entry{Method: "ping", Status: "ok"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.List("s"); err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
}
