package oauth

import (
	"context"
	"fmt"
	"net/url"
)

// Token types and grants of enterprise-managed authorization (SEP-990,
// "Identity Assertion Authorization Grant"): RFC 8693 token exchange at the
// enterprise IdP, then an RFC 7523 JWT bearer grant at the MCP server's
// authorization server.
const (
	GrantTypeTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	GrantTypeJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	TokenTypeIDToken       = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeIDJAG         = "urn:ietf:params:oauth:token-type:id-jag"
)

// EnterpriseScope is the fixed scope of the sign-in at the enterprise IdP;
// oauth.requestRefreshToken, oauth.authorizationParams and the endpoint
// overrides do not apply to that leg.
const EnterpriseScope = "openid offline_access"

// Enterprise configures enterprise-managed authorization: the user signs
// in at the enterprise identity provider (OpenID Connect), the IdP's ID
// token is exchanged there for an identity assertion (ID-JAG) for the MCP
// server's authorization server, and that assertion is redeemed for an
// access token with the client credentials of oauth.clientId/clientSecret.
type Enterprise struct {
	// IDPIssuer is the IdP's OpenID Connect issuer (discovery runs on it).
	IDPIssuer string
	// IDPTokenEndpoint replaces the discovered token endpoint when set.
	IDPTokenEndpoint string
	// IDPClientID and IDPClientSecret are Spyglass's client at the IdP.
	IDPClientID     string
	IDPClientSecret string
	// IDToken, when set, is an ID token already obtained: the browser
	// sign-in at the IdP is skipped.
	IDToken string
}

// enterprise runs the enterprise-managed flow.
func (a *Authorizer) enterprise(ctx context.Context, d *discovered, scopes []string) (*Token, *Client, error) {
	e := a.opts.Enterprise
	if e == nil || e.IDPClientID == "" || (e.IDPIssuer == "" && e.IDPTokenEndpoint == "") {
		return nil, nil, fmt.Errorf("oauth: enterprise IdP: %w", ErrEnterpriseManaged)
	}
	if a.settings.ClientID == "" {
		return nil, nil, fmt.Errorf("oauth: enterprise-managed authorization needs oauth.clientId: %w", ErrNoRegistration)
	}
	idpClient := &Client{ClientID: e.IDPClientID, ClientSecret: e.IDPClientSecret, AuthMethod: AuthNone, Kind: "preregistered"}
	if e.IDPClientSecret != "" {
		idpClient.AuthMethod = AuthClientSecretBasic
	}
	var idpMeta ServerMetadata
	if e.IDPIssuer != "" {
		m, found, err := discoverServer(ctx, a.hc, e.IDPIssuer, true)
		if err != nil {
			return nil, nil, fmt.Errorf("oauth: enterprise IdP: %w", err)
		}
		if found {
			idpMeta = m
		} else if e.IDPTokenEndpoint == "" {
			return nil, nil, fmt.Errorf("oauth: enterprise IdP %s: %w", e.IDPIssuer, ErrNoMetadata)
		}
	}
	if e.IDPTokenEndpoint != "" {
		idpMeta.TokenEndpoint = e.IDPTokenEndpoint
	}
	if idpMeta.Issuer == "" {
		idpMeta.Issuer = e.IDPIssuer
	}

	// 1. The ID token: given, or from a sign-in at the IdP.
	idToken := e.IDToken
	if idToken == "" {
		tok, _, err := a.browserLeg(ctx, leg{
			meta:   idpMeta,
			client: func(string) (*Client, error) { return idpClient, nil },
			scopes: []string{"openid", OfflineAccess},
		})
		if err != nil {
			return nil, nil, fmt.Errorf("oauth: enterprise IdP sign-in: %w", err)
		}
		if tok.IDToken == "" {
			return nil, nil, fmt.Errorf("oauth: enterprise IdP sign-in returned no id_token: %w", ErrEnterpriseManaged)
		}
		idToken = tok.IDToken
	}

	// 2. Token exchange at the IdP: ID token → ID-JAG for the MCP server's
	// authorization server and resource.
	form := url.Values{
		"grant_type":           {GrantTypeTokenExchange},
		"subject_token":        {idToken},
		"subject_token_type":   {TokenTypeIDToken},
		"requested_token_type": {TokenTypeIDJAG},
		"audience":             {d.meta.Issuer},
		"resource":             {d.resource},
	}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	jag, err := tokenRequest(ctx, a.hc, idpMeta.TokenEndpoint, idpClient, idpMeta.Issuer, form)
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: enterprise token exchange: %w", err)
	}
	if issued, _ := jag.Extra("issued_token_type").(string); issued != "" && issued != TokenTypeIDJAG {
		return nil, nil, fmt.Errorf("oauth: enterprise token exchange returned no identity assertion: %w", ErrEnterpriseManaged)
	}

	// 3. JWT bearer grant at the MCP server's authorization server.
	cl := a.preregistered(d.meta.TokenEndpointAuthMethodsSupported)
	tok, err := a.jwtBearer(ctx, d, cl, jag.AccessToken, scopes)
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: enterprise: %w", err)
	}
	return tok, cl, nil
}

// jwtBearer redeems a JWT assertion at the authorization server's token
// endpoint (RFC 7523 §2.1). A refusal is final: no retry, no other grant.
func (a *Authorizer) jwtBearer(ctx context.Context, d *discovered, cl *Client, assertion string, scopes []string) (*Token, error) {
	form := url.Values{"grant_type": {GrantTypeJWTBearer}, "assertion": {assertion}}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	tok, err := grant(ctx, a.tokenClient(d.dpop), d.meta.TokenEndpoint, cl, d.meta.Issuer, form, a.now())
	if err != nil {
		return nil, fmt.Errorf("oauth: JWT bearer grant: %w", err)
	}
	return tok, nil
}
