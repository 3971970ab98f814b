package ui

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
)

// fakeSaver records what the window asks Options.SaveFile to write.
type fakeSaver struct {
	paths []string
	data  []string
	fail  error
}

func (f *fakeSaver) save(path string, write func(io.Writer) error) error {
	var b strings.Builder
	if err := write(&b); err != nil {
		return err
	}
	f.paths = append(f.paths, path)
	f.data = append(f.data, b.String())
	return f.fail
}

// saveOptions answers the save dialog with dir/name through Fyne's own
// writer, as the real dialog does, and saves through saver.
func saveOptions(dir string, saver *fakeSaver) *Options {
	return &Options{
		SaveDialog: func(name string, done func(fyne.URIWriteCloser, error)) {
			done(storage.Writer(storage.NewFileURI(filepath.Join(dir, name))))
		},
		SaveFile: saver.save,
	}
}

func TestSaveGoesThroughSaveFile(t *testing.T) {
	dir := t.TempDir()
	saver := &fakeSaver{}
	w, b, _ := connected(t, saveOptions(dir, saver))

	// a content block's Save… and the inspector's trace download
	Sync(func() {
		w.Save("contents.bin", []byte("\x00\x01data"))
		w.inspector.onDownload()
	})
	if len(saver.paths) != 2 {
		t.Fatalf("SaveFile was called for %q, want the content and the trace", saver.paths)
	}
	if want := filepath.Join(dir, "contents.bin"); saver.paths[0] != want || saver.data[0] != "\x00\x01data" {
		t.Errorf("content saved to %q as %q, want %q", saver.paths[0], saver.data[0], want)
	}
	if !strings.HasPrefix(filepath.Base(saver.paths[1]), "spyglass-trace-fake-") || !strings.Contains(saver.data[1], `"conn":"fake"`) {
		t.Errorf("trace saved to %q as %q", saver.paths[1], saver.data[1])
	}
	// the content never went through Fyne's writer
	if got, err := os.ReadFile(saver.paths[0]); err != nil || len(got) != 0 {
		t.Errorf("Fyne's writer wrote %q (%v); the saver alone must write", got, err)
	}
	if ts := strings.Join(w.toasts.texts(), "\n"); !strings.Contains(ts, "Saved "+saver.paths[0]) {
		t.Errorf("toasts = %q, want Saved and the path", ts)
	}
	_ = b
}

func TestSaveErrorIsShown(t *testing.T) {
	dir := t.TempDir()
	saver := &fakeSaver{fail: errors.New("no space left on device")}
	w, _, _ := connected(t, saveOptions(dir, saver))
	Sync(func() { w.Save("out.json", []byte("{}")) })
	want := "Could not save " + filepath.Join(dir, "out.json") + ": No space left on device"
	if ts := strings.Join(w.toasts.texts(), "\n"); !strings.Contains(ts, want) || strings.Contains(ts, "Saved ") {
		t.Errorf("toasts = %q, want %q", ts, want)
	}
}

func TestSaveWithoutSaveFileUsesDialogWriter(t *testing.T) {
	dir := t.TempDir()
	opts := saveOptions(dir, &fakeSaver{})
	opts.SaveFile = nil
	w, _, _ := connected(t, opts)
	Sync(func() { w.Save("plain.txt", []byte("hello")) })
	if got, err := os.ReadFile(filepath.Join(dir, "plain.txt")); err != nil || string(got) != "hello" {
		t.Errorf("file = %q (%v), want hello", got, err)
	}
}
