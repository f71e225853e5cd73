// A third-party authorization server for the end-to-end suite: oidc-provider (npm, a certified
// OpenID provider, pinned in xtask/src/setup/tools.rs) in front of `weather-server --auth-issuer`.
//
//   node oidc-provider.mjs --port P --resource http://127.0.0.1:Q/mcp --client-id ID --redirect URI
//                          [--access-token-ttl SECONDS]
//
// It knows one resource server (the weather server's /mcp, with the scopes mcp:basic and
// weather:read) and one pre-registered public client (the page, PKCE, no secret; its token
// requests are CORS-allowed because the redirect URI is on the page's origin). Access tokens
// are JWTs signed with a P-256 key made at start; the weather server reads the key from the
// JWKS the metadata names. Login and consent are oidc-provider's own development pages.
// Prints "oidc-provider listening on http://127.0.0.1:P" once it accepts connections.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import Provider from 'oidc-provider';

const { values: opt } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    resource: { type: 'string' },
    'client-id': { type: 'string', default: 'mcp-flow-page' },
    redirect: { type: 'string', multiple: true },
    // Short lifetimes let a test see the client refresh its token.
    'access-token-ttl': { type: 'string', default: '600' },
  },
});
const accessTokenTTL = Number(opt['access-token-ttl']);
if (!opt.resource || !opt.redirect?.length || !(accessTokenTTL > 0)) {
  console.error('usage: oidc-provider.mjs --port P --resource URL --redirect URI [--redirect URI] [--client-id ID] [--access-token-ttl S]');
  process.exit(2);
}

const RESOURCE_SCOPES = 'mcp:basic weather:read';
const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });

function configuration() {
  return {
    clients: [{
      client_id: opt['client-id'],
      client_name: 'MCP Flow (page)',
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: opt.redirect,
      // The provider's only key is the P-256 one.
      id_token_signed_response_alg: 'ES256',
    }],
    jwks: { keys: [{ ...signing, kid: 'e2e-p256', use: 'sig', alg: 'ES256' }] },
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => opt.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== opt.resource) throw new Provider.errors.InvalidTarget();
          return {
            scope: RESOURCE_SCOPES,
            audience: opt.resource,
            accessTokenTTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // A refresh token for the code grant even without offline_access, as MCP clients expect.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    cookies: { keys: [randomBytes(32).toString('hex')] },
  };
}

// Listen first, so the issuer can name the port the system chose.
const { createServer } = await import('node:http');
const server = createServer();
await new Promise((resolve) => server.listen(Number(opt.port), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const provider = new Provider(issuer, configuration());
server.on('request', provider.callback());
console.log(`oidc-provider listening on ${issuer}`);
