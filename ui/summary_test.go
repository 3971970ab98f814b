package ui

import (
	"strings"
	"testing"
)

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

// TestCardCauseReadsAsASentence: a failed server's card says its cause
// as the server's page does, capitalised ("Cannot reach …", where the card
// said "cannot reach …" under a page that said "Cannot reach …").
func TestCardCauseReadsAsASentence(t *testing.T) {
	w, b, _ := connected(t, nil)
	addFailedServer(t, w, b)
	Sync(func() {
		if got := w.list.cards[w.server("bad")].cause.Text; !strings.HasPrefix(got, "Cannot reach http://127.0.0.1:9/mcp") {
			t.Errorf("the card's cause reads %q", got)
		}
	})
}
