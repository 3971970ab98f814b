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

// client is a minimal JSON-RPC client over line-delimited streams.
type client struct {
	ctx   context.Context
	lines chan []byte
	errc  chan error
	w     io.Writer
	// elicit answers elicitation/create (params in, result out); nil
	// answers with an error.
	elicit func(params json.RawMessage) string
}

func newClient(ctx context.Context, r io.Reader, w io.Writer) *client {
	c := &client{ctx: ctx, lines: make(chan []byte), errc: make(chan error, 1), w: w}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			select {
			case c.lines <- append([]byte(nil), sc.Bytes()...):
			case <-ctx.Done():
				return
			}
		}
		c.errc <- fmt.Errorf("server closed its output: %w", errors.Join(sc.Err(), io.EOF))
	}()
	return c
}

func (c *client) send(s string) error {
	_, err := io.WriteString(c.w, s+"\n")
	return err
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// await answers server requests until the response to id arrives.
func (c *client) await(id string) (json.RawMessage, error) {
	for {
		select {
		case <-c.ctx.Done():
			return nil, c.ctx.Err()
		case err := <-c.errc:
			return nil, err
		case l := <-c.lines:
			var m message
			if json.Unmarshal(l, &m) != nil {
				continue
			}
			if m.Method != "" && m.ID != nil {
				reply := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"not supported"}}`
				switch {
				case m.Method == "roots/list":
					reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"roots":[]}}`
				case m.Method == "elicitation/create" && c.elicit != nil:
					reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + c.elicit(m.Params) + `}`
				}
				if err := c.send(reply); err != nil {
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

// initialize performs the handshake. The client declares the roots,
// sampling and elicitation capabilities so servers register all their
// tools.
func (c *client) initialize() error {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},` +
		`"clientInfo":{"name":"spyglass-schema-capture","version":"0"}}}`
	if err := c.send(init); err != nil {
		return err
	}
	if _, err := c.await("1"); err != nil {
		return err
	}
	return c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// Tools talks to a server reading its messages from r and writing to w,
// one JSON message per line: it initializes and lists every tool. It
// answers roots/list with no roots and other server requests with an
// error.
func Tools(ctx context.Context, r io.Reader, w io.Writer) ([]Tool, error) {
	c := newClient(ctx, r, w)
	if err := c.initialize(); err != nil {
		return nil, err
	}
	var tools []Tool
	cursor := ""
	for id := 2; id < 100; id++ {
		params := `{}`
		if cursor != "" {
			b, _ := json.Marshal(cursor)
			params = `{"cursor":` + string(b) + `}`
		}
		if err := c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":%s}`, id, params)); err != nil {
			return nil, err
		}
		res, err := c.await(fmt.Sprint(id))
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

// Elicitations initializes, calls the tool with args, and returns the
// requestedSchema of every form elicitation/create the server sends
// while the call runs, and the tool's result. answer returns the result
// to send back for a given requestedSchema (for example
// {"action":"decline"}).
func Elicitations(ctx context.Context, r io.Reader, w io.Writer, tool string, args json.RawMessage,
	answer func(schema json.RawMessage) string) ([]json.RawMessage, json.RawMessage, error) {
	c := newClient(ctx, r, w)
	var schemas []json.RawMessage
	c.elicit = func(params json.RawMessage) string {
		var p struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		_ = json.Unmarshal(params, &p)
		schemas = append(schemas, p.RequestedSchema)
		return answer(p.RequestedSchema)
	}
	if err := c.initialize(); err != nil {
		return nil, nil, err
	}
	name, _ := json.Marshal(tool)
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	if err := c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + string(args) + `}}`); err != nil {
		return nil, nil, err
	}
	res, err := c.await("2")
	return schemas, res, err
}

// Run starts a server process, hands its stdout and stdin to talk, and
// stops the process afterwards. env is added to the inherited
// environment.
func Run(ctx context.Context, name string, args, env []string, talk func(ctx context.Context, r io.Reader, w io.Writer) error) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(cmd.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	return talk(ctx, out, in)
}

// Command runs a server process and lists its tools, stopping the
// process afterwards. env is added to the inherited environment.
func Command(ctx context.Context, name string, args, env []string) ([]Tool, error) {
	var tools []Tool
	err := Run(ctx, name, args, env, func(ctx context.Context, r io.Reader, w io.Writer) error {
		var err error
		tools, err = Tools(ctx, r, w)
		return err
	})
	return tools, err
}
