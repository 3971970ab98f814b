package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestCtrlEnterGetsPromptAndReadsResource: mod+Enter does the main
// action of the screen shown, as it runs the tool on Tools: Get prompt on
// Prompts, Read on Resources (it ran the Tools screen's tool from there,
// or nothing). Both buttons carry the same "Ctrl+Enter" hint as Run.
func TestCtrlEnterGetsPromptAndReadsResource(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		if err := w.ShowScreenNow("Prompts"); err != nil {
			t.Fatal(err)
		}
		ss.prompts.list.Select(0) // p, whose who is required
		if err := ss.prompts.args.Set(map[string]string{"who": "Ana"}); err != nil {
			t.Fatal(err)
		}
		if s := texts(ss.prompts.formObj); !strings.Contains(s, "Ctrl+Enter") {
			t.Errorf("the prompt's form has no Ctrl+Enter hint beside Get prompt:\n%s", s)
		}
	})
	pressShortcut(w, fyne.KeyReturn)
	waitFor(t, "the prompt got by Ctrl+Enter", func() bool {
		return strings.Contains(texts(ss.prompts.msgs), "hello Ana")
	})

	Sync(func() {
		if err := w.ShowScreenNow("Resources"); err != nil {
			t.Fatal(err)
		}
		r := ss.resources
		for i, v := range r.view {
			if v.item >= 0 && r.rows[v.item].tmpl != nil {
				r.list.Select(i) // the greet template: nothing is read yet
			}
		}
		if r.params == nil {
			t.Fatal("the greet template shows no variables")
		}
		if err := r.params.Set(map[string]string{"lang": "en", "name": "Bo"}); err != nil {
			t.Fatal(err)
		}
		if s := texts(r.formObj); !strings.Contains(s, "Ctrl+Enter") {
			t.Errorf("the resource's pane has no Ctrl+Enter hint beside Read:\n%s", s)
		}
	})
	pressShortcut(w, fyne.KeyReturn)
	waitFor(t, "the template read by Ctrl+Enter", func() bool {
		return strings.Contains(texts(ss.resources.content), "contents of fake://greet/en/Bo")
	})
}

// TestShortcutHelpSaysCtrlEnterGetsAndReads: Help → Keyboard shortcuts
// says what mod+Enter does on Prompts and Resources too.
func TestShortcutHelpSaysCtrlEnterGetsAndReads(t *testing.T) {
	for _, s := range shortcutHelp {
		if s[0] != "mod+Enter" {
			continue
		}
		if !strings.Contains(s[1], "prompt") || !strings.Contains(s[1], "resource") {
			t.Errorf("mod+Enter is listed as %q: no word of prompts and resources", s[1])
		}
		return
	}
	t.Error("Help → Keyboard shortcuts does not list mod+Enter")
}
