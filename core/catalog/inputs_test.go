package catalog

import (
	"reflect"
	"testing"
)

// TestInputRefsAndWithInputs: every ${input:ID} of a server is found, in a
// stable order, and filled where a value is given; the original is not
// changed.
func TestInputRefsAndWithInputs(t *testing.T) {
	s := Server{Type: TypeStdio, Command: "run-${input:tool}", Args: []string{"--key", "${input:key}", "plain"},
		Env: map[string]string{"B": "${input:key}", "A": "x${input:other}y"}, Headers: map[string]string{}}
	var got []string
	for _, r := range s.InputRefs() {
		got = append(got, r.Field+"="+r.ID)
	}
	want := []string{"command=tool", "args=key", "env.A=other", "env.B=key"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("refs %v, want %v", got, want)
	}
	f := s.WithInputs(map[string]string{"key": "K", "tool": "T"})
	if f.Command != "run-T" || f.Args[1] != "K" || f.Env["B"] != "K" || f.Env["A"] != "x${input:other}y" {
		t.Errorf("filled %+v", f)
	}
	if s.Args[1] != "${input:key}" || s.Env["B"] != "${input:key}" {
		t.Error("WithInputs changed the original")
	}
	if len(f.InputRefs()) != 1 {
		t.Errorf("left %v", f.InputRefs())
	}
}
