package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestLargeRead: demo://large/{kind}/{size} reads exactly size bytes, as
// Markdown text or as a blob, and refuses a size out of range or an
// unknown kind instead of allocating it.
func TestLargeRead(t *testing.T) {
	p := startInProcess(t, nil)
	ctx := context.Background()
	read := func(uri string) (*mcp.ReadResourceResult, error) {
		return p.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	}
	const n = 1<<20 + 7
	r, err := read("demo://large/text/1048583")
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := r.Contents[0].(mcp.TextResourceContents); !ok || len(tc.Text) != n || !strings.HasPrefix(tc.Text, readmeText) || tc.MIMEType != "text/markdown" {
		t.Fatalf("text read: %T of %d bytes", r.Contents[0], len(tc.Text))
	}
	r, err = read("demo://large/blob/1048583")
	if err != nil {
		t.Fatal(err)
	}
	bc, ok := r.Contents[0].(mcp.BlobResourceContents)
	if !ok {
		t.Fatalf("blob read: %T", r.Contents[0])
	}
	b, err := base64.StdEncoding.DecodeString(bc.Blob)
	if err != nil || len(b) != n || !bytes.HasPrefix(b, []byte{0x89, 'S', 'P', 'Y'}) {
		t.Fatalf("blob of %d bytes, %v", len(b), err)
	}
	for _, uri := range []string{"demo://large/text/268435457", "demo://large/text/-1", "demo://large/text/big", "demo://large/video/10"} {
		if _, err := read(uri); err == nil {
			t.Errorf("%s was read", uri)
		}
	}
}
