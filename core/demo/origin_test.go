package demo

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPOrigin: the HTTP demo refuses a browser page from another site
// (403, as the MCP transport spec requires) and serves pages on this
// machine and clients that send no Origin.
func TestHTTPOrigin(t *testing.T) {
	srv := httptest.NewServer(NewHTTPHandler(New(nil)))
	defer srv.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:6274", http.StatusOK},
		{"http://127.0.0.1:8080", http.StatusOK},
		{"http://[::1]:3000", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+HTTPPath, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Origin %q: HTTP %d, want %d", tc.origin, resp.StatusCode, tc.want)
		}
	}
}
