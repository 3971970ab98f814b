package ui

import (
	"testing"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
)

func TestExpandTemplate(t *testing.T) {
	w := &Window{}
	for _, tc := range []struct {
		tmpl string
		vals map[string]string
		want string
	}{
		{"demo://items/{id}", map[string]string{"id": "12"}, "demo://items/12"},
		{"demo://greetings/{lang}/{name}", map[string]string{"lang": "fr", "name": "Zoé"}, "demo://greetings/fr/Zo%C3%A9"},
		{"demo://greetings/{lang}/{name}", map[string]string{"lang": "ja", "name": "こんにちは"}, "demo://greetings/ja/%E3%81%93%E3%82%93%E3%81%AB%E3%81%A1%E3%81%AF"},
		{"file:///{+path}", map[string]string{"path": "a b/é"}, "file:///a%20b/%C3%A9"},
		{"x://s{?q,page}", map[string]string{"q": "ü zQz"}, "x://s?q=%C3%BC%20zQz"},
		{"x://s{?q,page}", map[string]string{}, "x://s"},
	} {
		got, err := w.expandTemplate(tc.tmpl, tc.vals)
		if err != nil || got != tc.want {
			t.Errorf("expand %s %v = %q, %v; want %q", tc.tmpl, tc.vals, got, err, tc.want)
		}
	}
	if _, err := w.expandTemplate("x://{bad", nil); err == nil {
		t.Error("a bad template expanded")
	}
}

func TestTemplateParams(t *testing.T) {
	got, err := templateParams("x://{a}/{+b}{/c*}{?q,a}{&page:3}")
	if err != nil {
		t.Fatal(err)
	}
	want := []schemaform.StringParam{{Name: "a"}, {Name: "b", Required: true}, {Name: "c", Required: true}, {Name: "q"}, {Name: "page"}}
	if len(got) != len(want) {
		t.Fatalf("params = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("param %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
