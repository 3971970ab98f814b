// Package capture lists the tools of an MCP server over a stdio-style pair
// of streams with plain JSON-RPC (initialize, notifications/initialized,
// tools/list with pagination), keeping each inputSchema byte for byte. The
// schemaform tests use it to record real servers' schemas as test data.
package capture

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// Tool is one listed tool: its name and its raw input schema.
type Tool struct {
	Name        string
	InputSchema json.RawMessage
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Tools talks to a server reading its messages from r and writing to w,
// one JSON message per line. The client declares the roots, sampling and
// elicitation capabilities so servers register all their tools; it
// answers roots/list with no roots and any other server request with an
// error.
func Tools(ctx context.Context, r io.Reader, w io.Writer) ([]Tool, error) {
	lines := make(chan []byte)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			select {
			case lines <- append([]byte(nil), sc.Bytes()...):
			case <-ctx.Done():
				return
			}
		}
		errc <- fmt.Errorf("server closed its output: %w", errors.Join(sc.Err(), io.EOF))
	}()
	send := func(s string) error {
		_, err := io.WriteString(w, s+"\n")
		return err
	}
	await := func(id string) (json.RawMessage, error) {
		for {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case err := <-errc:
				return nil, err
			case l := <-lines:
				var m message
				if json.Unmarshal(l, &m) != nil {
					continue
				}
				if m.Method != "" && m.ID != nil {
					reply := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"not supported"}}`
					if m.Method == "roots/list" {
						reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"roots":[]}}`
					}
					if err := send(reply); err != nil {
						return nil, err
					}
					continue
				}
				if string(m.ID) == id && m.Method == "" {
					if m.Error != nil {
						return nil, fmt.Errorf("request %s failed: %s", id, m.Error)
					}
					return m.Result, nil
				}
			}
		}
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},` +
		`"clientInfo":{"name":"spyglass-schema-capture","version":"0"}}}`
	if err := send(init); err != nil {
		return nil, err
	}
	if _, err := await("1"); err != nil {
		return nil, err
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return nil, err
	}
	var tools []Tool
	cursor := ""
	for id := 2; id < 100; id++ {
		params := `{}`
		if cursor != "" {
			c, _ := json.Marshal(cursor)
			params = `{"cursor":` + string(c) + `}`
		}
		if err := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":%s}`, id, params)); err != nil {
			return nil, err
		}
		res, err := await(fmt.Sprint(id))
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, err
		}
		for _, t := range page.Tools {
			tools = append(tools, Tool{Name: t.Name, InputSchema: t.InputSchema})
		}
		if page.NextCursor == "" {
			return tools, nil
		}
		cursor = page.NextCursor
	}
	return tools, errors.New("too many tools/list pages")
}

// Command runs a server process and lists its tools, stopping the
// process afterwards. env is added to the inherited environment.
func Command(ctx context.Context, name string, args, env []string) ([]Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(cmd.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	return Tools(ctx, out, in)
}
