//go:build unix

package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteOutputKeepsWhatIsThere: a user-chosen output path that is not a
// regular file (a FIFO, a character device, a file reached through
// /dev/fd) is written in place and stays what it was (issue #11.1: it used
// to be replaced by a regular file through a rename).
func TestWriteOutputKeepsWhatIsThere(t *testing.T) {
	data := []byte(`{"format":"spyglass-trace"}` + "\n")
	big := []byte(strings.Repeat("x", 256<<10)) // more than a pipe holds

	t.Run("fifo with a reader", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "trace.fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		// A reader from the start, and a writer of the test's own that
		// keeps the reader from EOF until WriteOutput returned.
		r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		keep, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte, 1)
		go func() {
			b, _ := io.ReadAll(r)
			got <- b
		}()
		err = WriteOutput(path, big)
		keep.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b := <-got; string(b) != string(big) {
			t.Errorf("the reader got %d bytes, want the %d written", len(b), len(big))
		}
		assertMode(t, path, fs.ModeNamedPipe)
	})

	t.Run("fifo without a reader", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "trace.fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		err := WriteOutput(path, data)
		if !errors.Is(err, ErrNoReader) {
			t.Fatalf("err = %v, want ErrNoReader", err)
		}
		assertMode(t, path, fs.ModeNamedPipe)
	})

	t.Run("character device", func(t *testing.T) {
		path := "/dev/null" // cannot be replaced without root
		if os.Geteuid() == 0 {
			// As root the old code replaced the system's /dev/null; test
			// on a private null device (major 1, minor 3) instead.
			path = filepath.Join(t.TempDir(), "null")
			if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Fatal(err)
			}
		}
		if err := WriteOutput(path, data); err != nil {
			t.Fatal(err)
		}
		assertMode(t, path, fs.ModeDevice|fs.ModeCharDevice)
	})

	t.Run("file behind /dev/fd appends", func(t *testing.T) {
		// What `spyglass --trace /dev/stdout > out.json` meets: stdout is a
		// regular file that already holds the printed result.
		path := filepath.Join(t.TempDir(), "out.json")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("result\n"); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(path)
		alias := fmt.Sprintf("/dev/fd/%d", f.Fd())
		if err := WriteOutput(alias, data); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(before, after) {
			t.Error("the file behind /dev/fd was replaced")
		}
		if b, _ := os.ReadFile(path); string(b) != "result\n"+string(data) {
			t.Errorf("content %q, want the result followed by the data", b)
		}
	})

	t.Run("folder", func(t *testing.T) {
		if err := WriteOutput(t.TempDir(), data); err == nil {
			t.Error("writing to a folder succeeded")
		}
	})
}

// TestWriteOutputFiles: new paths and regular files are written whole;
// a symlink to a file is followed and stays a symlink.
func TestWriteOutputFiles(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.json")
	if err := WriteOutput(fresh, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(fresh, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "two" {
		t.Errorf("content %q, want two", b)
	}
	assertMode(t, fresh, 0)

	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fresh, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(link, []byte("three")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", st, err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "three" {
		t.Errorf("target content %q, want three", b)
	}
}

// assertMode checks the type bits of path (0: a regular file).
func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Type(); got != want {
		t.Errorf("%s is now %v, want %v", path, got, want)
	}
}

// TestWriteOutputFuncStreams: WriteOutputFunc hands the writer the file
// itself (no buffer of the whole content: a trace may be hundreds of MB),
// and an error from the writer leaves an existing file as it was.
func TestWriteOutputFuncStreams(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.json")
	chunk := []byte(strings.Repeat("x", 1<<20))
	if err := WriteOutputFunc(path, func(w io.Writer) error {
		if _, ok := w.(*os.File); !ok {
			return fmt.Errorf("the writer is a %T, not the file", w)
		}
		for range 4 {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 4<<20 {
		t.Fatalf("wrote %v (%v), want 4 MiB", st, err)
	}
	boom := errors.New("boom")
	err := WriteOutputFunc(path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the writer's", err)
	}
	if st, _ := os.Stat(path); st.Size() != 4<<20 {
		t.Errorf("a failed write changed the file: %d bytes", st.Size())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
