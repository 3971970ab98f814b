package ui

import "testing"

// TestSummaryQuotesArguments: a card's command line shows where each
// argument begins and ends, as the server form writes it, with secrets
// still masked.
func TestSummaryQuotesArguments(t *testing.T) {
	c := ServerConfig{Transport: "stdio", Command: "/opt/my tools/server", Args: []string{"--name", "My Project", "--api-key", "sk-123", "plain"}}
	want := `"/opt/my tools/server" --name "My Project" --api-key **** plain`
	if got := c.Summary(); got != want {
		t.Errorf("Summary() = %s, want %s", got, want)
	}
}
