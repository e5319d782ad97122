// system:web's fetch_url against a server of the test's own on 127.0.0.1 (so with private addresses allowed): HTML read
// as text, the text cut at the builder's max_length (R-sys-web: the model sets only url), other schemes refused, failed
// requests told apart, and private addresses refused unless the builder allows them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, context, place, type Place } from "./context";

const PAGE = `<!doctype html><html><head><title>Quiver &amp; friends</title><style>body { color: red }</style>
<script>alert("no")</script></head><body><nav><a href="/home">Home</a></nav>
<h1>Hello</h1><p>Fish &amp; chips&nbsp;&mdash; <b>tasty</b>.</p><ul><li>one</li><li>two</li></ul>
<p>See <a href="/docs?a=1&amp;b=2">the docs</a>.</p><!-- hidden --></body></html>`;

let server: Server;
let base: string;
let p: Place;
let sent = 0;

beforeAll(async () => {
  p = place("web");
  server = createServer((req, res) => {
    if (req.url === "/page") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    if (req.url === "/long") {
      const body = "a".repeat(50_000);
      sent = body.length;
      return res.writeHead(200, { "content-type": "text/plain" }).end(body);
    }
    if (req.url === "/moved") return res.writeHead(302, { location: "/page" }).end();
    if (req.url === "/png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    if (req.url === "/down") return res.writeHead(503, { "content-type": "text/plain" }).end("try later");
    res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  p.cleanup();
});

const fetchUrl = (url: string, settings: Record<string, unknown> = {}) =>
  call("web", "fetch_url", { url }, context(p, { settings: { allow_private_network: true, ...settings } }));
/** fetch_url as a new entry of system:web has it: private addresses not allowed. */
const fetchByDefault = (url: string) => call("web", "fetch_url", { url }, context(p, { settings: { max_length: 20_000, allow_private_network: false } }));


describe("fetch_url", () => {
  it("turns HTML into readable text: no scripts or styles, headings marked, links kept with their address", async () => {
    const result = await fetchUrl(`${base}/page`);
    expect(result.outcome).toBe("ok");
    expect(result.text).toBe(
      [
        "# Quiver & friends",
        "",
        `Home (${base}/home)`,
        "",
        "# Hello",
        "",
        "Fish & chips — tasty.",
        "",
        "- one",
        "- two",
        "",
        `See the docs (${base}/docs?a=1&b=2).`,
      ].join("\n"),
    );
  });

  it("cuts the text at the builder's max_length, though the whole page was downloaded", async () => {
    const result = await fetchUrl(`${base}/long`, { max_length: 1_000 });
    expect(sent).toBe(50_000);
    expect(result.outcome).toBe("ok");
    expect(result.text).toBe(`${"a".repeat(1_000)}\n[Cut at 1,000 of 50,000 characters.]`);
    expect((await fetchUrl(`${base}/long`)).text).toContain("[Cut at 20,000 of 50,000 characters.]");
  });

  it("refuses every scheme but http and https, without fetching", async () => {
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "data:text/plain,hi"]) {
      const result = await fetchUrl(url);
      expect(result.outcome, url).toBe("refused");
      expect(result.text).toContain("only http and https");
    }
    expect((await fetchUrl("not a url")).outcome).toBe("refused");
  });

  it("follows a redirect and says where it led", async () => {
    expect((await fetchUrl(`${base}/moved`)).text).toMatch(new RegExp(`^\\(redirected to ${base}/page\\)\\n# Quiver`));
  });

  it("answers the status of a failed request, a server error as worth retrying", async () => {
    expect(await fetchUrl(`${base}/nope`)).toEqual({ outcome: "failed", text: `HTTP 404 Not Found from ${base}/nope.\nno such page` });
    expect(await fetchUrl(`${base}/down`)).toMatchObject({ outcome: "transient", text: expect.stringContaining("HTTP 503") });
    expect(await fetchUrl("http://127.0.0.1:1/")).toMatchObject({ outcome: "transient", text: expect.stringContaining("Could not reach 127.0.0.1:1") });
  });

  it("refuses a response that is not text", async () => {
    expect(await fetchUrl(`${base}/png`)).toMatchObject({ outcome: "refused", text: expect.stringContaining("image/png, not text") });
  });

  it("refuses every private range by default, IPv4 and IPv6 literals alike, naming the host and who can allow it", async () => {
    for (const host of [
      "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
      "[::1]", "[::]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "[::ffff:127.0.0.1]",
    ]) {
      const result = await fetchByDefault(`http://${host}/latest/meta-data/`);
      expect(result.outcome, host).toBe("refused");
      expect(result.text, host).toMatch(/^\S+ is a private network address, which fetch_url does not reach; /);
      expect(result.text).toContain("ask the agent's builder to allow private addresses in the web source's settings.");
    }
    expect((await fetchByDefault("http://[::1]/")).text).toMatch(/^::1 is a private network address/);
  });

  it("refuses a name that resolves to a private address, such as localhost, naming the name and the address", async () => {
    const result = await fetchByDefault(`http://localhost:${new URL(base).port}/page`);
    expect(result.outcome).toBe("refused");
    expect(result.text).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a private network address, which fetch_url does not reach; /);
  });

  it("reaches loopback when the builder allows private addresses, and not when the setting is off", async () => {
    expect(await fetchUrl(`${base}/page`, { allow_private_network: true })).toMatchObject({ outcome: "ok", text: expect.stringContaining("# Hello") });
    expect((await fetchByDefault(`${base}/page`)).outcome).toBe("refused");
  });
});
