package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// moduleDir finds a module in the module cache through the go command.
func moduleDir(t testing.TB, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("cannot locate module %s (go list -m): %v", mod, err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("module %s: %v", mod, err)
	}
	return dir
}

// readTree reads every file under dir into a map keyed by prefix + the
// slash-separated relative path (with a ".json" suffix kept as is).
func readTree(t testing.TB, dir, prefix string, into map[string][]byte) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		into[prefix+filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var metaOnce sync.Once
var metaRes map[string][]byte

// metaschemas returns the JSON Schema meta-schemas, keyed by their URLs,
// read from the santhosh-tekuri module (tests only).
func metaschemas(t testing.TB) map[string][]byte {
	metaOnce.Do(func() {
		dir := filepath.Join(moduleDir(t, "github.com/santhosh-tekuri/jsonschema/v6"), "metaschemas")
		m := map[string][]byte{}
		readTree(t, dir, "", m)
		metaRes = map[string][]byte{}
		for k, v := range m {
			switch {
			case strings.HasPrefix(k, "draft-"):
				metaRes["http://json-schema.org/"+k] = v
			default:
				metaRes["https://json-schema.org/"+k] = v
			}
		}
	})
	return metaRes
}

type suiteCase struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []suiteCase     `json:"tests"`
}

// knownDifferences lists suite cases whose expected result this package
// does not reproduce, each with the reason. A key is a prefix of
// "file: group: test". The official suite needs none; these are all from
// santhosh-tekuri's Extra-Test-Suite, which tests that library's own
// extensions.
var knownDifferences = []struct{ prefix, reason string }{
	// Formats that are not JSON Schema formats: unknown formats pass.
	{"optional/format/period.json: ", "period is a santhosh-tekuri extension format, not a JSON Schema format"},
	{"optional/format/semver.json: ", "semver is a santhosh-tekuri extension format, not a JSON Schema format"},
	// Content keywords are annotations (2019-09 §8, 2020-12 §8.2); only
	// santhosh-tekuri asserts them, as an option.
	{"optional/contentSchema.json: ", "contentEncoding/contentMediaType/contentSchema are not asserted"},
	// $vocabulary from a custom meta-schema is not read: the dialect is
	// always the full draft named by $schema (or Options.Draft).
	{"vocabulary.json: using keywords from disabled vocabulary: ", "custom meta-schema vocabularies are not supported"},
	{"mixed-dialects.json: subschema without applicator: ", "custom meta-schema vocabularies are not supported"},
	// Every $ref must resolve when compiling; santhosh-tekuri does not
	// compile then/else made unreachable by a boolean "if".
	{"if-then-else.json: skip then when if is false: ", "unresolvable $ref in an unreachable then is still a compile error"},
	{"if-then-else.json: skip else when if is true: ", "unresolvable $ref in an unreachable else is still a compile error"},
}

func knownDifference(name string) (string, bool) {
	for _, kd := range knownDifferences {
		if strings.HasPrefix(name, kd.prefix) {
			return kd.reason, true
		}
	}
	return "", false
}

type suiteStats struct{ groups, cases, passed, skipped int }

func runSuiteDir(t *testing.T, dir string, draft Draft, res map[string][]byte, assertFormat bool) suiteStats {
	var st suiteStats
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		af := assertFormat || strings.Contains(rel, "optional/format")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var groups []suiteGroup
		if err := json.Unmarshal(b, &groups); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		for _, g := range groups {
			st.groups++
			sch, cerr := Compile(g.Schema, Options{Draft: draft, Resources: res, AssertFormat: af})
			for _, tc := range g.Tests {
				st.cases++
				name := rel + ": " + g.Description + ": " + tc.Description
				problem := suiteCheck(sch, cerr, tc)
				if problem == "" {
					st.passed++
					continue
				}
				if reason, ok := knownDifference(name); ok {
					st.skipped++
					t.Logf("known difference %s: %s (%s)", name, reason, problem)
					continue
				}
				t.Errorf("%s: %s", name, problem)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// suiteCheck runs one suite case and describes what went wrong, "" if
// nothing did.
func suiteCheck(sch *Schema, cerr error, tc suiteCase) string {
	if cerr != nil {
		return fmt.Sprintf("compile: %v", cerr)
	}
	errs, verr := sch.Validate(tc.Data)
	if verr != nil && !tc.Valid && errors.Is(verr, ErrSchema) {
		// An infinite $ref loop is an error, which is more than
		// "invalid".
		return ""
	}
	if verr != nil {
		return fmt.Sprintf("validate: %v", verr)
	}
	if got := len(errs) == 0; got != tc.Valid {
		return fmt.Sprintf("valid=%v, want %v; errors %+v", got, tc.Valid, errs)
	}
	return ""
}

func suiteResources(t *testing.T, remotes string) map[string][]byte {
	res := map[string][]byte{}
	for k, v := range metaschemas(t) {
		res[k] = v
	}
	readTree(t, remotes, "http://localhost:1234/", res)
	return res
}

// TestSuite runs every case of the official JSON-Schema-Test-Suite copy
// shipped in github.com/google/jsonschema-go (draft7 and draft2020-12).
func TestSuite(t *testing.T) {
	base := filepath.Join(moduleDir(t, "github.com/google/jsonschema-go"), "jsonschema", "testdata")
	res := suiteResources(t, filepath.Join(base, "remotes"))
	for _, tc := range []struct {
		dir   string
		draft Draft
	}{{"draft7", Draft7}, {"draft2020-12", Draft2020}} {
		t.Run(tc.dir, func(t *testing.T) {
			st := runSuiteDir(t, filepath.Join(base, tc.dir), tc.draft, res, false)
			if st.cases == 0 {
				t.Fatal("no test cases found")
			}
			t.Logf("%s: %d groups, %d cases, %d passed, %d known differences", tc.dir, st.groups, st.cases, st.passed, st.skipped)
		})
	}
}

// TestExtraSuite runs santhosh-tekuri/jsonschema's Extra-Test-Suite, which
// has the official suite's format (optional/format with format
// assertions on).
func TestExtraSuite(t *testing.T) {
	base := filepath.Join(moduleDir(t, "github.com/santhosh-tekuri/jsonschema/v6"), "testdata", "Extra-Test-Suite")
	res := suiteResources(t, filepath.Join(base, "remotes"))
	for _, tc := range []struct {
		dir   string
		draft Draft
	}{{"draft4", Draft4}, {"draft7", Draft7}, {"draft2019-09", Draft2019}, {"draft2020-12", Draft2020}} {
		t.Run(tc.dir, func(t *testing.T) {
			st := runSuiteDir(t, filepath.Join(base, "tests", tc.dir), tc.draft, res, false)
			if st.cases == 0 {
				t.Fatal("no test cases found")
			}
			t.Logf("%s: %d groups, %d cases, %d passed, %d known differences", tc.dir, st.groups, st.cases, st.passed, st.skipped)
		})
	}
}

// TestMetaschemas validates every schema of the official suite against its
// draft's meta-schema (given through Resources), which exercises $ref
// across documents and, for 2020-12, $dynamicRef on real data; a few
// invalid schemas must fail.
func TestMetaschemas(t *testing.T) {
	base := filepath.Join(moduleDir(t, "github.com/google/jsonschema-go"), "jsonschema", "testdata")
	res := metaschemas(t)
	for _, tc := range []struct {
		dir, meta string
	}{{"draft7", "http://json-schema.org/draft-07/schema#"}, {"draft2020-12", "https://json-schema.org/draft/2020-12/schema"}} {
		meta := mustCompile(t, `{"$ref": "`+tc.meta+`"}`, Options{Resources: res})
		files, _ := filepath.Glob(filepath.Join(base, tc.dir, "*.json"))
		n := 0
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var groups []suiteGroup
			if err := json.Unmarshal(b, &groups); err != nil {
				t.Fatal(err)
			}
			for _, g := range groups {
				errs, err := meta.Validate(g.Schema)
				if err != nil || errs != nil {
					t.Errorf("%s: %s: schema fails its meta-schema: %v %+v", filepath.Base(p), g.Description, err, errs)
				}
				n++
			}
		}
		if n == 0 {
			t.Fatalf("%s: no schemas", tc.dir)
		}
		for _, bad := range []string{`{"type": "strin"}`, `{"properties": {"a": 1}}`, `{"minLength": -1}`, `{"properties": {"x": {"required": "a"}}}`} {
			if errs, err := meta.Validate([]byte(bad)); err != nil || errs == nil {
				t.Errorf("%s: %s passes the meta-schema (%v)", tc.dir, bad, err)
			}
		}
	}
}
