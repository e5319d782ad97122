// Every page of the studio, and the open states that matter (a dialog, a folded card opened, a tab chosen), passes
// axe-core's WCAG 2.1 A and AA rules with no serious or critical violation, in light and in dark (R-a11y-axe). One
// browser page walks them all (a failed test starts it afresh); what the check leaves out is listed, with why, in
// AXE_IGNORED.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { call, startLoopbackModel, type LoopbackModel } from "../support/loopback-model";
import { adminState } from "./support/accounts";
import { axeReport } from "./support/axe";
import { ownOrigin } from "./support/origin";

const baseURL = `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}`;
const NAME = "Accessible scribe";

let model: LoopbackModel;
let page: Page;
let agentId = "";
let runId = "";

async function post<T>(path: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${path}`, { headers: ownOrigin, data });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Fails with every serious or critical violation of the page as it stands, in both schemes. */
async function expectAccessible(what: string): Promise<void> {
  const report = await axeReport(page, what);
  expect(report === "", `axe found serious or critical violations:\n${report}`).toBe(true);
}

/** Opens a page and waits for its title and for what `ready` says the page has once its data has come. */
async function open(path: string, ready?: () => Promise<void>): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await ready?.();
}

async function openPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: adminState, baseURL });
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  model = await startLoopbackModel();
  page = await openPage(browser);
  ({ id: agentId } = await post<{ id: string }>("agents.create", {
    declaration: {
      name: NAME,
      description: "Writes what it is asked to, asking first.",
      instructions: "Write what you are asked to write.",
      model: { provider: "openai-compatible", model: "scripted", base_url: model.url },
      tools: [{ entry: "system:filesystem#write_file", settings: { root: "accessible" }, permissions: { write_file: "ASK" } }],
    },
  }));
  await post("secrets.create", { name: "A11Y_TOKEN", value: "a11y-value-never-shown", description: "A token for the accessibility check" });
  // A run left waiting on an approval card: the playground's and the trace's busiest state.
  model.reply(call("write_file", { path: "hello.txt", content: "Hello" }));
  ({ runId } = await post<{ runId: string }>("runs.start", { agentId, message: "Please write hello.txt" }));
});

test.afterAll(async () => {
  if (runId) await page.request.post("/api/trpc/runs.cancel", { headers: ownOrigin, data: { runId } });
  await page.request.post("/api/trpc/secrets.remove", { headers: ownOrigin, data: { name: "A11Y_TOKEN" } });
  if (agentId) await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id: agentId } });
  await page.context().close();
  await model.close();
});

test("R-a11y-axe: sign-in and home", async ({ browser }) => {
  // A browser of its own with nobody signed in, so the admin's page stays signed in for the other checks.
  const stranger = await (await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })).newPage();
  await stranger.goto("/sign-in");
  await expect(stranger.getByRole("button", { name: "Sign in" })).toBeVisible();
  const report = await axeReport(stranger, "/sign-in");
  await stranger.context().close();
  expect(report === "", `axe found serious or critical violations:\n${report}`).toBe(true);

  await open("/");
  await expectAccessible("/");
});

test("R-a11y-axe: tools, and a tool file in the editor with each of its tabs", async () => {
  await open("/tools", () => expect(page.getByRole("link", { name: "tickets.py" }).first()).toBeVisible());
  await expectAccessible("/tools");
  await page.getByRole("button", { name: "New tool file" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible("/tools, New tool file");
  await page.keyboard.press("Escape");

  await open("/tools/tickets.py", () => expect(page.locator(".monaco-editor").first()).toBeVisible());
  await expect(page.getByRole("tabpanel", { name: "Schema preview" })).toContainText("lookup");
  await expectAccessible("/tools/tickets.py, Schema preview");
  for (const tab of ["Settings", "Try it", "History"]) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    await expectAccessible(`/tools/tickets.py, ${tab}`);
  }
});

test("R-a11y-axe: agents, and an agent's page with its folds and palette open", async () => {
  await open("/agents", () => expect(page.getByRole("row", { name: new RegExp(NAME) })).toBeVisible());
  await expectAccessible("/agents");

  await open(`/agents/${agentId}`, () => expect(page.getByRole("region", { name: "Write a file" }).or(page.getByRole("region", { name: /Files/ })).first()).toBeVisible());
  await expectAccessible("/agents/<id>");
  await page.getByRole("button", { name: "Settings and approval" }).first().click();
  await expect(page.getByRole("heading", { name: "Approval" }).first()).toBeVisible();
  await expectAccessible("/agents/<id>, a source's settings and approval open");
  await page.getByRole("button", { name: "Show as text" }).click();
  await expectAccessible("/agents/<id>, shown as text");
  await page.getByRole("button", { name: "Show as cards" }).click();
  await page.getByRole("button", { name: "Add a source" }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible("/agents/<id>, Add a source");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("R-a11y-axe: the playground waiting on an approval, runs, and a run's trace", async () => {
  const card = page.getByRole("article", { name: "Tool call: Write a file" });
  await open(`/agents/${agentId}/run?run=${runId}`, () => expect(card.getByText("Waiting for your approval")).toBeVisible());
  await expectAccessible("/agents/<id>/run, waiting for approval");

  await open("/runs", () => expect(page.getByRole("row", { name: new RegExp(NAME) }).first()).toBeVisible());
  await expectAccessible("/runs");

  await open(`/runs/${runId}`, () => expect(card).toBeVisible());
  await expectAccessible("/runs/<id>");
});

test("R-a11y-axe: every settings page, and the New secret dialog open", async () => {
  await open("/settings/secrets", () => expect(page.getByRole("cell", { name: "A11Y_TOKEN", exact: true })).toBeVisible());
  await expectAccessible("/settings/secrets");
  await page.getByRole("button", { name: "New secret" }).first().click();
  await expect(page.getByRole("dialog", { name: "New secret" })).toBeVisible();
  await expectAccessible("/settings/secrets, New secret");
  await page.keyboard.press("Escape");

  await open("/settings/users", () => expect(page.getByRole("row").nth(1)).toBeVisible());
  await expectAccessible("/settings/users");
  await open("/settings/audit", () => expect(page.getByRole("row").nth(1)).toBeVisible());
  await expectAccessible("/settings/audit");
  await open("/settings/api-keys", () => expect(page.getByRole("button", { name: "New key" }).first()).toBeVisible());
  await expectAccessible("/settings/api-keys");
  await page.getByRole("button", { name: "New key" }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible("/settings/api-keys, New key");
  await page.keyboard.press("Escape");
  await open("/settings/models", () => expect(page.getByRole("button", { name: "New connection" }).first()).toBeVisible());
  await expectAccessible("/settings/models");
  await page.getByRole("button", { name: "New connection" }).first().click();
  await expect(page.getByRole("dialog", { name: "New connection" })).toBeVisible();
  await expectAccessible("/settings/models, New connection");
  await page.keyboard.press("Escape");
  await open("/settings/mcp", () => expect(page.getByRole("button", { name: "New server" }).first()).toBeVisible());
  await expectAccessible("/settings/mcp");
  await page.getByRole("button", { name: "New server" }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible("/settings/mcp, New server");
  await page.keyboard.press("Escape");
});

test("R-a11y-axe: the API reference", async () => {
  await open("/api-docs", () => expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible());
  await expectAccessible("/api-docs");
});
