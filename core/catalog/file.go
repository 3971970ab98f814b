package catalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// Step names one step of an atomic write, for WriteOptions.Hook.
type Step int

// The steps of WriteAtomic, in order.
const (
	StepCreateTemp   Step = iota // create the temporary file next to the target
	StepWrite                    // write the first half of the data
	StepWritePartial             // write the rest (the temp file is torn before this)
	StepSyncTemp                 // fsync the temporary file
	StepCloseTemp                // close it
	StepRename                   // rename it over the target
	StepSyncDir                  // fsync the directory
)

// Steps lists every step, for tests that crash at each one.
var Steps = []Step{StepCreateTemp, StepWrite, StepWritePartial, StepSyncTemp, StepCloseTemp, StepRename, StepSyncDir}

// String names the step ("create-temp", "rename", ...).
func (s Step) String() string {
	switch s {
	case StepCreateTemp:
		return "create-temp"
	case StepWrite:
		return "write"
	case StepWritePartial:
		return "write-partial"
	case StepSyncTemp:
		return "sync-temp"
	case StepCloseTemp:
		return "close-temp"
	case StepRename:
		return "rename"
	case StepSyncDir:
		return "sync-dir"
	}
	return fmt.Sprintf("step(%d)", int(s))
}

// WriteOptions tunes WriteAtomic and Save.
type WriteOptions struct {
	// Hook, when set, runs before each step. A non-nil error stops the
	// write right there, as a crash would: nothing is cleaned up and the
	// error is returned (wrapped). Tests use it with ErrSimulatedCrash.
	Hook func(Step) error
	// Perm is the mode of a new file (default 0600: a catalog may hold
	// environment values). An existing file keeps its mode.
	Perm fs.FileMode
}

// lockName is the lock file beside the catalog, used by Save.
func lockName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// tempPattern names temporary files: hidden, next to the target.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// WriteAtomic replaces path with data so that a crash at any point leaves
// either the old content or the new one: it writes a temporary file in the
// same folder, fsyncs it, renames it over path and fsyncs the folder.
// A symlink at path is followed (its target is replaced).
func WriteAtomic(path string, data []byte, opts *WriteOptions) error {
	half := len(data) / 2
	return writeAtomic(path, opts, func(w io.Writer, partial func() error) error {
		if _, err := w.Write(data[:half]); err != nil {
			return err
		}
		if err := partial(); err != nil {
			return err
		}
		_, err := w.Write(data[half:])
		return err
	})
}

// writeAtomic is WriteAtomic with the content streamed by write, which
// calls partial once midway (the StepWritePartial hook).
func writeAtomic(path string, opts *WriteOptions, write func(w io.Writer, partial func() error) error) (err error) {
	var o WriteOptions
	if opts != nil {
		o = *opts
	}
	if o.Perm == 0 {
		o.Perm = 0o600
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if st, err := os.Stat(path); err == nil {
		o.Perm = st.Mode().Perm()
	}
	step := func(s Step) error {
		if o.Hook == nil {
			return nil
		}
		if err := o.Hook(s); err != nil {
			return fmt.Errorf("write %s: %s: %w", path, s, err)
		}
		return nil
	}
	dir := filepath.Dir(path)
	if err := step(StepCreateTemp); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	crashed := false
	defer func() {
		if err != nil && !crashed {
			f.Close()
			os.Remove(tmp)
		}
	}()
	fail := func(e error) error {
		crashed = true
		return e
	}
	if err := step(StepWrite); err != nil {
		return fail(err)
	}
	var hookErr error
	werr := write(f, func() error {
		hookErr = step(StepWritePartial)
		return hookErr
	})
	if hookErr != nil {
		return fail(hookErr)
	}
	if werr != nil {
		return fmt.Errorf("write %s: %w", tmp, werr)
	}
	if err := f.Chmod(o.Perm); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := step(StepSyncTemp); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: fsync: %w", tmp, err)
	}
	if err := step(StepCloseTemp); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := step(StepRename); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := step(StepSyncDir); err != nil {
		crashed = true // the rename happened; nothing left to clean
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory so a rename in it is durable. Platforms that
// cannot open a directory for syncing (Windows) skip it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isUnsupported(err) {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}

func isUnsupported(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && (errors.Is(pe.Err, errors.ErrUnsupported))
}

// MaxFileSize bounds what ReadFile reads: far more than any server list.
const MaxFileSize = 16 << 20

// ReadFile reads a catalog, config or import file: it must be a regular
// file (ErrNotRegular for a FIFO, a device, a folder: reading one could
// wait or run forever) of at most MaxFileSize bytes (ErrTooLarge). A
// symbolic link to a missing file is a *LinkError.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if target, lerr := os.Readlink(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
			return nil, &LinkError{Path: path, Target: target}
		}
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w (the limit is %d MiB)", path, ErrTooLarge, MaxFileSize>>20)
	}
	return data, nil
}

// Load reads a writable catalog. A missing file is an error wrapping
// fs.ErrNotExist; a malformed one a *SyntaxError. As with Parse, an
// *InvalidError comes with a usable catalog.
func Load(path string) (*Catalog, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	c, perr := parse(path, data)
	if c != nil {
		c.disk = stateOf(data, true)
	}
	return c, perr
}

// LoadReadOnly reads a file for a read-only session (--config): missing is
// an error, the file is never written, seeded or migrated, and Save on the
// result returns ErrReadOnly.
func LoadReadOnly(path string) (*Catalog, error) {
	c, err := Load(path)
	if le := (*LinkError)(nil); errors.As(err, &le) {
		le.ReadOnly = true
	}
	if c != nil {
		c.readOnly = true
	}
	return c, err
}

// LoadOrCreate reads a writable catalog, creating it with the seed (see
// Seed) when it does not exist. created reports whether this call wrote
// it. Creation never replaces a file that appeared meanwhile: when two
// processes seed at once, one writes and the other reads what it wrote.
func LoadOrCreate(path string) (c *Catalog, created bool, err error) {
	c, err = Load(path)
	var le *LinkError
	if !errors.Is(err, fs.ErrNotExist) || errors.As(err, &le) {
		return c, false, err // a link to a missing file is not replaced
	}
	if err := createExclusive(path, []byte(Seed)); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, fmt.Errorf("create catalog: %w", err)
		}
	} else {
		created = true
	}
	c, err = Load(path)
	return c, created, err
}

// createExclusive writes data to path only if path does not exist, without
// a moment where path exists but is incomplete: it writes a temp file and
// hard-links it into place (link fails when the name is taken).
func createExclusive(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		// file systems without hard links: fall back to an exclusive create
		g, err2 := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err2 != nil {
			return err2
		}
		if _, err2 = g.Write(data); err2 == nil {
			err2 = g.Sync()
		}
		if cerr := g.Close(); err2 == nil {
			err2 = cerr
		}
		return err2
	}
	return syncDir(dir)
}

// Save writes the catalog back to its file atomically (see WriteAtomic).
// Only changed entries are re-rendered; when nothing changed, nothing is
// written. If the file changed on disk since it was read (or last saved),
// Save writes nothing and returns a *ConflictError: reload and apply the
// change again (Update does that). Spyglass processes serialize their
// saves with a lock file beside the catalog (".mcp.json.lock", left in
// place), so two of them cannot both pass that check.
func (c *Catalog) Save(opts *WriteOptions) error {
	if c.readOnly || c.path == "" {
		return fmt.Errorf("save %s: %w", c.path, ErrReadOnly)
	}
	data := c.Bytes()
	path := c.path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	// The lock makes "check that nobody wrote, then replace" one step for
	// every Spyglass process; the check catches writers that do not lock.
	unlock, err := lockFile(path)
	if err != nil {
		return fmt.Errorf("save %s: lock: %w", c.path, err)
	}
	defer unlock()
	onDisk, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("save %s: %w", c.path, err)
	}
	if c.disk.known && (exists != c.disk.exists || exists && sha256.Sum256(onDisk) != c.disk.sum) {
		return &ConflictError{Path: c.path}
	}
	if exists && bytes.Equal(onDisk, data) {
		return nil
	}
	if err := WriteAtomic(path, data, opts); err != nil {
		return err
	}
	return c.reset(data)
}

// reset makes data the new baseline after a save, keeping secrets that
// live in memory only.
func (c *Catalog) reset(data []byte) error {
	n, err := parse(c.path, data)
	if n == nil {
		return err
	}
	secrets := map[string]string{}
	for _, e := range c.entries {
		if e.cur.OAuth != nil && e.cur.OAuth.ClientSecret != "" {
			secrets[e.name] = e.cur.OAuth.ClientSecret
		}
	}
	for _, e := range n.entries {
		if s, ok := secrets[e.name]; ok && secretOf(e.cur.OAuth) != s {
			if e.cur.OAuth == nil {
				e.cur.OAuth = &OAuth{}
			}
			e.cur.OAuth.ClientSecret = s
		}
	}
	n.readOnly = c.readOnly
	n.disk = stateOf(data, true)
	*c = *n
	return nil
}

// Update loads the catalog at path (creating it with the seed when
// missing), applies fn and saves, retrying from a fresh read when another
// writer changed the file in between, so neither writer's change is lost.
// fn may run more than once; it must only change the catalog it is given.
// A fn error aborts without saving.
func Update(path string, opts *WriteOptions, fn func(*Catalog) error) error {
	// Up to 20 tries, a few milliseconds apart at first: another Spyglass
	// holds the lock only for the time of one write.
	wait := &backoff.ExponentialBackOff{InitialInterval: 2 * time.Millisecond, RandomizationFactor: 0.5, Multiplier: 1.5, MaxInterval: 100 * time.Millisecond}
	_, err := backoff.Retry(context.Background(), func() (struct{}, error) {
		c, _, err := LoadOrCreate(path)
		var inv *InvalidError
		if c == nil || err != nil && !errors.As(err, &inv) {
			return struct{}{}, backoff.Permanent(err)
		}
		if err := fn(c); err != nil {
			return struct{}{}, backoff.Permanent(err)
		}
		err = c.Save(opts)
		if err != nil && !errors.Is(err, ErrConflict) {
			err = backoff.Permanent(err)
		}
		return struct{}{}, err // a conflict is tried again
	}, backoff.WithBackOff(wait), backoff.WithMaxTries(20))
	return err
}

// Rebase re-reads the file and re-applies on top of it the changes made in
// memory since the catalog was read or last saved — added, changed,
// renamed and removed entries — so that after a *ConflictError a Save
// keeps both writers' work. Where both sides changed the same entry, the
// in-memory version wins. A file that became malformed is an error and
// leaves the catalog as it was.
func (c *Catalog) Rebase() error {
	if c.path == "" {
		return fmt.Errorf("rebase: %w", ErrReadOnly)
	}
	data, err := ReadFile(c.path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rebase %s: %w", c.path, err)
	}
	var fresh *Catalog
	if exists {
		fresh, err = parse(c.path, data)
		if fresh == nil {
			return err
		}
	} else {
		fresh = New()
		fresh.path = c.path
	}
	fresh.readOnly = c.readOnly
	fresh.disk = stateOf(data, exists)

	kept := map[string]bool{}
	for _, e := range c.entries {
		if e.orig != nil {
			kept[e.orig.name] = true
		}
	}
	if c.servers != nil {
		for _, m := range c.servers.members {
			if !kept[m.key] {
				fresh.Delete(m.key) // removed here
			}
		}
	}
	for _, e := range c.entries {
		if e.orig != nil && e.name != e.orig.name && fresh.find(e.orig.name) >= 0 && fresh.find(e.name) < 0 {
			fresh.Rename(e.orig.name, e.name)
		}
	}
	for _, e := range c.entries {
		if e.orig != nil && !e.changed() && secretOf(e.cur.OAuth) == secretOf(e.orig.srv.OAuth) {
			continue // untouched here: the file's version stands
		}
		if i := fresh.find(e.name); i >= 0 {
			fresh.entries[i].cur = e.cur.Clone()
			if e.orig == nil {
				fresh.entries[i].extras = slices.Clone(e.extras)
			}
			continue
		}
		fresh.entries = append(fresh.entries, &entry{name: e.name, cur: e.cur.Clone(), extras: slices.Clone(e.extras)})
	}
	*c = *fresh
	return nil
}
