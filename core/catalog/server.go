package catalog

import (
	"encoding/json"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"time"
)

// Type is a server's transport as written in the file's "type" field.
type Type string

// The transports.
const (
	TypeStdio Type = "stdio" // a local command; talk over its stdin/stdout
	TypeHTTP  Type = "http"  // Streamable HTTP
	TypeSSE   Type = "sse"   // legacy HTTP+SSE
)

// Types lists the accepted values of "type".
var Types = []string{string(TypeStdio), string(TypeHTTP), string(TypeSSE)}

// IsHTTP reports whether t is http or sse.
func (t Type) IsHTTP() bool { return t == TypeHTTP || t == TypeSSE }

// Era is the protocol era to negotiate ("protocolEra").
type Era string

// The protocol eras.
const (
	EraLegacy Era = "legacy" // 2025-11-25 (the default)
	EraModern Era = "modern" // 2026-07-28
	EraAuto   Era = "auto"   // discover, then fall back
)

// Eras lists the accepted values of "protocolEra".
var Eras = []string{string(EraLegacy), string(EraAuto), string(EraModern)}

// ProtocolVersions lists the accepted values of "protocolVersion", oldest first.
var ProtocolVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// LogLevels lists the accepted values of "modernLogLevel": the MCP logging
// levels, plus "off".
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "off"}

// Defaults of the Inspector-specific fields. A field equal to its default is
// not written.
const (
	DefaultEra              = EraLegacy
	DefaultModernLogLevel   = "debug"
	DefaultTaskTTL          = 60000 // ms
	DefaultMaxFetchRequests = 1000
)

// Root is one entry of "roots".
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// Server is one entry of "mcpServers". The zero value of every
// Inspector-specific field means "the default"; use the methods (EffectiveEra,
// TaskTTLOrDefault, ...) to read the value in force.
type Server struct {
	Type Type // stdio, http or sse; inferred from command/url when the file has no "type"

	// stdio
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// http and sse
	URL     string
	Headers map[string]string

	// ProtocolVersion pins one exact protocol version (one of
	// ProtocolVersions); "" lets ProtocolEra decide. Spyglass-specific.
	ProtocolVersion string
	// ProtocolEra: "" or "legacy" (default), "auto", "modern".
	ProtocolEra Era
	// ModernLogLevel: "" means "debug"; one of LogLevels.
	ModernLogLevel string
	// Roots advertised through the roots capability.
	Roots []Root
	// Metadata is the default _meta payload merged into every outgoing
	// request: a JSON object, or nil. A file's legacy [{key,value}] array is
	// converted to an object when read.
	Metadata json.RawMessage
	// ConnectionTimeout and RequestTimeout in milliseconds; 0 = not set.
	ConnectionTimeout int64
	RequestTimeout    int64
	// TaskTTL in milliseconds; 0 means DefaultTaskTTL.
	TaskTTL int64
	// MaxMessageSize bounds one message read from the server, in bytes: a
	// larger one is recorded as invalid (its size and first bytes) and
	// skipped. 0 (or less) means the engine's default, 256 MiB.
	MaxMessageSize int64
	// AutoRefreshOnListChanged refreshes lists on */list_changed.
	AutoRefreshOnListChanged bool
	// PaginatedLists fetches one page at a time instead of aggregating.
	PaginatedLists bool
	// AdvertisedExtensions: per-extension overrides of capabilities.extensions
	// (a JSON object), or nil.
	AdvertisedExtensions json.RawMessage
	// ExperimentalCapabilities are the client experimental capabilities
	// advertised to this server (capabilities.experimental: a JSON object
	// of name to value), or nil for none.
	ExperimentalCapabilities json.RawMessage
	// MaxFetchRequests: network-log retention; nil means
	// DefaultMaxFetchRequests, 0 means unlimited.
	MaxFetchRequests *int
	// OAuth settings, or nil.
	OAuth *OAuth
}

// OAuth holds a server's OAuth client settings ("oauth").
type OAuth struct {
	ClientID string
	// ClientSecret is read from files that carry one (other tools write it)
	// and kept in memory only: Spyglass never writes a secret into a file.
	// An untouched secret already in the file stays there byte for byte; a
	// changed or cleared one removes it from the file when the entry is saved.
	ClientSecret string
	// Scopes, space separated (a JSON array of strings is read too).
	Scopes string
	// RequestRefreshToken: nil means true (the default); only false is written.
	RequestRefreshToken *bool
	// RevokeOnClear: nil means true (the default); only false is written.
	RevokeOnClear *bool
	// AuthorizationParams: extra query parameters for the authorization request.
	AuthorizationParams map[string]string
	// AuthorizationURL and TokenURL override discovery; "" = use discovery.
	AuthorizationURL string
	TokenURL         string
	// EnterpriseManaged selects enterprise-managed authorization.
	EnterpriseManaged bool
	// OnInsufficientScope: what to do on a 403 insufficient_scope (free text,
	// interpreted by the OAuth client); "" = its default.
	OnInsufficientScope string
	// AssertionFile and AssertionEnv name where the workload's JWT is for
	// workload identity federation (the jwt-bearer grant): a file path or
	// an environment variable name, read at each connection. The JWT itself
	// never goes into the catalog.
	AssertionFile string
	AssertionEnv  string
	// DPoP is "auto" (the default: DPoP-bound tokens when the servers
	// offer them) or "off".
	DPoP string
	// IDPIssuer, IDPTokenURL and IDPClientID configure enterprise-managed
	// authorization (EnterpriseManaged): the enterprise identity
	// provider's OpenID Connect issuer (discovery runs on it), a token
	// endpoint replacing the discovered one, and Spyglass's client at the
	// IdP. The IdP client's secret lives in the OS keyring, never here.
	IDPIssuer   string
	IDPTokenURL string
	IDPClientID string
	// IDTokenFile and IDTokenEnv name where an ID token already issued by
	// the IdP is (a file path or an environment variable name, read at
	// each connection); when neither is set the user signs in at the IdP
	// in the browser. The token itself never goes into the catalog.
	IDTokenFile string
	IDTokenEnv  string
}

// DPoP modes of oauth.dpop.
const (
	DPoPAuto = "auto"
	DPoPOff  = "off"
)

// DPoPModes lists the accepted values of oauth.dpop.
var DPoPModes = []string{DPoPAuto, DPoPOff}

// EffectiveEra returns the era in force (DefaultEra when unset).
func (s *Server) EffectiveEra() Era {
	if s.ProtocolEra == "" {
		return DefaultEra
	}
	return s.ProtocolEra
}

// EffectiveModernLogLevel returns the modern log level in force.
func (s *Server) EffectiveModernLogLevel() string {
	if s.ModernLogLevel == "" {
		return DefaultModernLogLevel
	}
	return s.ModernLogLevel
}

// TaskTTLOrDefault returns the task TTL in force, in milliseconds.
func (s *Server) TaskTTLOrDefault() int64 {
	if s.TaskTTL == 0 {
		return DefaultTaskTTL
	}
	return s.TaskTTL
}

// MaxFetchRequestsOrDefault returns the network-log retention in force
// (0 = unlimited).
func (s *Server) MaxFetchRequestsOrDefault() int {
	if s.MaxFetchRequests == nil {
		return DefaultMaxFetchRequests
	}
	return *s.MaxFetchRequests
}

// ConnectionTimeoutDuration returns ConnectionTimeout as a duration (0 = not set).
func (s *Server) ConnectionTimeoutDuration() time.Duration {
	return time.Duration(s.ConnectionTimeout) * time.Millisecond
}

// RequestTimeoutDuration returns RequestTimeout as a duration (0 = not set).
func (s *Server) RequestTimeoutDuration() time.Duration {
	return time.Duration(s.RequestTimeout) * time.Millisecond
}

// RequestsRefreshToken reports whether the refresh_token grant is declared
// (default true).
func (o *OAuth) RequestsRefreshToken() bool {
	return o == nil || o.RequestRefreshToken == nil || *o.RequestRefreshToken
}

// RevokesOnClear reports whether clearing OAuth state revokes the grant
// (default true).
func (o *OAuth) RevokesOnClear() bool {
	return o == nil || o.RevokeOnClear == nil || *o.RevokeOnClear
}

// Clone returns a deep copy of s.
func (s Server) Clone() Server {
	c := s
	c.Args = slices.Clone(s.Args)
	c.Env = maps.Clone(s.Env)
	c.Headers = maps.Clone(s.Headers)
	c.Roots = slices.Clone(s.Roots)
	c.Metadata = slices.Clone(s.Metadata)
	c.AdvertisedExtensions = slices.Clone(s.AdvertisedExtensions)
	c.ExperimentalCapabilities = slices.Clone(s.ExperimentalCapabilities)
	if s.MaxFetchRequests != nil {
		v := *s.MaxFetchRequests
		c.MaxFetchRequests = &v
	}
	if s.OAuth != nil {
		o := s.OAuth.clone()
		c.OAuth = &o
	}
	return c
}

func (o OAuth) clone() OAuth {
	c := o
	c.AuthorizationParams = maps.Clone(o.AuthorizationParams)
	if o.RequestRefreshToken != nil {
		v := *o.RequestRefreshToken
		c.RequestRefreshToken = &v
	}
	if o.RevokeOnClear != nil {
		v := *o.RevokeOnClear
		c.RevokeOnClear = &v
	}
	return c
}

// Equal reports whether s and o mean the same thing once defaults are
// applied (an unset field equals a field set to its default; JSON objects
// compare by value, not by key order).
func (s *Server) Equal(o *Server) bool {
	for _, f := range serverFields {
		if !f.equal(s, o) {
			return false
		}
	}
	return true
}

// Validate checks what a connection needs: a known type, a command for
// stdio, an absolute http(s) URL for http/sse, and allowed values for the
// enumerated fields. It returns the first problem as an *EntryError (Server
// is left empty).
func (s *Server) Validate() error {
	if ps := s.problems(); len(ps) > 0 {
		return ps[0]
	}
	return nil
}

func (s *Server) problems() []*EntryError {
	var ps []*EntryError
	add := func(field, value string, allowed []string, err error) {
		ps = append(ps, &EntryError{Field: field, Value: value, Allowed: allowed, Err: err})
	}
	switch s.Type {
	case TypeStdio:
		if s.Command == "" {
			add("command", "", nil, ErrMissingCommand)
		}
	case TypeHTTP, TypeSSE:
		if s.URL == "" {
			add("url", "", nil, ErrMissingURL)
		} else if !ValidURL(s.URL) {
			add("url", quote(s.URL), nil, ErrInvalidURL)
		}
	case "":
		add("type", "", Types, ErrUnknownType)
	default:
		add("type", quote(string(s.Type)), Types, ErrUnknownType)
	}
	if s.ProtocolEra != "" && !slices.Contains(Eras, string(s.ProtocolEra)) {
		add("protocolEra", quote(string(s.ProtocolEra)), Eras, ErrInvalidValue)
	}
	if s.ProtocolVersion != "" && !slices.Contains(ProtocolVersions, s.ProtocolVersion) {
		add("protocolVersion", quote(s.ProtocolVersion), ProtocolVersions, ErrInvalidValue)
	}
	if s.OAuth != nil && s.OAuth.DPoP != "" && !slices.Contains(DPoPModes, s.OAuth.DPoP) {
		add("oauth.dpop", quote(s.OAuth.DPoP), DPoPModes, ErrInvalidValue)
	}
	if s.ModernLogLevel != "" && !slices.Contains(LogLevels, s.ModernLogLevel) {
		add("modernLogLevel", quote(s.ModernLogLevel), LogLevels, ErrInvalidValue)
	}
	for _, r := range s.Roots {
		if r.URI == "" {
			add("roots", "", nil, ErrInvalidValue)
			break
		}
	}
	if s.Metadata != nil && !isJSONObject(s.Metadata) {
		add("metadata", shorten(string(s.Metadata)), nil, ErrInvalidValue)
	}
	if s.AdvertisedExtensions != nil && !isJSONObject(s.AdvertisedExtensions) {
		add("advertisedExtensions", shorten(string(s.AdvertisedExtensions)), nil, ErrInvalidValue)
	}
	if s.ExperimentalCapabilities != nil && !isJSONObject(s.ExperimentalCapabilities) {
		add("experimentalCapabilities", shorten(string(s.ExperimentalCapabilities)), nil, ErrInvalidValue)
	}
	for name, v := range map[string]int64{"connectionTimeout": s.ConnectionTimeout, "requestTimeout": s.RequestTimeout, "taskTtl": s.TaskTTL} {
		if v < 0 {
			add(name, itoa(v), nil, ErrInvalidValue)
		}
	}
	if s.MaxFetchRequests != nil && *s.MaxFetchRequests < 0 {
		add("maxFetchRequests", itoa(int64(*s.MaxFetchRequests)), nil, ErrInvalidValue)
	}
	if o := s.OAuth; o != nil {
		if o.AuthorizationURL != "" && !ValidURL(o.AuthorizationURL) {
			add("oauth.authorizationUrl", quote(o.AuthorizationURL), nil, ErrInvalidURL)
		}
		if o.TokenURL != "" && !ValidURL(o.TokenURL) {
			add("oauth.tokenUrl", quote(o.TokenURL), nil, ErrInvalidURL)
		}
		if o.IDPIssuer != "" && !ValidURL(o.IDPIssuer) {
			add("oauth.idpIssuer", quote(o.IDPIssuer), nil, ErrInvalidURL)
		}
		if o.IDPTokenURL != "" && !ValidURL(o.IDPTokenURL) {
			add("oauth.idpTokenUrl", quote(o.IDPTokenURL), nil, ErrInvalidURL)
		}
	}
	slices.SortStableFunc(ps, func(a, b *EntryError) int { return fieldRank(a.Field) - fieldRank(b.Field) })
	return ps
}

func fieldRank(f string) int {
	for i, sf := range serverFields {
		if sf.key == f {
			return i
		}
	}
	return len(serverFields)
}

// ValidURL reports whether s is an absolute http or https URL with a host.
func ValidURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func isJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// jsonEqual compares two JSON texts by value; nil equals nil only.
func jsonEqual(a, b json.RawMessage) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(va, vb)
}
