package catalog

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DiskChanged reports whether the file now holds something other than
// what the catalog was read from or last saved (another program wrote it,
// replaced it or removed it). A catalog that was never read from a file
// has not changed.
func (c *Catalog) DiskChanged() (bool, error) {
	if c.path == "" || !c.disk.known {
		return false, nil
	}
	data, err := ReadFile(c.path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("catalog %s: %w", c.path, err)
	}
	if exists != c.disk.exists {
		return true, nil
	}
	return exists && sha256.Sum256(data) != c.disk.sum, nil
}

// Watch calls onChange, from its own goroutine, after the file at path may
// have changed on disk: written in place, replaced by a rename (editors
// and Spyglass's own atomic saves), created or removed. Bursts of events
// are coalesced: onChange runs once the file has been quiet for settle.
// The folder is watched, not the file, so that a replacement is seen; a
// symbolic link is followed to the file it names. onChange should compare
// the content (DiskChanged) before acting: Spyglass's own saves trigger it
// too. Watch returns nil when ctx ends, or the error that stopped it.
func Watch(ctx context.Context, path string, settle time.Duration, onChange func()) error {
	return watch(ctx, path, settle, nil, onChange)
}

// watch is Watch with armed, when set, called once the folder is watched:
// changes from then on are seen.
func watch(ctx context.Context, path string, settle time.Duration, armed, onChange func()) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	path = filepath.Clean(path)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", path, err)
	}
	defer w.Close()
	if err := w.Add(filepath.Dir(path)); err != nil {
		return fmt.Errorf("watch %s: %w", path, err)
	}
	if armed != nil {
		armed()
	}
	var timer *time.Timer
	var fire <-chan time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Clean(ev.Name) != path {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(settle)
			} else {
				timer.Reset(settle)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				onChange() // events were lost: look anyway
				continue
			}
			return fmt.Errorf("watch %s: %w", path, err)
		case <-fire:
			fire = nil
			onChange()
		}
	}
}
