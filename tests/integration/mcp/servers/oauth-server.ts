// An OAuth-protected MCP server on 127.0.0.1, built from the official SDK's (v1) server pieces: mcpAuthRouter as the
// authorization server (metadata, dynamic registration, authorize, token), requireBearerAuth in front of a stateless
// Streamable HTTP endpoint with two tools. Consent is given at once (or refused, when the test says so). The test
// can expire every access token, revoke every grant, and read what was issued and what each request carried.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";
import express from "express";
import type { Response } from "express";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

type Grant = { clientId: string; scopes: string[]; resource?: URL };

export type OAuthServer = {
  /** The MCP endpoint. */
  url: string;
  /** Every access and refresh token and client secret issued, so a test can look for them where they must not be. */
  issued: string[];
  /** The Authorization header of each request to the MCP endpoint. */
  bearers: string[];
  authorizations: AuthorizationParams[];
  counts: { registrations: number; refreshes: number; exchanges: number };
  /** Clients registered by hand, as an admin's "given client id" is. */
  addClient(client: OAuthClientInformationFull): void;
  /** Consent is refused (access_denied) while this is true. */
  deny: boolean;
  /** Every access token issued so far reads as expired. */
  expireAccessTokens(): void;
  /** Every access and refresh token is forgotten: a refresh answers invalid_grant. */
  revokeAll(): void;
  close(): Promise<void>;
};

const token = (kind: string) => `${kind}-${randomBytes(18).toString("base64url")}`;

class AutoConsentProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  readonly access = new Map<string, Grant & { expiresAt: number }>();
  readonly refresh = new Map<string, Grant>();
  deny = false;

  constructor(private readonly server: Pick<OAuthServer, "issued" | "authorizations" | "counts">) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        this.server.counts.registrations += 1;
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        if (full.client_secret) this.server.issued.push(full.client_secret);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.server.authorizations.push(params);
    const back = new URL(params.redirectUri);
    if (params.state !== undefined) back.searchParams.set("state", params.state);
    if (this.deny) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user said no");
    } else {
      const code = randomUUID();
      this.codes.set(code, { client: client.client_id, params });
      back.searchParams.set("code", code);
    }
    res.redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new InvalidGrantError("unknown authorization code");
    return found.params.codeChallenge;
  }

  private issue(grant: Grant): OAuthTokens {
    const accessToken = token("access");
    const refreshToken = token("refresh");
    this.access.set(accessToken, { ...grant, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refreshToken, grant);
    this.server.issued.push(accessToken, refreshToken);
    return { access_token: accessToken, token_type: "bearer", expires_in: 3600, refresh_token: refreshToken, scope: grant.scopes.join(" ") };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.client !== client.client_id) throw new InvalidGrantError("the code was not issued to this client");
    this.codes.delete(code);
    this.server.counts.exchanges += 1;
    return this.issue({ clientId: client.client_id, scopes: found.params.scopes ?? [], resource: found.params.resource });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError("the refresh token was revoked");
    this.refresh.delete(refreshToken);
    this.server.counts.refreshes += 1;
    return this.issue(grant);
  }

  async verifyAccessToken(accessToken: string): Promise<AuthInfo> {
    const grant = this.access.get(accessToken);
    if (!grant) throw new InvalidTokenError("unknown or revoked token");
    return { token: accessToken, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000), resource: grant.resource };
  }
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: "quiver-oauth-test", version: "1.0.0" });
  server.registerTool("whoami", { description: "Say which client the request was signed in as, and with which scopes." }, async (extra) => ({
    content: [{ type: "text", text: `Signed in as a client with scopes: ${extra.authInfo?.scopes.join(" ") || "(none)"}` }],
  }));
  server.registerTool("ping", { description: "Answer pong.", annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: "text", text: "pong" }] }));
  return server;
}

export async function oauthServer(): Promise<OAuthServer> {
  let app: express.Express | null = null;
  const node = http.createServer((req, res) => app!(req, res));
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  const url = `${origin}/mcp`;
  const state = { issued: [] as string[], bearers: [] as string[], authorizations: [] as AuthorizationParams[], counts: { registrations: 0, refreshes: 0, exchanges: 0 } };
  const provider = new AutoConsentProvider(state);

  app = express();
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(`${origin}/`), resourceServerUrl: new URL(url), scopesSupported: ["tools"] }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) });
  app.all("/mcp", (req, _res, next) => {
    state.bearers.push(req.headers.authorization ?? "");
    next();
  }, bearer, express.json(), async (req, res) => {
    // Stateless: one server and transport per request, so no session outlives a sign-in.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer();
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  return {
    url,
    ...state,
    addClient: (client) => provider.clients.set(client.client_id, client),
    get deny() {
      return provider.deny;
    },
    set deny(value: boolean) {
      provider.deny = value;
    },
    expireAccessTokens() {
      for (const grant of provider.access.values()) grant.expiresAt = Date.now() - 1_000;
    },
    revokeAll() {
      provider.access.clear();
      provider.refresh.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        node.closeAllConnections();
        node.close(() => resolve());
      }),
  };
}
