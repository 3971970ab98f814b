package cmd

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// TestWorkloadJWT: the workload JWT comes from oauth.assertionFile (which
// wins) or oauth.assertionEnv, trimmed; a missing or empty source says
// which field points where; neither set means no jwt-bearer grant.
func TestWorkloadJWT(t *testing.T) {
	files := map[string]string{"/tok": "eyJ.a.b\n", "/empty": " \n"}
	readFile := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	env := map[string]string{"WIF": "eyJ.env.c"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name    string
		o       catalog.OAuth
		jwt     string
		ok      bool
		errWith string
	}{
		{"neither", catalog.OAuth{ClientID: "c"}, "", false, ""},
		{"file", catalog.OAuth{AssertionFile: "/tok", AssertionEnv: "WIF"}, "eyJ.a.b", true, ""},
		{"env", catalog.OAuth{AssertionEnv: "WIF"}, "eyJ.env.c", true, ""},
		{"missing file", catalog.OAuth{AssertionFile: "/nope"}, "", true, "cannot read the workload JWT from oauth.assertionFile"},
		{"empty file", catalog.OAuth{AssertionFile: "/empty"}, "", true, "oauth.assertionFile /empty is empty"},
		{"unset env", catalog.OAuth{AssertionEnv: "NOPE"}, "", true, "environment variable NOPE (oauth.assertionEnv) is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jwt, ok, err := workloadJWT(tc.o, readFile, getenv)
			if jwt != tc.jwt || ok != tc.ok {
				t.Errorf("got %q, %v; want %q, %v", jwt, ok, tc.jwt, tc.ok)
			}
			switch {
			case tc.errWith == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.errWith != "" && (err == nil || !strings.Contains(err.Error(), tc.errWith)):
				t.Errorf("error %v, want one saying %q", err, tc.errWith)
			}
			if tc.name == "missing file" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the cause is not kept: %v", err)
			}
		})
	}
}
