package collection

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// DefaultDir is $XDG_DATA_HOME/spyglass/collections, where collections
// live unless the user keeps one elsewhere (a project folder).
func DefaultDir() string { return filepath.Join(xdg.DataHome, "spyglass", "collections") }

// FromExchange makes a saved call of a recorded request, expecting the
// recorded outcome: the same result (after the ignore list), or the same
// JSON-RPC error code.
func FromExchange(x *sessiondiff.Exchange) (Call, error) {
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(x.Request, &req); err != nil || req.Method == "" {
		return Call{}, fmt.Errorf("collection: the recorded request is not a JSON-RPC request: %v", err)
	}
	c := Call{Method: req.Method, Params: req.Params}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *ErrorCode      `json:"error"`
	}
	if len(x.Response) > 0 && json.Unmarshal(x.Response, &resp) == nil {
		switch {
		case resp.Error != nil:
			c.Expect = &Expect{Error: resp.Error}
		case len(resp.Result) > 0:
			c.Expect = &Expect{Result: resp.Result}
		}
	}
	return c, nil
}

// Append adds a call to the collection file at path, creating the file
// (named name, for server) when it does not exist yet, and saves it
// atomically.
func Append(path, name string, server *Server, call Call) error {
	c := &Collection{Format: Format, FormatVersion: FormatVersion, Name: name, Server: server}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("collection: %w", err)
	default:
		if c, err = Read(bytes.NewReader(b)); err != nil {
			return err
		}
	}
	c.Calls = append(c.Calls, call)
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("collection: %w", err)
	}
	if err := catalog.WriteAtomic(path, buf.Bytes(), nil); err != nil {
		return fmt.Errorf("collection: save %s: %w", path, err)
	}
	return nil
}
