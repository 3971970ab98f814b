// A real OAuth 2.1 authorization server for the tests of core/oauth:
// oidc-provider@9.13.3 on 127.0.0.1 with open dynamic client registration,
// PKCE S256 required, RFC 8707 resource indicators (JWT access tokens whose
// aud is the MCP resource), refresh-token rotation, RFC 9207 iss in the
// authorization response, revocation and introspection, and every
// interaction (login, consent) approved at once, so that a headless
// "browser" following redirects completes the flow.
//
//   OIDC_PROVIDER=<path to oidc-provider/lib/index.js> RESOURCE=<url> [PORT=N] [DPOP=0] \
//     node oidc-provider.mjs
//
// Without PORT it listens on an ephemeral port. Prints "ready <issuer>" on
// stdout once listening. Test-only: ephemeral
// development signing keys, nothing persisted.
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const { default: Provider } = await import(pathToFileURL(process.env.OIDC_PROVIDER).href);
// Listen first, so that the issuer names the port actually bound.
const server = http.createServer();
await new Promise((resolve) => server.listen(Number(process.env.PORT || 0), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const resource = process.env.RESOURCE;
const resourceScopes = 'mcp:read mcp:write';

const provider = new Provider(issuer, {
  clients: [],
  scopes: ['openid', 'offline_access', 'mcp:read', 'mcp:write'],
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    revocation: { enabled: true },
    introspection: { enabled: true },
    // RFC 9449 proof-of-possession, advertised in the metadata: on as in
    // oidc-provider's own defaults; DPOP=0 turns it off.
    dPoP: { enabled: process.env.DPOP !== '0' },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: resourceScopes,
        audience: resource,
        accessTokenFormat: 'jwt',
        accessTokenTTL: Number(process.env.ACCESS_TTL || 3600),
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  pkce: { required: () => true },
  rotateRefreshToken: true,
  // A refresh token for every client registered with the refresh_token
  // grant (the default also wants offline_access + prompt=consent).
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  ttl: { AccessToken: Number(process.env.ACCESS_TTL || 3600) },
  findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
});

// Auto-approve every interaction: log "user-1" in, grant what is asked.
provider.use(async (ctx, next) => {
  if (!ctx.path.startsWith('/interaction/')) {
    return next();
  }
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  const { prompt, params } = details;
  let result;
  if (prompt.name === 'login') {
    result = { login: { accountId: 'user-1' } };
  } else {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
    const d = prompt.details;
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    if (d.missingResourceScopes) {
      for (const [indicator, scopes] of Object.entries(d.missingResourceScopes)) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
    }
    result = { consent: { grantId: await grant.save() } };
  }
  const to = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
  ctx.status = 303;
  ctx.redirect(to);
});

provider.on('server_error', (ctx, err) => console.error('server_error', err));
server.on('request', provider.callback());
console.log(`ready ${issuer}`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
