package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// Note is one saved note in the notes file.
type Note struct {
	Text    string    `json:"text"`
	SavedAt time.Time `json:"savedAt"`
}

// notesFile is the JSON document kept in the notes file.
type notesFile struct {
	Notes []Note `json:"notes"`
}

// notesStore reads and appends notes in one file. Writes are durable before
// they return (fsync of the file and its folder), because flaky_write crashes
// the process right after.
type notesStore struct {
	path string
	mu   sync.Mutex
}

// ReadNotes returns the notes saved in the notes file at path (none when the
// file does not exist).
func ReadNotes(path string) ([]Note, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read notes: %w", err)
	}
	var f notesFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("read notes %s: %w", path, err)
	}
	return f.Notes, nil
}

func (s *notesStore) list() ([]Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ReadNotes(s.path)
}

func (s *notesStore) add(text string) (Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	notes, err := ReadNotes(s.path)
	if err != nil {
		return Note{}, err
	}
	n := Note{Text: text, SavedAt: time.Now().UTC().Truncate(time.Millisecond)}
	notes = append(notes, n)
	return n, s.write(notes)
}

func (s *notesStore) clear() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	notes, err := ReadNotes(s.path)
	if err != nil {
		return 0, err
	}
	if len(notes) == 0 {
		return 0, nil
	}
	return len(notes), s.write(nil)
}

// write replaces the notes file atomically and durably.
func (s *notesStore) write(notes []Note) error {
	if notes == nil {
		notes = []Note{}
	}
	b, err := json.MarshalIndent(notesFile{Notes: notes}, "", "  ")
	if err != nil {
		return fmt.Errorf("write notes: %w", err)
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write notes: %w", err)
	}
	if err := catalog.WriteAtomic(s.path, append(b, '\n'), nil); err != nil {
		return fmt.Errorf("write notes: %w", err)
	}
	return nil
}
