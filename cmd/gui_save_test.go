package cmd

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestGUISaveFileIsAtomic: the saver the window is given replaces a
// regular file atomically: a write that fails half way leaves the old
// content, one that succeeds leaves the new.
func TestGUISaveFileIsAtomic(t *testing.T) {
	save := guiOptions().SaveFile
	if save == nil {
		t.Fatal("the window has no SaveFile: saves would go through Fyne's writer")
	}
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("the log closed")
	err := save(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "half of the new"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the write's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after a failed save the file holds %q, want the old content", got)
	}
	if err := save(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("file = %q, want new", got)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(m) != 1 {
		t.Errorf("files left beside it: %q", m)
	}
}
