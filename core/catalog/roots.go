package catalog

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// ErrNotFileURI is returned by RootPath for a URI that does not name a
// local file (another scheme, a remote host, or not a URI at all).
var ErrNotFileURI = errors.New("not a local file URI")

// RootURI returns the RFC 8089 file URI of the absolute path p, with
// spaces, '#', '%', '?' and non-ASCII characters percent-encoded:
// "/home/me/My Project ä" becomes "file:///home/me/My%20Project%20%C3%A4".
func RootURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// RootPath returns the local path a file URI names ("file:///a%20b" is
// "/a b"). A root written the old way, with the path unencoded after
// "file://", is read as that path.
func RootPath(uri string) (string, error) {
	if !strings.HasPrefix(strings.ToLower(uri), "file:") {
		return "", fmt.Errorf("root %q: %w", uri, ErrNotFileURI)
	}
	if rawRootURI(uri) {
		return filepath.FromSlash(strings.TrimPrefix(uri[len("file:"):], "//")), nil
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("root %q: %w", uri, err)
	}
	if (u.Host != "" && u.Host != "localhost") || u.Opaque != "" || u.Path == "" {
		return "", fmt.Errorf("root %q: %w", uri, ErrNotFileURI)
	}
	return filepath.FromSlash(u.Path), nil
}

// NormalizeRootURI returns uri in the encoded form RootURI writes. A root
// written the old way ("file:///home/me/My Project ä", sent raw before)
// is encoded; URIs of other schemes and ones it cannot read are returned
// unchanged.
func NormalizeRootURI(uri string) string {
	p, err := RootPath(uri)
	if err != nil {
		return uri
	}
	return RootURI(p)
}

// rawRootURI reports whether a file: URI holds characters an encoded URI
// cannot: a space, a control or non-ASCII byte, '#', '?', or a '%' that
// does not start an escape. Such a URI was written with the path as is.
func rawRootURI(uri string) bool {
	for i := 0; i < len(uri); i++ {
		c := uri[i]
		switch {
		case c <= ' ' || c >= 0x7f || strings.IndexByte("#?\"<>\\^`{|}", c) >= 0:
			return true
		case c == '%' && (i+2 >= len(uri) || !isHex(uri[i+1]) || !isHex(uri[i+2])):
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
