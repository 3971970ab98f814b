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
)

// ErrNoReader is wrapped by WriteOutput when the path is a FIFO that no
// process has open for reading (writing would wait for one forever).
var ErrNoReader = errors.New("no process is reading the FIFO")

// WriteOutput writes data to a file the user named (a trace, an export,
// a download) without ever replacing something that is not a file:
//
//   - a new path, or an existing regular file, is written atomically
//     (WriteAtomic; a symlink is followed and stays a symlink);
//   - anything else that exists there — a FIFO, a terminal, /dev/null, a
//     pipe behind /dev/stdout — is opened and written in place, and stays
//     what it was;
//   - paths under /dev/ and /proc/ (/dev/stdout, /dev/fd/3) are always
//     written in place, appending: when they stand for a file the shell
//     redirected to, what the program already wrote there is kept.
//
// A FIFO nobody reads is an error wrapping ErrNoReader, not a wait.
func WriteOutput(path string, data []byte) error {
	return WriteOutputFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteOutputFunc is WriteOutput for content too large to hold whole in
// memory a second time (a trace of large messages): write streams it to
// the file, temporary or in place. An error from write ends the write
// (a temporary file is removed) and is returned wrapped.
func WriteOutputFunc(path string, write func(io.Writer) error) error {
	atomic := func() error {
		return writeAtomic(path, nil, func(w io.Writer, partial func() error) error {
			if err := write(w); err != nil {
				return err
			}
			return partial()
		})
	}
	st, err := os.Stat(path) // follows symlinks: /dev/stdout → the pipe
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return atomic()
	case err != nil:
		return fmt.Errorf("write %s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("write %s: it is a folder; give a file name", path)
	case st.Mode().IsRegular() && !isDeviceAlias(path):
		return atomic()
	}
	// O_NONBLOCK: opening a FIFO without a reader fails (ENXIO) instead of
	// waiting; Go still waits for a full pipe to drain when writing.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ENXIO) {
		return fmt.Errorf("write %s: %w (start the reader first)", path, ErrNoReader)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// isDeviceAlias reports whether path names a file through /dev or /proc
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N), which must never be replaced.
func isDeviceAlias(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	abs = filepath.ToSlash(abs)
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}
