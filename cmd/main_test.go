package cmd

import (
	"os"
	"strings"
	"testing"

	"github.com/adrg/xdg"
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
	// The tests' taps and windows talk on a socket of their own
	// ($XDG_RUNTIME_DIR/spyglass/app.sock), which their children inherit:
	// on the user's, a Spyglass window open beside `make test` took the
	// taps' feeds as servers of its own ("cmd.test", "127.0.0.1:32873").
	rt, err := os.MkdirTemp("", "spyglass-test-run-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_RUNTIME_DIR", rt)
	xdg.Reload()
	code := m.Run()
	os.RemoveAll(rt)
	os.Exit(code)
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
