package oauth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Keys under which an Authorizer keeps its state in the server's
// namespace of the secrets.Store.
const (
	KeyToken    = "oauth-token"    // Token (JSON)
	KeyClient   = "oauth-client"   // Client (JSON), not for pre-registered clients
	KeyMetadata = "oauth-metadata" // ServerMetadata (JSON) of the issuer last used
)

// Keys of the server's configured secrets (not state: Clear leaves them):
// the client secret of oauth.clientId and the enterprise IdP client's
// secret, when the catalog file carries none.
const (
	KeyClientSecret    = "oauth-client-secret"
	KeyIDPClientSecret = "oauth-idp-client-secret"
)

// Grant selects how an Authorizer obtains tokens.
type Grant int

const (
	// GrantAuthorizationCode is the interactive flow through the browser.
	GrantAuthorizationCode Grant = iota
	// GrantClientCredentials is the machine-to-machine flow (OAuth 2.1
	// §4.2, SEP-1046) with a pre-registered client: a client secret, or a
	// private key for private_key_jwt.
	GrantClientCredentials
	// GrantJWTBearer is workload identity federation (RFC 7523, SEP-1933):
	// a JWT the workload's identity provider issued (Options.Assertion) is
	// exchanged for an access token, with a pre-registered client id.
	GrantJWTBearer
)

// Step-up policies, the values of catalog oauth.onInsufficientScope.
const (
	// StepUpAuthorize (also ""): on 403 insufficient_scope, authorize
	// again for the granted scopes plus the challenged ones.
	StepUpAuthorize = "step-up"
	// StepUpFail: report ErrInsufficientScope and do not re-authorize.
	StepUpFail = "fail"
)

// MaxStepUps bounds the authorization attempts for one challenged scope
// set, so a server that never accepts the grant cannot loop the client.
const MaxStepUps = 2

// WarningCode names a Warning.
type WarningCode string

// Warnings an Authorizer reports through Options.OnWarning.
const (
	// WarnReservedParam: an authorizationParams entry names a parameter
	// the flow sets itself; it was dropped. Detail is the name.
	WarnReservedParam WarningCode = "reserved-param"
	// WarnBadOverride: authorizationUrl or tokenUrl is not an absolute
	// http(s) URL; discovery's value was kept. Detail is the field name.
	WarnBadOverride WarningCode = "bad-override"
	// WarnStepUpPolicy: onInsufficientScope holds an unknown value; the
	// default (step-up) applies. Detail is the value.
	WarnStepUpPolicy WarningCode = "step-up-policy"
	// WarnStore: the secret store failed (locked keyring, time-out); the
	// state is kept in memory only. Detail is the error (no secret).
	WarnStore WarningCode = "store"
	// WarnNoChallenge: the server answered 401 without a Bearer
	// WWW-Authenticate challenge (a proxy or a firewall may have answered);
	// OAuth discovery is tried at the server's origin all the same, as the
	// 2025-03-26 specification did. Detail is the server URL.
	WarnNoChallenge WarningCode = "no-challenge"
	// WarnInsecureEndpoint: an authorization server endpoint is plain
	// http on a host that is not a loopback address (the spec requires
	// HTTPS; an inspector still lets a developer proceed). Detail is the
	// endpoint URL.
	WarnInsecureEndpoint WarningCode = "insecure-endpoint"
)

// Warning is something the user should hear about that did not stop the
// flow. It never carries a secret.
type Warning struct {
	Code   WarningCode
	Detail string
}

// Options configures an Authorizer. The zero value works: the system
// browser, a default HTTP client, dynamic registration as "Spyglass".
type Options struct {
	// HTTPClient makes discovery, registration, token and revocation
	// requests; nil means a client with a 30 s timeout.
	HTTPClient *http.Client
	// Browser opens the authorization URL; nil means SystemBrowser{}.
	Browser Browser
	// ClientName is the client_name registered; "" means "Spyglass".
	ClientName string
	// ClientURI and SoftwareVersion are registered when set.
	ClientURI       string
	SoftwareVersion string
	// ClientMetadataURL is an HTTPS URL of this client's metadata
	// document; used as client_id when the authorization server
	// advertises client_id_metadata_document_supported.
	ClientMetadataURL string
	// Grant selects the flow (GrantAuthorizationCode by default).
	Grant Grant
	// PrivateKeyPEM (PKCS#8, SEC 1 or PKCS#1) makes GrantClientCredentials
	// authenticate with private_key_jwt; SigningAlg is ES256 or RS256
	// ("" picks by key type).
	PrivateKeyPEM string
	SigningAlg    string
	// Assertion is the workload JWT of GrantJWTBearer.
	Assertion string
	// OnWarning receives warnings; nil drops them. It is called with the
	// Authorizer's lock held: it must not call the Authorizer back, and
	// must not block (hand the warning over to another goroutine).
	OnWarning func(Warning)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Enterprise configures enterprise-managed authorization, used when
	// the catalog's oauth.enterpriseManaged is set.
	Enterprise *Enterprise
	// SignInTimeout bounds the wait for the browser's redirect;
	// 0 means DefaultSignInTimeout. The caller's context bounds it too.
	SignInTimeout time.Duration
	// OnSecret, when set, is called with every secret value the
	// Authorizer obtains or loads (access, refresh and ID tokens, client
	// secrets), for example wire.Redactor.Add, so that they are masked
	// wherever they might appear. Like OnWarning it must not block nor
	// call the Authorizer back.
	OnSecret func(secret string)
}

// Authorizer authorizes requests to one MCP server. It is safe for
// concurrent use; flows run one at a time.
type Authorizer struct {
	serverURL string
	settings  catalog.OAuth
	store     secrets.Store
	opts      Options
	hc        *http.Client
	browser   Browser

	mu        sync.Mutex // guards the fields below
	loaded    bool
	token     *Token
	client    *Client
	meta      *ServerMetadata
	refreshed string         // access token obtained by Authorize's refresh
	stepUps   map[string]int // step-up attempts per challenged scope set
	gen       uint64         // bumped whenever a new token is obtained

	flowMu sync.Mutex // one flow at a time
	dpop   dpop       // the proof-of-possession key and nonces (dpop.go)
}

// New returns the Authorizer of the catalog server named server whose MCP
// endpoint is serverURL, with its OAuth settings and the store for its
// secrets (keys are namespaced by server, see secrets.ForServer).
func New(server, serverURL string, settings catalog.OAuth, store secrets.Store, opts *Options) *Authorizer {
	a := &Authorizer{serverURL: serverURL, settings: settings, store: secrets.ForServer(store, server), stepUps: map[string]int{}}
	if opts != nil {
		a.opts = *opts
	}
	a.hc = a.opts.HTTPClient
	if a.hc == nil {
		a.hc = &http.Client{Timeout: 30 * time.Second}
	}
	a.browser = a.opts.Browser
	if a.browser == nil {
		a.browser = SystemBrowser{}
	}
	if a.opts.ClientName == "" {
		a.opts.ClientName = "Spyglass"
	}
	return a
}

// DefaultSignInTimeout is how long a sign-in waits for the browser's
// redirect unless Options.SignInTimeout says otherwise.
const DefaultSignInTimeout = 5 * time.Minute

func (a *Authorizer) signInTimeout() time.Duration {
	if a.opts.SignInTimeout > 0 {
		return a.opts.SignInTimeout
	}
	return DefaultSignInTimeout
}

func (a *Authorizer) now() time.Time {
	if a.opts.Now != nil {
		return a.opts.Now()
	}
	return time.Now()
}

// secret reports secret values through Options.OnSecret.
func (a *Authorizer) secret(values ...string) {
	if a.opts.OnSecret == nil {
		return
	}
	for _, v := range values {
		if v != "" {
			a.opts.OnSecret(v)
		}
	}
}

func (a *Authorizer) warn(code WarningCode, detail string) {
	if a.opts.OnWarning != nil {
		a.opts.OnWarning(Warning{Code: code, Detail: detail})
	}
}

// Prepare is the wire.HTTPConfig.Prepare hook: it sets the Authorization
// header of req to the current access token, refreshing it first when it
// is about to expire. Without a token it leaves req alone (the server's
// 401 then leads to Authorize). It fails only when req's context ended.
func (a *Authorizer) Prepare(req *http.Request) error {
	tok, typ, err := a.currentToken(req.Context())
	switch {
	case err != nil:
		return err
	case tok != "" && typ == "DPoP":
		return a.prepareDPoP(req, tok)
	case tok != "":
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return nil
}

// currentToken returns the access token to send ("" for none) and its
// type.
func (a *Authorizer) currentToken(ctx context.Context) (tok, typ string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.loadLocked(ctx)
	if a.token == nil {
		return "", "", nil
	}
	if a.token.expired(a.now()) && a.token.RefreshToken != "" {
		err := a.refreshLocked(ctx)
		if err == nil {
			a.refreshed = a.token.AccessToken // a 401 for it is not refreshed again
		}
		if err != nil {
			if ctx.Err() != nil {
				return "", "", fmt.Errorf("oauth: refresh: %w", ctx.Err())
			}
			if a.token == nil {
				return "", "", nil
			}
		}
	}
	return a.token.AccessToken, a.token.TokenType, nil
}

// loadLocked reads the persisted state once. Store failures become a
// WarnStore warning: the Authorizer then works from memory.
func (a *Authorizer) loadLocked(ctx context.Context) {
	if a.loaded {
		return
	}
	a.loaded = true
	var tok Token
	// A token minted for another resource (the catalog entry's URL
	// changed) is never sent to this one.
	if a.getJSON(ctx, KeyToken, &tok) && tok.AccessToken != "" && (tok.Resource == "" || ResourceMatches(tok.Resource, a.serverURL)) {
		a.token = &tok
		a.secret(tok.AccessToken, tok.RefreshToken, tok.IDToken)
	}
	var cl Client
	if a.getJSON(ctx, KeyClient, &cl) && cl.ClientID != "" {
		a.client = &cl
		a.secret(cl.ClientSecret)
	}
	a.secret(a.settings.ClientSecret)
	var m ServerMetadata
	if a.getJSON(ctx, KeyMetadata, &m) && m.Issuer != "" {
		a.meta = &m
	}
}

func (a *Authorizer) getJSON(ctx context.Context, key string, v any) bool {
	s, err := a.store.Get(ctx, key)
	if err != nil {
		if !errors.Is(err, secrets.ErrNotFound) {
			a.warn(WarnStore, err.Error())
		}
		return false
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		a.warn(WarnStore, "stored "+key+" is unreadable; ignored")
		return false
	}
	return true
}

func (a *Authorizer) putJSON(ctx context.Context, key string, v any) {
	b, _ := json.Marshal(v)
	if err := a.store.Set(ctx, key, string(b)); err != nil {
		a.warn(WarnStore, err.Error())
	}
}

func (a *Authorizer) deleteKey(ctx context.Context, key string) {
	if err := a.store.Delete(ctx, key); err != nil {
		a.warn(WarnStore, err.Error())
	}
}

// refreshLocked exchanges the refresh token. A refusal by the server
// (invalid_grant and the like) forgets the token; other failures keep it.
func (a *Authorizer) refreshLocked(ctx context.Context) error {
	tok := a.token
	cl := a.clientForLocked()
	if a.meta == nil || cl == nil || a.meta.TokenEndpoint == "" || !sameIssuer(tok.Issuer, a.meta.Issuer) {
		a.token = nil
		return fmt.Errorf("oauth: refresh: %w", ErrNotAuthorized)
	}
	meta := a.applyOverrides(*a.meta, false)
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}}
	if tok.Resource != "" {
		form.Set("resource", tok.Resource)
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	nt, err := grant(rctx, a.tokenClient(tok.TokenType == "DPoP"), meta.TokenEndpoint, cl, meta.Issuer, form, a.now())
	if err != nil {
		var ee *EndpointError
		if errors.As(err, &ee) && ee.Status >= 400 && ee.Status < 500 {
			a.token = nil
			a.deleteKey(ctx, KeyToken)
		}
		return fmt.Errorf("oauth: refresh: %w", err)
	}
	if nt.RefreshToken == "" {
		nt.RefreshToken = tok.RefreshToken
	}
	if nt.Scope == "" {
		nt.Scope = tok.Scope
	}
	nt.Issuer, nt.Resource = tok.Issuer, tok.Resource
	a.secret(nt.AccessToken, nt.RefreshToken, nt.IDToken)
	a.token = nt
	a.gen++
	a.putJSON(ctx, KeyToken, nt)
	return nil
}

// clientForLocked is the client to authenticate with: the pre-registered
// one from the settings, else the stored one.
func (a *Authorizer) clientForLocked() *Client {
	if a.settings.ClientID != "" {
		var supported []string
		if a.meta != nil {
			supported = a.meta.TokenEndpointAuthMethodsSupported
		}
		return a.preregistered(supported)
	}
	return a.client
}

// preregistered is the client of the catalog's clientId/clientSecret
// (or private key), with an authentication method the server supports.
func (a *Authorizer) preregistered(supported []string) *Client {
	cl := &Client{ClientID: a.settings.ClientID, ClientSecret: a.settings.ClientSecret, Kind: "preregistered",
		PrivateKeyPEM: a.opts.PrivateKeyPEM, SigningAlg: a.opts.SigningAlg}
	switch {
	case cl.PrivateKeyPEM != "":
		cl.AuthMethod = AuthPrivateKeyJWT
	case cl.ClientSecret == "":
		cl.AuthMethod = AuthNone
	case len(supported) > 0 && !slices.Contains(supported, AuthClientSecretBasic) && slices.Contains(supported, AuthClientSecretPost):
		cl.AuthMethod = AuthClientSecretPost
	default:
		cl.AuthMethod = AuthClientSecretBasic
	}
	return cl
}

// Authorize obtains a token after the server refused a request with
// challenge. On 401 it first tries the refresh token (once per token);
// then it runs the whole flow. On 403 insufficient_scope it steps up
// according to oauth.onInsufficientScope. The caller retries the request
// after a nil return.
//
// Refusals that arrive together (the requests a window sends at once,
// all with the same expired token) lead to one sign-in: a caller that
// waited while another obtained a token returns nil at once, to retry
// with that token. Authorize counts from the moment it is called; a
// caller that knows when its request was prepared uses AuthorizeSince.
func (a *Authorizer) Authorize(ctx context.Context, ch Challenge) error {
	return a.AuthorizeSince(ctx, ch, a.Generation())
}

// Generation identifies the token state: it changes whenever a new token
// is obtained (a sign-in, a refresh). Take it before sending a request;
// hand it to AuthorizeSince if the request is refused.
func (a *Authorizer) Generation() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.gen
}

// AuthorizeSince is Authorize for a request sent when Generation was gen:
// when a token has been obtained since, it returns nil at once (the
// request is to be sent again with the new token) instead of signing in
// again.
func (a *Authorizer) AuthorizeSince(ctx context.Context, ch Challenge, gen uint64) error {
	if a.settings.EnterpriseManaged && a.opts.Enterprise == nil {
		return fmt.Errorf("oauth: authorize: %w", ErrEnterpriseManaged)
	}
	if ch.Status == http.StatusForbidden && !ch.Bearer {
		return fmt.Errorf("oauth: authorize on HTTP 403: %w", ErrNoChallenge)
	}
	a.flowMu.Lock()
	defer a.flowMu.Unlock()

	a.mu.Lock()
	renewed := a.gen != gen && a.token != nil
	a.mu.Unlock()
	if renewed {
		return nil
	}

	a.mu.Lock()
	a.loadLocked(ctx)
	var granted string
	if a.token != nil {
		granted = a.token.Scope
	}
	a.mu.Unlock()

	if ch.InsufficientScope() {
		switch p := strings.ToLower(strings.TrimSpace(a.settings.OnInsufficientScope)); p {
		case "", StepUpAuthorize, "reauthorize", "authorize":
		case StepUpFail, "error", "none", "off":
			return fmt.Errorf("oauth: step-up: %w", ErrInsufficientScope)
		default:
			a.warn(WarnStepUpPolicy, a.settings.OnInsufficientScope)
		}
		want := strings.Fields(ch.Scope)
		have := strings.Fields(granted)
		if len(want) == 0 || subset(want, have) {
			// Authorizing again for what we hold cannot help.
			return fmt.Errorf("oauth: step-up for %q: %w", ch.Scope, ErrInsufficientScope)
		}
		key := strings.Join(slices.Sorted(slices.Values(want)), " ")
		a.mu.Lock()
		n := a.stepUps[key]
		if n < MaxStepUps {
			a.stepUps[key] = n + 1
		}
		a.mu.Unlock()
		if n >= MaxStepUps {
			return fmt.Errorf("oauth: step-up for %q: %d attempts: %w", ch.Scope, MaxStepUps, ErrInsufficientScope)
		}
		return a.run(ctx, ch, granted, true)
	}

	if !ch.Bearer {
		a.warn(WarnNoChallenge, a.serverURL)
	}
	// 401: a refresh may be enough, once per token. A token obtained
	// since the check above (a Prepare that found it expired refreshed it
	// meanwhile) is the answer: the request is sent again with it, and
	// nobody is asked to sign in.
	a.mu.Lock()
	if a.gen != gen && a.token != nil {
		a.mu.Unlock()
		return nil
	}
	if a.token != nil && a.token.RefreshToken != "" && a.refreshed != a.token.AccessToken {
		if err := a.refreshLocked(ctx); err == nil {
			a.refreshed = a.token.AccessToken
			a.mu.Unlock()
			return nil
		}
	}
	a.mu.Unlock()
	return a.run(ctx, ch, granted, false)
}

// HandleUnauthorized is Authorize for an error of core/wire: when err is
// a 401 or 403 answer (a *wire.HTTPError matching wire.ErrUnauthorized) it
// authorizes with its challenge and returns nil when the request may be
// sent again, or the authorization error. Any other err is returned as is.
// A session can depend on this one method without importing this package.
func (a *Authorizer) HandleUnauthorized(ctx context.Context, err error) error {
	return a.HandleUnauthorizedSince(ctx, err, a.Generation())
}

// HandleUnauthorizedSince is HandleUnauthorized for a request sent when
// Generation was gen (see AuthorizeSince).
func (a *Authorizer) HandleUnauthorizedSince(ctx context.Context, err error, gen uint64) error {
	ch, ok := ChallengeFromError(err)
	if !ok {
		return err
	}
	if ch.Error == "use_dpop_nonce" {
		// RFC 9449 §9: the MCP server wants its nonce in our proofs;
		// the same token is fine, the request is simply sent again.
		var he *wire.HTTPError
		if errors.As(err, &he) {
			if u, perr := url.Parse(he.URL); perr == nil && a.dpop.noteNonce(u, he.Header) {
				return nil
			}
		}
	}
	return a.AuthorizeSince(ctx, ch, gen)
}

// discovered is the outcome of discovery.
type discovered struct {
	resource string
	prm      *ResourceMetadata
	meta     ServerMetadata // with the overrides applied
	raw      ServerMetadata // as discovered (what is stored)
	dpop     bool           // tokens are DPoP-bound (see useDPoP)
}

// discover finds the authorization server for the MCP server.
func (a *Authorizer) discover(ctx context.Context, ch Challenge) (*discovered, error) {
	prm, ok, err := discoverResource(ctx, a.hc, a.serverURL, ch.ResourceMetadata)
	if err != nil {
		return nil, err
	}
	d := &discovered{}
	if ok {
		if !ResourceMatches(prm.Resource, a.serverURL) {
			return nil, fmt.Errorf("oauth: resource %q for %q: %w", prm.Resource, a.serverURL, ErrResourceMismatch)
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("oauth: protected resource metadata names no authorization server: %w", ErrNoMetadata)
		}
		d.prm, d.resource = &prm, prm.Resource
		issuer := prm.AuthorizationServers[0]
		meta, found, err := discoverServer(ctx, a.hc, issuer, true)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("oauth: authorization server %s: %w", issuer, ErrNoMetadata)
		}
		d.meta = meta
	} else {
		// 2025-03-26: the MCP server's origin is the authorization server.
		if d.resource, err = CanonicalResource(a.serverURL); err != nil {
			return nil, err
		}
		fb, err := FallbackMetadata(a.serverURL)
		if err != nil {
			return nil, err
		}
		meta, found, err := discoverServer(ctx, a.hc, fb.Issuer, false)
		if err != nil {
			return nil, err
		}
		if found {
			d.meta = meta
		} else {
			d.meta = fb
		}
	}
	d.raw = d.meta
	d.meta = a.applyOverrides(d.meta, true)
	for _, u := range []string{d.meta.AuthorizationEndpoint, d.meta.TokenEndpoint, d.meta.RegistrationEndpoint} {
		if Insecure(u) {
			a.warn(WarnInsecureEndpoint, u)
		}
	}
	return d, nil
}

// applyOverrides replaces the endpoints with oauth.authorizationUrl and
// oauth.tokenUrl; the issuer stays what discovery returned.
// The discovered metadata is what is stored; the overrides of the
// current settings are applied at each use (so a changed override takes
// effect for refreshes too). warn reports malformed overrides.
func (a *Authorizer) applyOverrides(m ServerMetadata, warn bool) ServerMetadata {
	if a.settings.EnterpriseManaged || m.Fallback {
		return m
	}
	if v := strings.TrimSpace(a.settings.AuthorizationURL); v != "" {
		if validEndpoint(v) {
			m.AuthorizationEndpoint = v
		} else if warn {
			a.warn(WarnBadOverride, "authorizationUrl")
		}
	}
	if v := strings.TrimSpace(a.settings.TokenURL); v != "" {
		if validEndpoint(v) {
			m.TokenEndpoint = v
		} else if warn {
			a.warn(WarnBadOverride, "tokenUrl")
		}
	}
	return m
}

// Insecure reports whether u is a plain http URL on a host that is not a
// loopback address (127.0.0.0/8, ::1, localhost).
func Insecure(u string) bool {
	p, err := url.Parse(u)
	if err != nil || !strings.EqualFold(p.Scheme, "http") {
		return false
	}
	h := strings.ToLower(p.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return false
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return false
	}
	return true
}

// validEndpoint reports whether s is an absolute http(s) URL.
func validEndpoint(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// run discovers, obtains a client and a token, and stores the result.
func (a *Authorizer) run(ctx context.Context, ch Challenge, granted string, stepUp bool) error {
	d, err := a.discover(ctx, ch)
	if err != nil {
		return err
	}
	d.dpop = a.settings.DPoP != catalog.DPoPOff && useDPoP(ch, d)
	if !d.meta.Fallback && !slices.Contains(d.meta.CodeChallengeMethodsSupported, "S256") && a.opts.Grant == GrantAuthorizationCode && !a.settings.EnterpriseManaged {
		return fmt.Errorf("oauth: authorization server %s: %w", d.meta.Issuer, ErrPKCEUnsupported)
	}
	var prmScopes []string
	if d.prm != nil {
		prmScopes = d.prm.ScopesSupported
	}
	scopes := SelectScopes(ScopeInput{
		Configured:       a.settings.Scopes,
		Challenge:        ch.Scope,
		ResourceScopes:   prmScopes,
		ServerScopes:     d.meta.ScopesSupported,
		WantRefreshToken: a.settings.RequestsRefreshToken() && a.opts.Grant == GrantAuthorizationCode && !a.settings.EnterpriseManaged,
		Granted:          granted,
		StepUp:           stepUp,
	})
	var tok *Token
	var cl *Client
	switch {
	case a.settings.EnterpriseManaged:
		tok, cl, err = a.enterprise(ctx, d, scopes)
	case a.opts.Grant == GrantClientCredentials:
		tok, cl, err = a.clientCredentials(ctx, d, scopes)
	case a.opts.Grant == GrantJWTBearer:
		if a.opts.Assertion == "" {
			return fmt.Errorf("oauth: the JWT bearer grant needs a workload JWT: %w", ErrNoRegistration)
		}
		cl = a.preregistered(d.meta.TokenEndpointAuthMethodsSupported)
		tok, err = a.jwtBearer(ctx, d, cl, a.opts.Assertion, scopes)
	default:
		tok, cl, err = a.authorizationCode(ctx, d, scopes)
	}
	if err != nil {
		return err
	}
	a.secret(tok.AccessToken, tok.RefreshToken, tok.IDToken, cl.ClientSecret)
	tok.Issuer, tok.Resource = d.meta.Issuer, d.resource
	if tok.Scope == "" {
		tok.Scope = joinScopes(scopes)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.token, a.meta, a.refreshed = tok, &d.raw, ""
	a.gen++
	a.putJSON(ctx, KeyToken, tok)
	a.putJSON(ctx, KeyMetadata, d.raw)
	if cl.Kind != "preregistered" {
		a.client = cl
		a.putJSON(ctx, KeyClient, cl)
	}
	return nil
}

// authorizationCode runs the browser leg and redeems the code.
func (a *Authorizer) authorizationCode(ctx context.Context, d *discovered, scopes []string) (*Token, *Client, error) {
	a.mu.Lock()
	port := 0
	if a.client != nil && sameIssuer(a.client.Issuer, d.meta.Issuer) {
		port = portOf(a.client.RedirectURI)
	}
	a.mu.Unlock()
	return a.browserLeg(ctx, leg{
		meta:     d.meta,
		dpop:     d.dpop,
		port:     port,
		client:   func(redirectURI string) (*Client, error) { return a.ensureClient(ctx, d.meta, redirectURI) },
		scopes:   scopes,
		resource: d.resource,
		extra:    a.settings.AuthorizationParams,
	})
}

// leg describes one authorization code flow through the browser.
type leg struct {
	meta     ServerMetadata
	port     int                                       // preferred loopback port (0: any)
	client   func(redirectURI string) (*Client, error) // the client, once the redirect URI is known
	scopes   []string
	resource string
	extra    map[string]string
	dpop     bool // redeem the code for a DPoP-bound token
}

// browserLeg listens on the loopback, opens the authorization URL, waits
// for the redirect, checks it and redeems the code.
func (a *Authorizer) browserLeg(ctx context.Context, l leg) (*Token, *Client, error) {
	rcv, err := listenLoopback(l.port)
	if err != nil {
		return nil, nil, err
	}
	defer rcv.close()

	cl, err := l.client(rcv.redirectURI)
	if err != nil {
		return nil, nil, err
	}
	verifier := oauth2.GenerateVerifier()
	state := rand.Text()
	rcv.expect(state)
	authURL, dropped, err := AuthRequest{
		Endpoint:      l.meta.AuthorizationEndpoint,
		ClientID:      cl.ClientID,
		RedirectURI:   rcv.redirectURI,
		Scopes:        l.scopes,
		State:         state,
		CodeChallenge: oauth2.S256ChallengeFromVerifier(verifier),
		Resource:      l.resource,
		Extra:         l.extra,
	}.URL()
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: authorization endpoint %q: %w", l.meta.AuthorizationEndpoint, err)
	}
	for _, p := range dropped {
		a.warn(WarnReservedParam, p)
	}
	// The browser runs while the receiver waits, so that a browser
	// command that fails ends the sign-in at once; the wait is bounded.
	wctx, cancel := context.WithTimeoutCause(ctx, a.signInTimeout(), ErrSignInTimeout)
	defer cancel()
	opened := make(chan error, 1)
	go func() { opened <- a.browser.Open(wctx, authURL) }()
	q, err := rcv.wait(wctx, opened)
	var tok *Token
	if err == nil {
		tok, cl, err = a.redeem(ctx, l, rcv.redirectURI, cl, q, state, verifier)
	}
	rcv.finish(err)
	return tok, cl, err
}

// redeem checks the authorization response q and redeems its code.
func (a *Authorizer) redeem(ctx context.Context, l leg, redirectURI string, cl *Client, q url.Values, state, verifier string) (*Token, *Client, error) {
	if err := CheckResponse(q, state, l.meta); err != nil {
		return nil, nil, err
	}
	tok, err := redeemCode(ctx, a.tokenClient(l.dpop), l.meta.TokenEndpoint, cl, l.meta.Issuer, q.Get("code"), verifier, redirectURI, l.resource, a.now())
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: token: %w", err)
	}
	return tok, cl, nil
}

// CheckResponse validates an authorization response (the query of the
// redirect): the state first (CSRF), then the issuer (RFC 9207: iss, when
// present or promised by the metadata, must be the discovered issuer),
// then an error response, then the presence of a code. The iss value is
// compared as a plain string (RFC 9207 §2.4): no trailing-slash, case or
// port normalization.
func CheckResponse(q url.Values, state string, meta ServerMetadata) error {
	if q.Get("state") != state {
		return fmt.Errorf("oauth: authorization response: %w", ErrStateMismatch)
	}
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (iss[0] == "" || iss[0] != meta.Issuer):
		return fmt.Errorf("oauth: authorization response from issuer %q, expected %q: %w", iss[0], meta.Issuer, ErrIssuerMismatch)
	case !hasIss && meta.AuthorizationResponseIssParameterSupported:
		return fmt.Errorf("oauth: authorization response without iss from %q, which promised it: %w", meta.Issuer, ErrIssuerMismatch)
	}
	if e := q.Get("error"); e != "" {
		return &AuthorizationError{Code: e, Description: q.Get("error_description"), URI: q.Get("error_uri")}
	}
	if q.Get("code") == "" {
		return &AuthorizationError{Code: "invalid_response", Description: "no code in the authorization response"}
	}
	return nil
}

// ensureClient returns the client to use with the authorization server:
// pre-registered, stored, CIMD or freshly registered.
func (a *Authorizer) ensureClient(ctx context.Context, meta ServerMetadata, redirectURI string) (*Client, error) {
	if a.settings.ClientID != "" {
		return a.preregistered(meta.TokenEndpointAuthMethodsSupported), nil
	}
	a.mu.Lock()
	stored := a.client
	a.mu.Unlock()
	if stored != nil && sameIssuer(stored.Issuer, meta.Issuer) && (stored.Kind != "cimd" || meta.ClientIDMetadataDocumentSupported) {
		return stored, nil
	}
	if meta.ClientIDMetadataDocumentSupported && a.opts.ClientMetadataURL != "" {
		return &Client{ClientID: a.opts.ClientMetadataURL, AuthMethod: AuthNone, RedirectURI: redirectURI, Issuer: meta.Issuer, Kind: "cimd"}, nil
	}
	if meta.RegistrationEndpoint == "" {
		return nil, fmt.Errorf("oauth: authorization server %s: %w", meta.Issuer, ErrNoRegistration)
	}
	grants := []string{"authorization_code"}
	if a.settings.RequestsRefreshToken() {
		grants = append(grants, "refresh_token")
	}
	cl, err := register(ctx, a.hc, meta.RegistrationEndpoint, registrationRequest{
		ClientName:              a.opts.ClientName,
		RedirectURIs:            []string{redirectURI},
		GrantTypes:              grants,
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: AuthNone,
		ApplicationType:         "native",
		ClientURI:               a.opts.ClientURI,
		SoftwareVersion:         a.opts.SoftwareVersion,
	})
	if err != nil {
		return nil, fmt.Errorf("oauth: register: %w", err)
	}
	cl.RedirectURI, cl.Issuer = redirectURI, meta.Issuer
	return cl, nil
}

// clientCredentials runs the client credentials grant.
func (a *Authorizer) clientCredentials(ctx context.Context, d *discovered, scopes []string) (*Token, *Client, error) {
	if a.settings.ClientID == "" {
		return nil, nil, fmt.Errorf("oauth: client credentials need a pre-registered client id: %w", ErrNoRegistration)
	}
	cl := a.preregistered(d.meta.TokenEndpointAuthMethodsSupported)
	if cl.AuthMethod == AuthNone {
		return nil, nil, fmt.Errorf("oauth: client credentials need a client secret or a private key: %w", ErrNoRegistration)
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	if d.resource != "" {
		form.Set("resource", d.resource)
	}
	tok, err := grant(ctx, a.tokenClient(d.dpop), d.meta.TokenEndpoint, cl, d.meta.Issuer, form, a.now())
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: client credentials: %w", err)
	}
	return tok, cl, nil
}

// Status describes the stored authorization without its secrets.
type Status struct {
	Authorized  bool      // an access token is held
	Refreshable bool      // a refresh token is held
	Expiry      time.Time // zero when unknown
	Scope       string
	Issuer      string
	ClientID    string
	ClientKind  string // "preregistered", "cimd", "dynamic" or ""
}

// Status reports the current authorization (reading the store once).
func (a *Authorizer) Status(ctx context.Context) Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.loadLocked(ctx)
	var s Status
	if t := a.token; t != nil {
		s = Status{Authorized: true, Refreshable: t.RefreshToken != "", Expiry: t.Expiry, Scope: t.Scope, Issuer: t.Issuer}
	}
	if cl := a.clientForLocked(); cl != nil {
		s.ClientID, s.ClientKind = cl.ClientID, cl.Kind
	}
	return s
}

// Revocation outcomes reported in ClearResult.NotRevoked.
const (
	NotRevokedDisabled    = "disabled"     // revoke was false
	NotRevokedNoGrant     = "no-grant"     // nothing was stored
	NotRevokedNoEndpoint  = "no-endpoint"  // the server advertises no revocation_endpoint
	NotRevokedOtherIssuer = "other-issuer" // the grant belongs to another issuer than the cached metadata
	NotRevokedUnbound     = "unbound"      // the grant was stored without its issuer
	NotRevokedNoClient    = "no-client"    // no client credentials to authenticate with
)

// ClearResult reports what Clear did at the authorization server.
type ClearResult struct {
	// Revoked: the server accepted the revocation request.
	Revoked bool
	// NotRevoked says why no request was sent ("" when one was).
	NotRevoked string
	// RevokeErr is the failure of a request that was sent (best effort:
	// the local state is cleared regardless).
	RevokeErr error
}

// Clear forgets the tokens, the client, the cached metadata and the DPoP
// key of this server and, when revoke is true (oauth.revokeOnClear, read at clear
// time), revokes the grant (RFC 7009): snapshot → clear → revoke. The
// request names the refresh token when there is one (which ends the
// access tokens of the grant too) and goes only to the revocation
// endpoint of the issuer that minted the token. The returned error is
// about the local clear only.
func (a *Authorizer) Clear(ctx context.Context, revoke bool) (ClearResult, error) {
	a.mu.Lock()
	a.loadLocked(ctx)
	tok, meta := a.token, a.meta
	cl := a.clientForLocked()
	a.token, a.client, a.meta, a.refreshed = nil, nil, nil, ""
	a.stepUps = map[string]int{}
	a.dpop.reset()
	var errs []error
	for _, k := range []string{KeyToken, KeyClient, KeyMetadata} {
		if err := a.store.Delete(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	a.mu.Unlock()
	res := ClearResult{NotRevoked: revokeReason(revoke, tok, meta, cl)}
	if res.NotRevoked == "" {
		res.Revoked, res.RevokeErr = a.revoke(ctx, tok, meta, cl)
	}
	if err := errors.Join(errs...); err != nil {
		return res, fmt.Errorf("oauth: clear: %w", err)
	}
	return res, nil
}

// revokeReason says why no revocation request may be sent ("" when one may).
func revokeReason(revoke bool, tok *Token, meta *ServerMetadata, cl *Client) string {
	switch {
	case !revoke:
		return NotRevokedDisabled
	case tok == nil:
		return NotRevokedNoGrant
	case tok.Issuer == "":
		return NotRevokedUnbound
	case meta == nil || !sameIssuer(tok.Issuer, meta.Issuer):
		return NotRevokedOtherIssuer
	case meta.RevocationEndpoint == "":
		return NotRevokedNoEndpoint
	case cl == nil:
		return NotRevokedNoClient
	}
	return ""
}

// revoke sends the RFC 7009 request with a short time limit.
func (a *Authorizer) revoke(ctx context.Context, tok *Token, meta *ServerMetadata, cl *Client) (bool, error) {
	form := url.Values{}
	if tok.RefreshToken != "" {
		form.Set("token", tok.RefreshToken)
		form.Set("token_type_hint", "refresh_token")
	} else {
		form.Set("token", tok.AccessToken)
		form.Set("token_type_hint", "access_token")
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := revokeToken(rctx, a.hc, meta.RevocationEndpoint, form, cl, meta.Issuer); err != nil {
		return false, fmt.Errorf("oauth: revoke: %w", err)
	}
	return true, nil
}

func subset(want, have []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
