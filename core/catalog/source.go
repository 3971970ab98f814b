package catalog

import (
	"errors"
	"fmt"
	"maps"
)

// SourceKind says where the servers come from.
type SourceKind int

// The kinds of source.
const (
	// SourceCatalog is a writable catalog file (--catalog, SPYGLASS_CATALOG
	// or the default path): created and seeded when missing.
	SourceCatalog SourceKind = iota
	// SourceConfig is a read-only file (--config): an error when missing,
	// its bytes never changed.
	SourceConfig
	// SourceAdHoc is one server given on the command line.
	SourceAdHoc
)

// String returns "catalog", "config" or "ad-hoc".
func (k SourceKind) String() string {
	switch k {
	case SourceCatalog:
		return "catalog"
	case SourceConfig:
		return "config"
	case SourceAdHoc:
		return "ad-hoc"
	}
	return fmt.Sprintf("SourceKind(%d)", int(k))
}

// Overrides are per-run settings from the command line (-e, --header,
// --cwd) applied to the server selected from a file.
type Overrides struct {
	Env     map[string]string
	Headers map[string]string
	Cwd     string
	// ProtocolVersion and ProtocolEra (--protocol-version,
	// --protocol-era) replace the server's protocol choice for the run:
	// an era given alone also drops the server's pinned version.
	ProtocolVersion string
	ProtocolEra     Era
}

// Source is the resolved answer to "which servers?" for one run.
type Source struct {
	Kind SourceKind
	// Path of the catalog or config file (SourceCatalog, SourceConfig).
	Path string
	// Server is the name selected with --server ("" = none selected).
	Server string
	// Overrides to apply to the selected server of a file source.
	Overrides Overrides
	// AdHocName and AdHoc describe the one server of SourceAdHoc.
	AdHocName string
	AdHoc     *Server
}

// Open returns the catalog of the source: LoadOrCreate for a catalog,
// LoadReadOnly for a config, a read-only in-memory catalog holding the one
// server for an ad-hoc source. created reports that a catalog was seeded.
// As with Parse, an *InvalidError comes with a usable catalog.
func (s *Source) Open() (c *Catalog, created bool, err error) {
	switch s.Kind {
	case SourceCatalog:
		return LoadOrCreate(s.Path)
	case SourceConfig:
		c, err := LoadReadOnly(s.Path)
		return c, false, err
	case SourceAdHoc:
		if s.AdHoc == nil {
			return nil, false, errors.New("catalog: ad-hoc source without a server")
		}
		c := New()
		if err := c.Put(s.AdHocName, *s.AdHoc); err != nil {
			return nil, false, err
		}
		return c, false, nil
	}
	return nil, false, fmt.Errorf("catalog: unknown source kind %d", int(s.Kind))
}

// Resolve picks the server of the run from c (the --server name, or the only
// one) and applies the overrides. An override that does not fit the
// server's transport (env or cwd for http/sse, headers for stdio) is an
// *OverrideError.
func (s *Source) Resolve(c *Catalog) (string, Server, error) {
	name := s.Server
	if s.Kind == SourceAdHoc {
		name = s.AdHocName
	}
	name, srv, err := c.Select(name)
	if err != nil {
		return name, srv, err
	}
	srv, err = s.Overrides.Apply(name, srv)
	return name, srv, err
}

// Apply returns srv with the overrides applied (new env and header values
// win over the file's).
func (o Overrides) Apply(name string, srv Server) (Server, error) {
	if len(o.Env) > 0 {
		if srv.Type != TypeStdio {
			return srv, &OverrideError{Server: name, Type: srv.Type, What: "env"}
		}
		if srv.Env == nil {
			srv.Env = map[string]string{}
		}
		maps.Copy(srv.Env, o.Env)
	}
	if o.Cwd != "" {
		if srv.Type != TypeStdio {
			return srv, &OverrideError{Server: name, Type: srv.Type, What: "cwd"}
		}
		srv.Cwd = o.Cwd
	}
	if len(o.Headers) > 0 {
		if !srv.Type.IsHTTP() {
			return srv, &OverrideError{Server: name, Type: srv.Type, What: "headers"}
		}
		if srv.Headers == nil {
			srv.Headers = map[string]string{}
		}
		maps.Copy(srv.Headers, o.Headers)
	}
	if o.ProtocolEra != "" {
		srv.ProtocolEra, srv.ProtocolVersion = o.ProtocolEra, ""
	}
	if o.ProtocolVersion != "" {
		srv.ProtocolVersion = o.ProtocolVersion
	}
	return srv, nil
}
