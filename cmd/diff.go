package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// Exit codes of --diff (and the comparison of --replay): like diff(1).
const (
	exitSame      = 0
	exitDiffers   = 1
	exitBadInput  = 2
	diffValueSize = 120 // bytes of a value shown in a text report

	diffChangesShown = 12 // changes of one request shown in a text report
)

// diffArgs is the command line of --diff.
type diffArgs struct {
	a, b   string
	ignore []string
	format string
}

// parseDiffArgs reads `--diff A.json B.json [--ignore PATH]… [--format
// text|json]` (args without the program name, --diff included).
func parseDiffArgs(args []string) (*diffArgs, error) {
	d := &diffArgs{format: "text"}
	var files []string
	formatGiven := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			files = append(files, a)
			continue
		}
		switch name {
		case "--diff":
			if hasVal {
				files = append(files, val)
			}
			continue
		case "--ignore", "--format":
		default:
			return nil, fmt.Errorf("%s does not go with --diff, which takes two trace files, --ignore PATH and --format text|json", name)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "--ignore":
			if err := checkIgnore(val); err != nil {
				return nil, err
			}
			d.ignore = append(d.ignore, val)
		case "--format":
			if formatGiven {
				return nil, errors.New("--format is given twice; give it once")
			}
			formatGiven = true
			if val != "text" && val != "json" {
				return nil, fmt.Errorf("--format %q: write --format text or --format json", val)
			}
			d.format = val
		}
	}
	if len(files) != 2 {
		return nil, fmt.Errorf("--diff compares two trace files (got %d): spyglass --diff A.json B.json", len(files))
	}
	d.a, d.b = files[0], files[1]
	return d, nil
}

// runDiff compares two trace files and prints what differs.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		if wantsJSON(args) {
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": err.Error()}})
			fmt.Fprintf(stdout, "%s\n", b)
		}
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return exitBadInput
	}
	d, err := parseDiffArgs(args)
	if err != nil {
		return fail(err)
	}
	a, err := readTraceFile(d.a)
	if err != nil {
		return fail(err)
	}
	b, err := readTraceFile(d.b)
	if err != nil {
		return fail(err)
	}
	res, err := sessiondiff.Sessions(a.Events, b.Events, &sessiondiff.Options{Ignore: ignoreList(d.ignore)})
	if err != nil {
		return fail(err)
	}
	if d.format == "json" {
		err = writeDiffJSON(stdout, res, d.a, d.b)
	} else {
		err = writeDiffText(stdout, res, d.a, d.b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: writing the report: %v\n", err)
		return exitBadInput
	}
	if res.Equal() {
		return exitSame
	}
	return exitDiffers
}

// ignoreList is the default ignore list plus the --ignore paths.
func ignoreList(extra []string) []string {
	return append(append([]string(nil), sessiondiff.DefaultIgnore...), extra...)
}

// decodeTracePath reads a trace file with events.DecodeTrace.
func decodeTracePath(path string) (*events.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return events.DecodeTrace(f)
}

// readTraceFile reads a whole trace file; a damaged one is an error that
// says where it stops (a comparison of half a session would mislead).
func readTraceFile(path string) (*events.Trace, error) {
	t, err := decodeTracePath(path)
	var te *events.TraceError
	var pe *os.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("cannot read the trace %s: %w", path, pe.Err)
	case errors.As(err, &te):
		return nil, fmt.Errorf("%s is damaged: it stops being valid at %s (%v); %d events before that are readable", path, te.Pos, te.Err, te.Events)
	case errors.Is(err, events.ErrTraceVersion):
		_, why, _ := strings.Cut(err.Error(), events.ErrTraceVersion.Error()+": ")
		return nil, fmt.Errorf("cannot open %s: %s", path, why)
	case err != nil:
		return nil, fmt.Errorf("%s is not a Spyglass trace (write one with --trace FILE): %w", path, err)
	}
	return t, nil
}

// writeDiffText writes the report for people: each differing request
// with its changes, then the timing.
func writeDiffText(w io.Writer, res *sessiondiff.Result, nameA, nameB string) error {
	var b strings.Builder
	diffs := res.Differing()
	if len(diffs) == 0 {
		fmt.Fprintf(&b, "no differences: %d requests match (ignoring %s)\n", len(res.Pairs), strings.Join(res.Ignore, ", "))
	} else {
		fmt.Fprintf(&b, "%d of %d requests differ between %s (A) and %s (B):\n", len(diffs), len(res.Pairs), nameA, nameB)
	}
	for _, p := range diffs {
		switch {
		case p.B == nil:
			fmt.Fprintf(&b, "\n%s (A #%d): only in A\n", p.Label(), p.A.Seq)
			continue
		case p.A == nil:
			fmt.Fprintf(&b, "\n%s (B #%d): only in B\n", p.Label(), p.B.Seq)
			continue
		}
		fmt.Fprintf(&b, "\n%s (A #%d, B #%d):\n", p.Label(), p.A.Seq, p.B.Seq)
		shown := 0
		for i, c := range append(append([]sessiondiff.Change(nil), p.Request...), p.Response...) {
			if shown == diffChangesShown {
				fmt.Fprintf(&b, "  … %d more (--format json lists them all)\n", len(p.Request)+len(p.Response)-shown)
				break
			}
			side := "request "
			if i >= len(p.Request) {
				side = "response"
			}
			fmt.Fprintf(&b, "  %s %s\n", side, c.Describe(diffValueSize))
			shown++
		}
	}
	if len(res.Timing) > 0 {
		b.WriteString("\ntiming (not counted as a difference):\n")
		for _, t := range res.Timing {
			fmt.Fprintf(&b, "  %-40s %8s → %-8s (%s)\n", t.Label, roundDur(t.A), roundDur(t.B), signedDur(t.B-t.A))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func roundDur(d time.Duration) string {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}

func signedDur(d time.Duration) string {
	if d >= 0 {
		return "+" + roundDur(d)
	}
	return "-" + roundDur(-d)
}

// diffReport is the --format json form of a comparison.
type diffReport struct {
	Equal       bool                 `json:"equal"`
	A           string               `json:"a"`
	B           string               `json:"b"`
	Requests    int                  `json:"requests"`
	Ignore      []string             `json:"ignore"`
	Differences []sessiondiff.Pair   `json:"differences"`
	Timing      []sessiondiff.Timing `json:"timing"`
}

func writeDiffJSON(w io.Writer, res *sessiondiff.Result, nameA, nameB string) error {
	rep := diffReport{Equal: res.Equal(), A: nameA, B: nameB, Requests: len(res.Pairs), Ignore: res.Ignore,
		Differences: res.Differing(), Timing: res.Timing}
	if rep.Differences == nil {
		rep.Differences = []sessiondiff.Pair{}
	}
	if rep.Timing == nil {
		rep.Timing = []sessiondiff.Timing{}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
