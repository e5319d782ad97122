import { describe, expect, it } from "vitest";
import { withinBodyLimit } from "./body";
import { crossSiteRefusal, FROM_ANOTHER_SITE, FROM_NO_PAGE } from "./origin";

const SESSION = "quiver.session_token=abc.def";

function request(method: string, headers: Record<string, string>, url = "http://127.0.0.1:3000/api/trpc/agents.create") {
  return new Request(url, { method, headers: { host: "127.0.0.1:3000", ...headers } });
}

describe("crossSiteRefusal (R-req-origin)", () => {
  it("takes a change whose Origin is the host it was sent to", () => {
    expect(crossSiteRefusal(request("POST", { origin: "http://127.0.0.1:3000", cookie: SESSION }), undefined)).toBeNull();
  });

  it("refuses a change from another port of the same host, which is the same site and carries the cookie", () => {
    expect(crossSiteRefusal(request("POST", { origin: "http://127.0.0.1:4000", cookie: SESSION }), undefined)).toBe(FROM_ANOTHER_SITE);
  });

  it("refuses an Origin of null, as a sandboxed frame or a file page sends it", () => {
    expect(crossSiteRefusal(request("POST", { origin: "null", cookie: SESSION }), undefined)).toBe(FROM_ANOTHER_SITE);
  });

  it("reads Sec-Fetch-Site where Origin is absent", () => {
    expect(crossSiteRefusal(request("POST", { "sec-fetch-site": "same-origin", cookie: SESSION }), undefined)).toBeNull();
    expect(crossSiteRefusal(request("POST", { "sec-fetch-site": "same-site", cookie: SESSION }), undefined)).toBe(FROM_ANOTHER_SITE);
    expect(crossSiteRefusal(request("POST", { "sec-fetch-site": "cross-site" }), undefined)).toBe(FROM_ANOTHER_SITE);
  });

  it("refuses a change that names neither, with a sentence saying what to send", () => {
    expect(crossSiteRefusal(request("POST", { cookie: SESSION }), undefined)).toBe(FROM_NO_PAGE);
    expect(crossSiteRefusal(request("DELETE", {}), undefined)).toBe(FROM_NO_PAGE);
    expect(FROM_NO_PAGE).toMatch(/^This request .*\.$/);
  });

  it("lets a read through when it names nothing, and refuses one another site's page made", () => {
    expect(crossSiteRefusal(request("GET", { cookie: SESSION }), undefined)).toBeNull();
    expect(crossSiteRefusal(request("GET", { "sec-fetch-site": "none", cookie: SESSION }), undefined)).toBeNull();
    expect(crossSiteRefusal(request("GET", { "sec-fetch-site": "cross-site", cookie: SESSION }), undefined)).toBe(FROM_ANOTHER_SITE);
  });

  it("compares with QUIVER_BASE_URL's origin when it is set, whatever host the request reached", () => {
    const base = "https://quiver.example.com";
    expect(crossSiteRefusal(request("POST", { origin: "https://quiver.example.com" }), base)).toBeNull();
    expect(crossSiteRefusal(request("POST", { origin: "http://127.0.0.1:3000" }), base)).toBe(FROM_ANOTHER_SITE);
    expect(crossSiteRefusal(request("POST", { origin: "http://quiver.example.com" }), base)).toBe(FROM_ANOTHER_SITE);
  });

  it("leaves a request with an Authorization header and no session cookie to its key (the API-key seam)", () => {
    expect(crossSiteRefusal(request("POST", { authorization: "Bearer qk_123", origin: "http://elsewhere.test" }), undefined)).toBeNull();
    expect(crossSiteRefusal(request("POST", { authorization: "Bearer qk_123" }), undefined)).toBeNull();
    const both = request("POST", { authorization: "Bearer qk_123", cookie: `other=1; __Secure-${SESSION}`, origin: "http://elsewhere.test" });
    expect(crossSiteRefusal(both, undefined)).toBe(FROM_ANOTHER_SITE);
  });
});

describe("withinBodyLimit", () => {
  it("hands on a body under the limit unchanged", async () => {
    const text = JSON.stringify({ a: "x".repeat(1000) });
    const bounded = await withinBodyLimit(new Request("http://s.test/", { method: "POST", body: text }), 2000);
    expect(bounded.refusal).toBeNull();
    expect(await bounded.request!.text()).toBe(text);
  });

  it("refuses a body over the limit with a sentence naming both sizes", async () => {
    const bounded = await withinBodyLimit(new Request("http://s.test/", { method: "POST", body: "x".repeat(3 * 1024 * 1024) }), 1024 * 1024);
    expect(bounded.refusal).toBe("This request's body is 3 MB, over the studio's limit of 1 MB: send less.");
  });
});
