// An http server's sign-in as its row writes it (R-mcp-oauth-connect): the accepted shapes, and each fault a
// sentence at its field with nothing saved.
import { describe, expect, it } from "vitest";
import { parseServerConfig } from "./config";

const http = (transport: Record<string, unknown>) => parseServerConfig({ name: "tickets", transport: { type: "http", url: "https://mcp.example.com/mcp", ...transport } });
const faults = (transport: Record<string, unknown>) => http(transport).problems.map((p) => [p.path, p.message]);

describe("an OAuth sign-in on an http server", () => {
  it("takes \"oauth\" alone, or a given client id with its secret's reference and scopes as a list or one text", () => {
    expect(http({ auth: "oauth" }).config?.transport).toEqual({ type: "http", url: "https://mcp.example.com/mcp", headers: {}, auth: { type: "oauth", clientId: null, clientSecret: null, scopes: [] } });
    const given = http({ auth: { type: "oauth", clientId: " quiver-app ", clientSecret: "${TICKETS_CLIENT_SECRET}", scopes: "read  write read" } });
    expect(given.config?.transport).toMatchObject({ auth: { type: "oauth", clientId: "quiver-app", clientSecret: "${TICKETS_CLIENT_SECRET}", scopes: ["read", "write"] } });
    expect(http({ auth: "none" }).config?.transport).toEqual({ type: "http", url: "https://mcp.example.com/mcp", headers: {} });
  });

  it("refuses a client secret written out, or given without a client id", () => {
    expect(faults({ auth: { type: "oauth", clientId: "app", clientSecret: "s3cr3t-value" } })).toEqual([
      ["transport.auth.clientSecret", expect.stringMatching(/^The client secret must be a secret's reference, like \$\{TICKETS_CLIENT_SECRET\}/)],
    ]);
    expect(faults({ auth: { type: "oauth", clientSecret: "${CS}" } })).toEqual([["transport.auth.clientSecret", expect.stringMatching(/^A client secret belongs to a client id/)]]);
  });

  it("refuses an Authorization header beside it and a secret in the URL, which the consent page would show", () => {
    expect(faults({ auth: "oauth", headers: { authorization: "Bearer ${T}" } })).toEqual([["transport.headers.authorization", expect.stringMatching(/gets its Authorization header from the sign-in/)]]);
    expect(faults({ auth: "oauth", url: "https://mcp.example.com/mcp?key=${KEY}" })).toEqual([["transport.url", expect.stringMatching(/write the URL without a secret\.$/)]]);
  });

  it("refuses another kind of sign-in, a scope that is not one word, and a client id with a reference", () => {
    expect(faults({ auth: "basic" })).toEqual([["transport.auth", expect.stringMatching(/^The sign-in is "oauth"/)]]);
    expect(faults({ auth: { type: "oauth", scopes: ['say "hi"'] } })).toEqual([["transport.auth.scopes", expect.stringMatching(/is not a scope/)]]);
    expect(faults({ auth: { type: "oauth", clientId: "${APP_ID}" } })).toEqual([["transport.auth.clientId", expect.stringMatching(/^The client id is a plain text/)]]);
  });
});
