// Package oauth is Spyglass's OAuth 2.1 client for MCP servers reached
// over HTTP (MCP authorization, 2025-11-25, with the 2025-03-26
// fallbacks).
//
// An Authorizer belongs to one catalog server. Its Prepare method is the
// wire.HTTPConfig.Prepare hook: it adds a fresh bearer token to every
// request (refreshing it first when a tenth of its lifetime, at most 30 s,
// is left; concurrent requests share one refresh, so a rotated refresh
// token is never sent twice). When the server answers 401 (or 403 with a
// Bearer challenge: a 403 without one is not OAuth's) the caller hands the
// error to HandleUnauthorized (or turns it into a Challenge with
// ChallengeFromError and calls Authorize), which runs the flow and returns
// nil when the request may be sent again:
//
//   - protected-resource metadata (RFC 9728): the resource_metadata URL of
//     WWW-Authenticate, then the path-aware and root well-known URLs; the
//     metadata's resource must name the server being connected to;
//   - authorization-server metadata (RFC 8414 and OpenID Connect
//     discovery) in the spec's path-insertion order, the issuer checked;
//     without protected-resource metadata, the 2025-03-26 behaviour (the
//     server's origin is the authorization server; /authorize, /token and
//     /register when it publishes no metadata);
//   - the client: pre-registered (catalog clientId/clientSecret), a client
//     ID metadata document URL when the server supports them, or dynamic
//     client registration (RFC 7591) as a native public client;
//   - scope selection (WWW-Authenticate scope, then scopes_supported;
//     offline_access only when asked for refresh tokens and offered);
//   - the browser leg: PKCE S256, state, RFC 8707 resource, extra
//     authorizationParams (reserved ones dropped with a Warning), a
//     loopback redirect receiver on 127.0.0.1 with an ephemeral port, and
//     the RFC 9207 iss check against the discovered issuer; the page the
//     browser lands on says whether the sign-in succeeded, and why not;
//     the wait is bounded by Options.SignInTimeout;
//   - the token requests through golang.org/x/oauth2 (the code exchange
//     with the PKCE verifier; the other grants through its client
//     credentials request, which carries resource and any grant_type),
//     with token_endpoint_auth_method none, client_secret_basic,
//     client_secret_post or private_key_jwt (assertions signed with
//     golang-jwt); refresh; step-up on 403
//     insufficient_scope (at most MaxStepUps times per scope set, never for
//     scopes already granted); the client credentials grant (client secret
//     or private_key_jwt) for machine clients; enterprise-managed
//     authorization (SEP-990: an OpenID Connect sign-in at the enterprise
//     IdP, RFC 8693 token exchange for an ID-JAG, RFC 7523 JWT bearer
//     grant).
//
// Settings a flow cannot use (reserved authorizationParams, malformed
// endpoint overrides, ...) reach Options.OnWarning as Warnings.
//
// Tokens, client credentials and the discovered metadata are kept in a
// secrets.Store under the server's name; nothing secret is ever written to
// the catalog, an event, an error or a log line. Clear forgets everything
// and, where allowed, revokes the grant (RFC 7009).
//
// A person is needed only to open the authorization URL: that is the
// Browser interface. SystemBrowser runs --browser, $BROWSER or the
// desktop's opener (commands split like a shell would) and reports a
// command that fails, which ends the sign-in at once; the window's
// URL-mode elicitation opens pages with it too. HTTPBrowser follows
// redirects headlessly, for tests and automation.
package oauth
