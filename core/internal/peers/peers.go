// Package peers forwards to core/testpeers, where the helpers moved so
// that cmd/ and ui/ tests can use them too. Import core/testpeers instead;
// this forwarder goes once nothing imports it.
package peers

import "github.com/spyglass-mcp/spyglass/core/testpeers"

// Forwarded helpers and constants; see core/testpeers.
var (
	Root    = testpeers.Root
	Modules = testpeers.Modules
	File    = testpeers.File
	Node    = testpeers.Node
	Node22  = testpeers.Node22
)

// Forwarded constants; see core/testpeers.
const (
	Everything = testpeers.Everything
	Filesystem = testpeers.Filesystem
	Memory     = testpeers.Memory
)
