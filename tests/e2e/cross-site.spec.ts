// Another site's page, open in the browser where a developer is signed in, tries to act as them: it navigates to,
// form-posts to and no-cors fetches the studio, aiming at Try it (a tool that writes a marker file) and at
// agents.create. A page on another port of 127.0.0.1 is the same site, so the SameSite=Lax cookie goes with every
// one of those requests: only the studio's own checks stand in the way (R-req-origin, R-req-acting-post).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ownOrigin } from "./support/origin";

const tree = process.env.QUIVER_E2E_TOOLS!;
// In the tree, the one folder a sandboxed tool host may write that the test can also see (its /tmp is private).
const marker = path.join(tree, `cross-site-marker-${process.pid}-${Date.now()}.txt`);
const AGENT = "Planted from elsewhere";

const MARKER_TOOL = `"""Writes a marker file, so a test can tell whether a call ran."""

from pathlib import Path


def touch(path: str) -> str:
    """Write the marker.

    Args:
        path: The file to write.
    """
    Path(path).write_text("ran")
    return "written"


def measure(text: str) -> int:
    """Count the characters.

    Args:
        text: Any text.
    """
    return len(text)
`;

/** The other site: each path answers a page the test wrote. */
const pages = new Map<string, string>();
let elsewhere: http.Server;
let elsewhereUrl: string;

test.beforeAll(async () => {
  fs.writeFileSync(path.join(tree, "marker_probe.py"), MARKER_TOOL);
  elsewhere = http.createServer((req, res) => {
    const page = pages.get(req.url ?? "");
    res.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(page ?? "not here");
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => elsewhere.close(resolve));
  fs.rmSync(path.join(tree, "marker_probe.py"), { force: true });
  fs.rmSync(marker, { force: true });
});

const tryInput = { name: "marker_probe__touch", args: { path: marker }, settings: {} };
const declaration = { name: AGENT, instructions: "Obey.", model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" }, tools: [] };

/** A form that posts itself as soon as it loads; a text/plain body can be shaped as JSON, as attackers do. */
function autoForm(action: string, enctype: string, name: string, value: string): string {
  const attr = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<form method="POST" action="${attr(action)}" enctype="${enctype}"><input name="${attr(name)}" value="${attr(value)}"></form>
<script>document.forms[0].submit()</script>`;
}

async function visitElsewhere(page: Page, pathname: string, html: string, landsOnStudio: boolean): Promise<void> {
  pages.set(pathname, html);
  await page.goto(`${elsewhereUrl}${pathname}`);
  if (landsOnStudio) await page.waitForURL((url) => url.origin !== elsewhereUrl);
}

test("a page on another site cannot run a tool or create an agent as the signed-in developer", async ({ page, baseURL }) => {
  const studio = baseURL!;
  const answers: { method: string; url: string; status: number }[] = [];
  page.on("response", (response) => {
    if (response.url().startsWith(`${studio}/api/`)) answers.push({ method: response.request().method(), url: response.url(), status: response.status() });
  });

  // A link or a script sends the browser to the URL a subscription used to be reached by.
  const runUrl = `${studio}/api/trpc/tools.try.run?input=${encodeURIComponent(JSON.stringify(tryInput))}`;
  await visitElsewhere(page, "/navigate", `<script>location.href = ${JSON.stringify(runUrl)}</script>`, true);
  await expect(page.locator("body")).toContainText("another site");

  // Forms post themselves: a text/plain body shaped as JSON at Try it, a urlencoded one at agents.create.
  const tryBody = JSON.stringify({ 0: tryInput }).slice(0, -1);
  await visitElsewhere(page, "/form-try", autoForm(`${studio}/api/trpc/tools.try.run?batch=1`, "text/plain", `${tryBody}, "x": "`, `"}`), true);
  await expect(page.locator("body")).toContainText("another site");
  await visitElsewhere(page, "/form-agent", autoForm(`${studio}/api/trpc/agents.create`, "application/x-www-form-urlencoded", "declaration", JSON.stringify(declaration)), true);
  await expect(page.locator("body")).toContainText("another site");

  // Scripts fetch without CORS (the answers are opaque to them, but the requests are sent, cookie and all).
  const fetches = `<script>
    const send = (url, init) => fetch(url, { mode: "no-cors", credentials: "include", ...init });
    Promise.allSettled([
      send(${JSON.stringify(runUrl)}),
      send(${JSON.stringify(`${studio}/api/trpc/tools.try.run?batch=1`)}, { method: "POST", body: ${JSON.stringify(JSON.stringify({ 0: tryInput }))} }),
      send(${JSON.stringify(`${studio}/api/trpc/agents.create`)}, { method: "POST", body: ${JSON.stringify(JSON.stringify({ declaration }))} }),
    ]).then(() => { document.title = "sent"; });
  </script>`;
  await visitElsewhere(page, "/fetch", fetches, false);
  await expect(page).toHaveTitle("sent");

  // Give a call that had started every chance to write its marker.
  await page.waitForTimeout(2_000);
  expect(fs.existsSync(marker)).toBe(false);
  expect(answers.length).toBeGreaterThanOrEqual(6);
  for (const answer of answers) expect(answer.status, `${answer.method} ${answer.url}`).toBe(403);

  const agents = await page.request.get("/api/trpc/agents.list");
  expect((await agents.json()).result.data.map((agent: { name: string }) => agent.name)).not.toContain(AGENT);

  // The same tool, run from the studio's own editor, does write the marker: the checks, not a broken tool, held.
  await page.goto("/tools/marker_probe.py");
  await page.getByRole("tab", { name: "Try it" }).click();
  await page.getByRole("combobox", { name: "Operation" }).selectOption("marker_probe__touch");
  await page.getByLabel("path").fill(marker);
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("try-result")).toHaveText("written");
  expect(fs.readFileSync(marker, "utf8")).toBe("ran");
});

test("Try it takes a megabyte of arguments from the studio's own page, and refuses more with a sentence", async ({ page }) => {
  const send = (text: string) =>
    page.request.post("/api/trpc/tools.try.run?batch=1", {
      headers: { ...ownOrigin, "trpc-accept": "application/jsonl" },
      data: { 0: { name: "marker_probe__measure", args: { text }, settings: {} } },
    });
  // Taken and answered, streamed back: no 431, no reset connection.
  const megabyte = await send("y".repeat(1_000_000));
  expect(megabyte.status()).toBe(200);
  expect(await megabyte.text()).toContain('"text":"1000000"');
  const tooMuch = await send("z".repeat(1_200_000));
  expect(await tooMuch.text()).toContain("over Try it's limit of 1 MB: send less.");
});
