import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_HEADER, clientAddress, countedAddress, PEER_HEADER, withClientAddress } from "./address";

const headers = (peer: string | null, forwardedFor?: string) => {
  const h = new Headers();
  if (peer !== null) h.set(PEER_HEADER, peer);
  if (forwardedFor !== undefined) h.set("x-forwarded-for", forwardedFor);
  return h;
};

describe("clientAddress (R-req-trusted-proxy)", () => {
  it("is the socket's peer, whatever X-Forwarded-For says, when no proxy is trusted", () => {
    expect(clientAddress(headers("192.0.2.1", "198.51.100.9"), [], true)).toBe("192.0.2.1");
  });

  it("is the peer when the peer is not one of the trusted proxies", () => {
    expect(clientAddress(headers("192.0.2.1", "198.51.100.9"), ["10.0.0.1"], true)).toBe("192.0.2.1");
  });

  it("is the right-most forwarded address that is not a trusted proxy, behind trusted proxies", () => {
    const trusted = ["10.0.0.1", "10.1.0.0/16"];
    expect(clientAddress(headers("10.0.0.1", "6.6.6.6, 198.51.100.9"), trusted, true)).toBe("198.51.100.9");
    expect(clientAddress(headers("10.0.0.1", "6.6.6.6, 198.51.100.9, 10.1.2.3"), trusted, true)).toBe("198.51.100.9");
    expect(clientAddress(headers("::ffff:10.0.0.1", "198.51.100.9"), trusted, true)).toBe("198.51.100.9");
  });

  it("counts the last proxy when a trusted proxy forwarded something that is not an address", () => {
    expect(clientAddress(headers("10.0.0.1", "nonsense, 10.1.0.5"), ["10.0.0.1", "10.1.0.0/16"], true)).toBe("10.1.0.5");
  });

  it("is unknown when the peer was not stamped by scripts/serve.mjs, since a client could have sent the header", () => {
    expect(clientAddress(headers("192.0.2.1"), [], false)).toBeNull();
    expect(clientAddress(headers(null), [], true)).toBeNull();
    expect(clientAddress(headers("not an address"), [], true)).toBeNull();
  });

  it("counts IPv4-mapped addresses as IPv4 and IPv6 by its /64", () => {
    expect(countedAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(countedAddress("2001:db8:1:2:aaaa::1")).toBe("2001:0db8:0001:0002:0000:0000:0000:0000");
    expect(countedAddress("2001:db8:1:2:bbbb::9")).toBe(countedAddress("2001:db8:1:2::1"));
  });

  it("replaces a client's own x-quiver-client with the resolved address, or drops it when unknown", async () => {
    const sent = new Request("http://studio.test/x", { headers: { [CLIENT_HEADER]: "1.1.1.1", [PEER_HEADER]: "192.0.2.1" } });
    const globals = globalThis as Record<symbol, unknown>;
    const flag = Symbol.for("quiver.peer-stamped");
    globals[flag] = true;
    try {
      expect((await withClientAddress(sent, [])).headers.get(CLIENT_HEADER)).toBe("192.0.2.1");
    } finally {
      delete globals[flag];
    }
    expect((await withClientAddress(sent, [])).headers.get(CLIENT_HEADER)).toBeNull();
  });

  it("trusts the peer header under the spelling scripts/serve.mjs stamps it with", () => {
    const serve = fs.readFileSync(path.resolve(__dirname, "..", "..", "scripts", "serve.mjs"), "utf8");
    expect(serve).toContain(`"${PEER_HEADER}"`);
    expect(serve).toContain('Symbol.for("quiver.peer-stamped")');
  });
});
