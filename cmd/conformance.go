package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/elicit"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Environment variables set by the MCP conformance suite
// (@modelcontextprotocol/conformance) for the client under test.
const (
	envConformanceScenario = "MCP_CONFORMANCE_SCENARIO"
	envConformanceContext  = "MCP_CONFORMANCE_CONTEXT"
	// envConformanceVersion is the protocol version the scenario's server
	// speaks (2025-11-25 unless the scenario is 2026-07-28 only, or the
	// suite runs a --spec-version or --requirements set).
	envConformanceVersion = "MCP_CONFORMANCE_PROTOCOL_VERSION"
)

// conformanceTimeout bounds one scenario; the suite kills the client
// after 30 s.
const conformanceTimeout = 25 * time.Second

// runConformanceClient is `spyglass --conformance-client URL` (hidden from
// --help): the client the MCP conformance suite drives. It reads the
// scenario from MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT),
// does the scenario's work through core/session and core/wire — the code
// the app uses — and exits by itself: 0 when everything it did succeeded.
// args are the arguments after --conformance-client; the URL is the last.
func runConformanceClient(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[len(args)-1], "-") {
		fmt.Fprintln(stderr, "usage: spyglass --conformance-client URL")
		return 2
	}
	url := args[len(args)-1]
	scenario := os.Getenv(envConformanceScenario)
	cc := conformanceContext{}
	if raw := os.Getenv(envConformanceContext); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			fmt.Fprintf(stderr, "conformance client: %s is not JSON: %v\n", envConformanceContext, err)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), conformanceTimeout)
	defer cancel()
	log := events.New(nil)
	err := runConformanceScenario(ctx, log, scenario, url, os.Getenv(envConformanceVersion), cc, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "conformance client: scenario %q: %v\n", scenario, err)
		dumpEvents(stderr, log)
		return 1
	}
	fmt.Fprintf(stdout, "conformance client: scenario %q done\n", scenario)
	return 0
}

// conformanceContext is MCP_CONFORMANCE_CONTEXT: the scenario name and, for
// the auth scenarios, credentials. Unknown fields are ignored.
type conformanceContext struct {
	Name             string `json:"name"`
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPIssuer        string `json:"idp_issuer"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
	// ValidJWT is the workload JWT of auth/wif-jwt-bearer.
	ValidJWT string `json:"valid_jwt"`
	// ToolCalls are the calls a scenario wants made (http-custom-headers).
	ToolCalls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
}

// conformanceClientMetadataURL is the client ID metadata document URL the
// suite expects a client that supports CIMD to present.
const conformanceClientMetadataURL = "https://conformance-test.local/client-metadata.json"

// conformanceConnection prepares the connection the app would make to an
// http server, with OAuth as the auth scenarios ask for it: the suite's
// credentials, grant and enterprise IdP token from MCP_CONFORMANCE_CONTEXT,
// and a headless browser that follows the authorization redirects itself.
func conformanceConnection(ctx context.Context, log *events.Log, conn, scenario, url, version string, cc conformanceContext) (*connection, error) {
	srv := catalog.Server{Type: catalog.TypeHTTP, URL: url, ProtocolVersion: version,
		OAuth: &catalog.OAuth{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret}}
	opts := oauth.Options{
		Browser:           oauth.HTTPBrowser{},
		ClientName:        "spyglass-conformance",
		ClientMetadataURL: conformanceClientMetadataURL,
		PrivateKeyPEM:     cc.PrivateKeyPEM,
		SigningAlg:        cc.SigningAlgorithm,
	}
	switch {
	case strings.HasPrefix(scenario, "auth/client-credentials"):
		opts.Grant = oauth.GrantClientCredentials
	case cc.ValidJWT != "": // workload identity federation
		opts.Grant, opts.Assertion = oauth.GrantJWTBearer, cc.ValidJWT
	}
	if cc.IDPClientID != "" { // enterprise-managed authorization
		srv.OAuth.EnterpriseManaged = true
		opts.Enterprise = &oauth.Enterprise{IDPIssuer: cc.IDPIssuer, IDPTokenEndpoint: cc.IDPTokenEndpoint,
			IDPClientID: cc.IDPClientID, IDToken: cc.IDPIDToken}
	}
	red := wire.NewRedactor()
	c, err := newConnection(conn, srv, log, red)
	if err != nil {
		return nil, err
	}
	c.enableOAuth(ctx, secrets.NewMemory(), log, red, opts)
	return c, nil
}

// defaultsElicitor accepts every form elicitation with the defaults its
// schema declares (SEP-1034) and declines URL elicitations: nobody is there
// to open a page.
type defaultsElicitor struct{}

// Elicit answers one elicitation/create request with the Defaults policy.
func (defaultsElicitor) Elicit(_ context.Context, req *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	raw, err := elicit.Answer(elicit.Defaults, req.Params)
	if err != nil {
		return nil, err
	}
	var ans struct {
		Action  mcp.ElicitationResponseAction `json:"action"`
		Content json.RawMessage               `json:"content"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, err
	}
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: ans.Action}}
	if len(ans.Content) > 0 {
		res.Content = ans.Content
	}
	return res, nil
}

// runConformanceScenario connects to url, speaking protocol version (the
// catalog's default when empty), and does what scenario expects. Unknown
// scenarios (including the auth ones) get the generic run: connect, list
// the tools and call each of them.
func runConformanceScenario(ctx context.Context, log *events.Log, scenario, url, version string, cc conformanceContext, out io.Writer) error {
	const conn = "conformance"
	c, err := conformanceConnection(ctx, log, conn, scenario, url, version, cc)
	if err != nil {
		return err
	}
	opts := *c.opts
	opts.ClientInfo = mcp.Implementation{Name: "spyglass-conformance", Title: "Spyglass conformance client", Version: "1.0.0"}
	opts.NoReconnect = true
	opts.Handlers = session.Handlers{Elicitation: defaultsElicitor{}}
	s := session.New(c.dial, log, &opts)
	defer s.Close()

	if err := c.connect(ctx, s); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	// Servers (the TypeScript SDK among them) send requests that are not
	// tied to one of ours on the standalone GET stream and drop them while
	// it is not open yet: wait (briefly) until it is.
	waitForStandaloneStream(ctx, log, 2*time.Second)
	info := s.Info()
	fmt.Fprintf(out, "connected to %s %s (protocol %s)\n", info.Name, info.Version, info.ProtocolVersion)
	if scenario == "initialize" {
		return nil
	}
	tools, err := s.ListTools(ctx, nil)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, call := range conformanceCalls(scenario, tools.Tools, cc) {
		res, err := s.CallTool(ctx, call, nil)
		var rpcErr *session.RPCError
		switch {
		case errors.Is(err, session.ErrInvalidToolHeaders):
			fmt.Fprintf(out, "tools/call %s: not called: %v\n", call.Name, err)
			continue
		case errors.As(err, &rpcErr):
			// The server refused the call: what the scenario checks is
			// how the request was made, not whether the server serves it.
			fmt.Fprintf(out, "tools/call %s → error %d %s\n", call.Name, rpcErr.Code, rpcErr.Message)
			continue
		case err != nil:
			return fmt.Errorf("tools/call %s: %w", call.Name, err)
		case res.Result.IsError:
			return fmt.Errorf("tools/call %s: the tool reported an error: %s", call.Name, res.Raw)
		}
		fmt.Fprintf(out, "tools/call %s → %s\n", call.Name, res.Raw)
	}
	if strings.HasPrefix(scenario, "sep-2640-") && s.OffersSkills() {
		if err := conformanceSkills(ctx, s, scenario != "sep-2640-client-no-prefetch", out); err != nil {
			return err
		}
	}
	return visitResourcesAndPrompts(ctx, s, info, out)
}

// conformanceCalls chooses the tool calls of a scenario: the ones its
// context names (toolCalls, with their arguments), else one call of every
// listed tool that can be called, with arguments made from its schema. A
// tool whose required "schema" object argument asks for another tool's
// input schema (json-schema-2020-12-preservation's echo tool) gets that
// schema exactly as the server sent it.
func conformanceCalls(scenario string, tools []mcpresult.Tool, cc conformanceContext) []session.ToolCall {
	var calls []session.ToolCall
	if len(cc.ToolCalls) > 0 {
		for _, c := range cc.ToolCalls {
			calls = append(calls, session.ToolCall{Name: c.Name, Arguments: c.Arguments})
		}
		return calls
	}
	for _, t := range tools {
		if t.HeaderError != nil {
			continue // excluded: the session would refuse it
		}
		args := conformanceArguments(t.Raw)
		if scenario == "json-schema-2020-12-preservation" && t.Name == "json_schema_echo" {
			for _, other := range tools {
				if other.Name != t.Name {
					args["schema"] = other.InputSchema
					break
				}
			}
		}
		calls = append(calls, session.ToolCall{Name: t.Name, Arguments: args})
	}
	return calls
}

// visitResourcesAndPrompts lists and reads every resource and lists and
// gets every prompt the server offers, so that every request kind a
// scenario may watch is sent once. Refusals are reported, not fatal.
func visitResourcesAndPrompts(ctx context.Context, s *session.Session, info *session.ServerInfo, out io.Writer) error {
	if info.Caps.Resources != nil {
		res, err := s.ListResources(ctx, nil)
		if err != nil {
			fmt.Fprintf(out, "resources/list → %v\n", err)
		} else {
			for _, r := range res.Resources {
				if _, err := s.ReadResource(ctx, r.URI, nil); err != nil {
					fmt.Fprintf(out, "resources/read %s → %v\n", r.URI, err)
				}
			}
		}
	}
	if info.Caps.Prompts != nil {
		ps, err := s.ListPrompts(ctx, nil)
		if err != nil {
			fmt.Fprintf(out, "prompts/list → %v\n", err)
		} else {
			for _, p := range ps.Prompts {
				args := map[string]string{}
				for _, a := range p.Arguments {
					if a.Required {
						args[a.Name] = "test"
					}
				}
				if _, err := s.GetPrompt(ctx, p.Name, args, nil); err != nil {
					fmt.Fprintf(out, "prompts/get %s → %v\n", p.Name, err)
				}
			}
		}
	}
	return ctx.Err()
}

// conformanceArguments makes arguments for a tool from its input schema:
// every required property gets a small value of its type (numbers count up
// from 2), others are left out.
func conformanceArguments(rawTool json.RawMessage) map[string]any {
	var t struct {
		InputSchema struct {
			Properties map[string]struct {
				Type    any             `json:"type"`
				Default json.RawMessage `json:"default"`
				Enum    []any           `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"inputSchema"`
	}
	args := map[string]any{}
	if json.Unmarshal(rawTool, &t) != nil {
		return args
	}
	next := 2
	for _, name := range t.InputSchema.Required {
		p, ok := t.InputSchema.Properties[name]
		if !ok {
			args[name] = "test"
			continue
		}
		if len(p.Default) > 0 {
			args[name] = json.RawMessage(p.Default)
			continue
		}
		if len(p.Enum) > 0 {
			args[name] = p.Enum[0]
			continue
		}
		typ, _ := p.Type.(string)
		switch typ {
		case "number", "integer":
			args[name] = next
			next++
		case "boolean":
			args[name] = true
		case "array":
			args[name] = []any{}
		case "object":
			args[name] = map[string]any{}
		default:
			args[name] = "test"
		}
	}
	return args
}

// dumpEvents writes what the session recorded, for a failed scenario.
func dumpEvents(w io.Writer, log *events.Log) {
	evs, _ := log.After(0, 1000)
	fmt.Fprintf(w, "recorded events (%d):\n", len(evs))
	for _, e := range evs {
		detail := e.Text
		if len(e.Raw) > 0 {
			detail = string(e.Raw)
		}
		if len(detail) > 300 {
			detail = detail[:300] + "…"
		}
		fmt.Fprintf(w, "  #%d %s %s %s\n", e.Seq, e.Kind, e.Title(), detail)
	}
}

// waitForStandaloneStream waits until the log holds the answer to the GET
// that opens the Streamable HTTP standalone stream, or at most max.
func waitForStandaloneStream(ctx context.Context, log *events.Log, max time.Duration) {
	opened := make(chan struct{})
	var once sync.Once
	isGET := func(e events.Event) bool { return e.Kind == events.KindHTTP && e.HTTP != nil && e.HTTP.Method == "GET" }
	cancel := log.SubscribeAfter(0, func(b events.Batch) {
		if slices.ContainsFunc(b.Events, isGET) {
			once.Do(func() { close(opened) })
		}
	})
	defer cancel()
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	select {
	case <-opened:
	case <-ctx.Done():
	case <-deadline.C:
	}
}
