package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/collection"
)

// Exit codes of --run.
const (
	exitAllHold = 0
	exitOneFail = 1
)

// runCollection runs a collection's saved calls on one connection and
// checks their expectations: exit 0 when all hold, 1 when one fails, 2
// for a bad file or flags, 3 when it cannot connect.
func runCollection(inv *Invocation, stdout, stderr io.Writer) int {
	c, err := readCollection(inv.RunFile)
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return exitUsage
	}
	if c.Server != nil && len(inv.Target) == 0 && inv.Server == "" && inv.ServerURL == "" && inv.Config == "" && inv.Catalog == "" {
		useCollectionServer(inv, c.Server)
	}
	r := &cliRun{inv: inv, stdout: stdout, stderr: stderr}
	r.then = func(ctx context.Context) int {
		r.setWaiting(fmt.Sprintf("running the %d calls of %s", len(c.Calls), inv.RunFile))
		rep := collection.Run(ctx, c, r.sess, &collection.RunOptions{Ignore: inv.Ignore})
		var err error
		switch inv.Format {
		case "junit":
			err = rep.WriteJUnit(stdout)
		case "json":
			err = writeRunJSON(stdout, rep)
		default:
			err = writeRunText(stdout, rep)
		}
		if err != nil {
			return exitInternal
		}
		if rep.Passed() {
			return exitAllHold
		}
		return exitOneFail
	}
	return r.start()
}

// readCollection reads a collection file, explaining what is wrong.
func readCollection(path string) (*collection.Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read the collection %s: %w", path, err)
	}
	defer f.Close()
	c, err := collection.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (the format is in core/collection/FORMAT.md)", path, err)
	}
	return c, nil
}

// useCollectionServer points the invocation at the collection's server.
func useCollectionServer(inv *Invocation, s *collection.Server) {
	if s.Name != "" {
		inv.Server = s.Name
		return
	}
	e := s.Entry
	if e.Type.IsHTTP() {
		inv.ServerURL, inv.Transport = e.URL, string(e.Type)
		for _, k := range slices.Sorted(maps.Keys(e.Headers)) {
			inv.Headers = append(inv.Headers, KeyValue{k, e.Headers[k]})
		}
		return
	}
	inv.Target = append([]string{e.Command}, e.Args...)
	inv.Cwd = e.Cwd
	for _, k := range slices.Sorted(maps.Keys(e.Env)) {
		inv.Env = append(inv.Env, KeyValue{k, e.Env[k]})
	}
	if inv.Transport == "" && e.Type == catalog.TypeStdio {
		inv.Transport = "stdio"
	}
}

// writeRunText prints the run as a checklist.
func writeRunText(w io.Writer, rep *collection.Report) error {
	var b strings.Builder
	for _, r := range rep.Results {
		mark := "✓"
		if !r.Passed() {
			mark = "✗"
		}
		fmt.Fprintf(&b, "%s %s (%s)\n", mark, r.Call.Label(), r.Outcome.Duration.Round(100*time.Microsecond))
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "    %s: %s\n", f.Expectation, f.Message)
			for i, ch := range f.Changes {
				if len(f.Changes) == 1 {
					break // the message names it
				}
				if i == diffChangesShown {
					fmt.Fprintf(&b, "      … %d more (--format json lists them all)\n", len(f.Changes)-i)
					break
				}
				fmt.Fprintf(&b, "      %s\n", ch.Describe(diffValueSize))
			}
		}
	}
	if rep.Passed() {
		fmt.Fprintf(&b, "%s: all %d calls passed\n", rep.Collection.Name, len(rep.Results))
	} else {
		fmt.Fprintf(&b, "%s: %d of %d calls failed\n", rep.Collection.Name, rep.Failed(), len(rep.Results))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// runReport is the --format json form of a run.
type runReport struct {
	Name   string    `json:"name"`
	Passed bool      `json:"passed"`
	Failed int       `json:"failed"`
	Calls  []runCall `json:"calls"`
}

type runCall struct {
	Name       string               `json:"name"`
	Method     string               `json:"method"`
	Passed     bool                 `json:"passed"`
	DurationNs time.Duration        `json:"durationNs"`
	Failures   []collection.Failure `json:"failures"`
}

func writeRunJSON(w io.Writer, rep *collection.Report) error {
	out := runReport{Name: rep.Collection.Name, Passed: rep.Passed(), Failed: rep.Failed(), Calls: []runCall{}}
	for _, r := range rep.Results {
		fs := r.Failures
		if fs == nil {
			fs = []collection.Failure{}
		}
		out.Calls = append(out.Calls, runCall{Name: r.Call.Label(), Method: r.Call.Method, Passed: r.Passed(), DurationNs: r.Outcome.Duration, Failures: fs})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
