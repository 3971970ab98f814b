package cmd

import (
	"os"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for the spyglass binary: the
// seeded catalog's demo entry (`spyglass --demo-server`) resolves to the
// running executable, which is this test binary, so it must serve the
// demo server when started that way.
func TestMain(m *testing.M) {
	for _, a := range os.Args[1:] {
		if a == "--demo-server" || a == "--conformance-client" || a == "--tap" {
			os.Exit(Main(os.Args[1:]))
		}
	}
	os.Exit(m.Run())
}

func TestNoDisplay(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	tests := []struct {
		goos string
		env  map[string]string
		want bool // an explanation expected
	}{
		{"linux", nil, true},
		{"linux", map[string]string{"DISPLAY": ":0"}, false},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, false},
		{"freebsd", nil, true},
		{"darwin", nil, false},
		{"windows", nil, false},
	}
	for _, tc := range tests {
		if got := noDisplay(tc.goos, env(tc.env)); (got != "") != tc.want {
			t.Errorf("noDisplay(%s, %v) = %q", tc.goos, tc.env, got)
		}
	}
	// The real command: no panic, a clear message, a non-zero exit.
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errb strings.Builder
	if code := run(nil, strings.NewReader(""), &out, &errb); code == 0 || !strings.Contains(errb.String(), "no display") {
		t.Errorf("GUI without a display: exit %d, %q", code, errb.String())
	}
}
