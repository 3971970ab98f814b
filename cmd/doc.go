// Package cmd parses Spyglass's command line, picks the mode (desktop app,
// --cli client, demo server, conformance client) and wires core/ to ui/.
// It is the only package that imports both.
package cmd
