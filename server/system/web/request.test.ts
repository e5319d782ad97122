// fetchPage against a server of the test's own on 127.0.0.1, which these tests let through as if it were public
// (every other address is checked as fetch_url checks it), so that redirects from it to private places can be tried.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Refusal } from "../handler";
import { PrivateAddress, publicOnly, type Allows, type Resolve } from "./network";
import { fetchPage, MAX_REDIRECTS } from "./request";

let server: Server;
let base: string;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const to = (location: string) => res.writeHead(302, { location }).end();
    if (req.url === "/page") return res.writeHead(200, { "content-type": "text/plain" }).end("the page");
    if (req.url === "/to-metadata") return to("http://169.254.169.254/latest/meta-data/");
    if (req.url === "/to-ipv6-loopback") return to(`http://[::1]:${port}/page`);
    if (req.url === "/to-name") return to(`http://metadata.test:${port}/page`);
    if (req.url === "/to-public-name") return to(`http://site.test:${port}/page`);
    if (req.url === "/to-file") return to("file:///etc/passwd");
    if (req.url === "/to-nowhere") return to("http://[nope/");
    if (req.url === "/to-credentials") return to(`http://someone:secret@127.0.0.1:${port}/echo-auth`);
    if (req.url === "/echo-auth") return res.writeHead(200, { "content-type": "text/plain" }).end(req.headers.authorization ?? "no credentials");
    if (req.url?.startsWith("/loop")) return to(`/loop${Number(req.url.slice(5) || 0) + 1}`);
    if (req.url === "/gzip") return res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(gzipSync("unzipped"));
    if (req.url === "/big") return res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The test server's address passes as public; every address asked about is recorded. */
function allowsTestServer(asked: string[] = []): Allows {
  return (address) => {
    asked.push(address);
    return address === "127.0.0.1" || publicOnly(address);
  };
}

/** A resolver for the test's made-up names: metadata.test is the cloud's metadata service, site.test the test server. */
const resolve: Resolve = async (hostname) => {
  if (hostname === "metadata.test") return [{ address: "169.254.169.254", family: 4 }];
  if (hostname === "site.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};

const get = (path: string, allows: Allows = allowsTestServer(), maxBytes = 1_000_000) =>
  fetchPage(new URL(base + path), { signal: new AbortController().signal, allows, resolve, maxBytes });

describe("fetchPage", () => {
  it("checks every redirect hop: a redirect from an allowed server to a private address is refused", async () => {
    const asked: string[] = [];
    const refused = await get("/to-metadata", allowsTestServer(asked)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PrivateAddress);
    expect(refused).toMatchObject({ host: "169.254.169.254", from: `${base}/to-metadata` });
    expect(asked).toEqual(["127.0.0.1", "169.254.169.254"]);
    await expect(get("/to-ipv6-loopback")).rejects.toMatchObject({ host: "::1", address: "::1" });
  });

  it("checks a redirect to a name by the addresses the name resolves to", async () => {
    await expect(get("/to-name")).rejects.toMatchObject({ host: "metadata.test", address: "169.254.169.254", from: `${base}/to-name` });
  });

  it("connects to the address it checked, resolving each hop's name once", async () => {
    let lookups = 0;
    const once: Resolve = async (hostname, options) => (lookups++ === 0 ? resolve(hostname, options) : [{ address: "10.0.0.1", family: 4 }]);
    const page = await fetchPage(new URL(`${base}/to-public-name`), { signal: new AbortController().signal, allows: allowsTestServer(), resolve: once, maxBytes: 1_000 });
    expect(page).toMatchObject({ url: `http://site.test:${port}/page`, status: 200 });
    expect(page.bytes.toString()).toBe("the page");
    expect(lookups).toBe(1);
  });

  it("refuses a redirect to a scheme other than http and https, or to no address at all", async () => {
    await expect(get("/to-file")).rejects.toThrow(Refusal);
    await expect(get("/to-file")).rejects.toThrow("redirects to a file address");
    await expect(get("/to-nowhere")).rejects.toThrow("which is not a web address");
  });

  it("sends no credentials a redirect names", async () => {
    expect((await get("/to-credentials")).bytes.toString()).toBe("no credentials");
  });

  it(`follows at most ${MAX_REDIRECTS} redirects`, async () => {
    hits.length = 0;
    await expect(get("/loop")).rejects.toThrow(`redirects more than ${MAX_REDIRECTS} times`);
    expect(hits).toHaveLength(MAX_REDIRECTS + 1);
  });

  it("reads a compressed body as its text, and no more of a body than its bound", async () => {
    expect((await get("/gzip")).bytes.toString()).toBe("unzipped");
    const big = await get("/big", allowsTestServer(), 1_000);
    expect(big.bytes.length).toBe(1_000);
    expect(big.cut).toBe(true);
  });
});
