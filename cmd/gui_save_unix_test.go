//go:build unix

package cmd

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestGUISaveFileFIFOInPlace: a FIFO chosen in the save dialog is written
// in place and stays a FIFO.
func TestGUISaveFileFIFOInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := guiOptions().SaveFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "through"); return err }); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, _ := r.Read(buf)
	if string(buf[:n]) != "through" {
		t.Errorf("the reader got %q", buf[:n])
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
}
