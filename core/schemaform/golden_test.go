package schemaform

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden (and re-captured peer schemas)")

// dump writes the field model, one field per line.
func dump(b *strings.Builder, f *Field, indent string) {
	path := f.Path
	if path == "" {
		path = "(root)"
	}
	fmt.Fprintf(b, "%s%s %s", indent, path, f.Kind)
	if f.Required {
		b.WriteString(" *")
	}
	if f.Title != "" {
		fmt.Fprintf(b, " title=%q", f.Title)
	}
	if f.Description != "" {
		fmt.Fprintf(b, " desc=%q", f.Description)
	}
	if f.Default != nil {
		fmt.Fprintf(b, " default=%s", f.Default.JSON())
	}
	if f.Format != "" {
		fmt.Fprintf(b, " format=%s", f.Format)
	}
	if f.Min != nil {
		fmt.Fprintf(b, " min=%s", f.Min.Value)
		if f.Min.Exclusive {
			b.WriteString("(excl)")
		}
	}
	if f.Max != nil {
		fmt.Fprintf(b, " max=%s", f.Max.Value)
		if f.Max.Exclusive {
			b.WriteString("(excl)")
		}
	}
	if f.MultipleOf != "" {
		fmt.Fprintf(b, " multipleOf=%s", f.MultipleOf)
	}
	if f.MinLength >= 0 {
		fmt.Fprintf(b, " minLength=%d", f.MinLength)
	}
	if f.MaxLength >= 0 {
		fmt.Fprintf(b, " maxLength=%d", f.MaxLength)
	}
	if f.Pattern != "" {
		fmt.Fprintf(b, " pattern=%q", f.Pattern)
	}
	if f.MinItems >= 0 {
		fmt.Fprintf(b, " minItems=%d", f.MinItems)
	}
	if f.MaxItems >= 0 {
		fmt.Fprintf(b, " maxItems=%d", f.MaxItems)
	}
	if f.UniqueItems {
		b.WriteString(" unique")
	}
	if len(f.Options) > 0 {
		b.WriteString(" options=[")
		for i, o := range f.Options {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%s:%q", o.Value.JSON(), o.Title)
		}
		b.WriteString("]")
	}
	if f.Reason != "" {
		fmt.Fprintf(b, " reason=%q", f.Reason)
	}
	b.WriteString("\n")
	switch f.Kind {
	case KindArray:
		dump(b, f.Items, indent+"  ")
	case KindObject:
		for _, p := range f.Properties {
			dump(b, p, indent+"  ")
		}
	case KindNullable:
		dump(b, f.Inner, indent+"  ")
	}
}

// target finds the state an op addresses; ops other than "null" go
// through nullable wrappers.
func target(t *testing.T, root *State, path string, op string) *State {
	t.Helper()
	st, ok := root.Find(path)
	if !ok {
		t.Fatalf("op %s: no state at %q", op, path)
	}
	for op != "null" && st.Field.Kind == KindNullable && !st.Raw {
		st.Null = false
		st = st.Inner
	}
	return st
}

// apply runs one op of a case ("text /a hello", "select /b 1", ...).
func apply(t *testing.T, root *State, op string) {
	t.Helper()
	parts := strings.SplitN(op, " ", 3)
	verb := parts[0]
	if verb == "reset" {
		root.Reset()
		return
	}
	if len(parts) < 2 {
		t.Fatalf("bad op %q", op)
	}
	path := parts[1]
	arg := ""
	if len(parts) == 3 {
		arg = parts[2]
	}
	if strings.HasPrefix(arg, `"`) {
		u, err := strconv.Unquote(arg)
		if err != nil {
			t.Fatalf("bad op %q: %v", op, err)
		}
		arg = u
	}
	st := target(t, root, path, verb)
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("bad op %q", op)
		}
		return n
	}
	switch verb {
	case "text":
		st.SetText(arg)
	case "select":
		st.Select(num(arg))
	case "check", "uncheck":
		st.SetChecked(num(arg), verb == "check")
	case "bool":
		st.SetBool(arg == "true")
	case "null":
		st.SetNull(arg == "true")
	case "add":
		st.Add()
	case "remove":
		st.Remove(num(arg))
	case "move":
		ij := strings.Fields(arg)
		st.Move(num(ij[0]), num(ij[1]))
	default:
		t.Fatalf("unknown op %q", op)
	}
}

// run renders one run: the JSON that would be sent and the issues; it
// also checks that loading that JSON back gives the same JSON (lossless).
func run(t *testing.T, b *strings.Builder, form *Form, st *State) {
	t.Helper()
	v := st.Value()
	out := v.JSON()
	fmt.Fprintf(b, "json: %s\n", out)
	issues := form.Check(st)
	sort.SliceStable(issues, func(i, j int) bool { return issues[i].Path < issues[j].Path })
	for _, is := range issues {
		fmt.Fprintf(b, "issue: %s [%s]\n", is, is.Code)
	}
	again := NewState(form.Root)
	again.Set(v)
	if got := again.Value().JSON(); !bytes.Equal(got, out) {
		t.Errorf("round trip changed the JSON:\n got %s\nwant %s", got, out)
	}
}

func checkGolden(t *testing.T, name string, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestGoldenCases runs testdata/cases/*.json: schema → field model →
// values (defaults, typed ops, loaded documents) → JSON and issues.
func TestGoldenCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.json")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, err := ParseValue(data)
			if err != nil {
				t.Fatal(err)
			}
			schema := c.Get("schema").JSON()
			form, err := Build(schema)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString("== field model\n")
			dump(&b, form.Root, "")
			if el := form.CheckElicitation(); len(el) > 0 {
				b.WriteString("== elicitation\n")
				for _, is := range el {
					fmt.Fprintf(&b, "%s\n", is)
				}
			} else {
				b.WriteString("== elicitation: ok\n")
			}
			for _, r := range c.Get("runs").Items {
				fmt.Fprintf(&b, "== run %s\n", r.GetString("name"))
				st := NewState(form.Root)
				if set := r.Get("set"); set != nil {
					st.Set(set)
				}
				if ops := r.Get("ops"); ops != nil {
					for _, op := range ops.Items {
						apply(t, st, op.Str)
					}
				}
				run(t, &b, form, st)
			}
			checkGolden(t, name, b.String())
		})
	}
}

// fill puts a plausible value into every control below st, as a user
// filling the whole form would.
func fill(st *State) {
	f := st.Field
	switch f.Kind {
	case KindString, KindText:
		n := max(f.MinLength, 1)
		st.SetText(strings.Repeat("x", n))
	case KindFormat:
		st.SetText(map[string]string{"uri": "https://example.com/", "date": "2024-01-02", "date-time": "2024-01-02T03:04:05Z",
			"email": "a@example.com", "uuid": "123e4567-e89b-12d3-a456-426614174000", "time": "10:00:00Z",
			"ipv4": "127.0.0.1", "ipv6": "::1"}[f.Format])
	case KindNumber, KindInteger:
		switch {
		case f.Min != nil && !f.Min.Exclusive:
			st.SetText(string(f.Min.Value))
		case f.Max != nil && !f.Max.Exclusive:
			st.SetText(string(f.Max.Value))
		default:
			st.SetText("1")
		}
	case KindEnum, KindTitledEnum:
		st.Select(0)
	case KindMultiSelect:
		st.SetChecked(0, true)
	case KindBoolean:
		st.SetBool(true)
	case KindArray:
		fill(st.Add())
	case KindObject:
		for _, p := range st.Props {
			fill(p)
		}
	case KindNullable:
		st.SetNull(false)
		fill(st.Inner)
	}
}

// goldenSchemas renders the golden file of a captured tool schema:
// field model, defaults, and a completely filled form.
func goldenSchema(t *testing.T, schema []byte) string {
	t.Helper()
	form, err := Build(schema)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("== field model\n")
	dump(&b, form.Root, "")
	b.WriteString("== run defaults\n")
	st := NewState(form.Root)
	run(t, &b, form, st)
	b.WriteString("== run filled\n")
	fill(st)
	run(t, &b, form, st)
	return b.String()
}

// TestGoldenCaptured renders every captured schema (real npm servers under
// testdata/peers, the demo server under testdata/demo).
func TestGoldenCaptured(t *testing.T) {
	files, _ := filepath.Glob("testdata/peers/*/*.json")
	demo, _ := filepath.Glob("testdata/demo/*.json")
	files = append(files, demo...)
	if len(files) == 0 {
		t.Fatal("no captured schemas under testdata/peers or testdata/demo: the fixture is missing")
	}
	for _, file := range files {
		rel, _ := filepath.Rel("testdata", file)
		name := strings.ReplaceAll(strings.TrimSuffix(rel, ".json"), string(filepath.Separator), "-")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, goldenSchema(t, data))
		})
	}
}
