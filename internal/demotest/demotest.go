// Package demotest serves the built-in demo server (core/demo) in-process
// over Streamable HTTP, for the tests of core and cmd.
package demotest

import (
	"context"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/demo"
)

// URL serves a demo server made with opts (nil: the defaults) over
// Streamable HTTP on a free loopback port until the test ends, and returns
// its MCP endpoint. Notes go to a temporary folder unless opts names one.
func URL(tb testing.TB, opts *demo.Options) string {
	tb.Helper()
	o := demo.Options{}
	if opts != nil {
		o = *opts
	}
	if o.NotesDir == "" {
		o.NotesDir = tb.TempDir()
	}
	ctx, cancel := context.WithCancel(context.Background())
	urlc := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- demo.ServeHTTP(ctx, demo.New(&o), 0, func(u string) { urlc <- u }) }()
	tb.Cleanup(func() { cancel(); <-done })
	select {
	case u := <-urlc:
		return u
	case err := <-done:
		tb.Fatalf("demo server: %v", err)
	}
	return ""
}
