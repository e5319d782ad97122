// An MCP server from an admin's mcp.json to a builder's run: the admin imports server-everything (stdio), a builder
// adds it through the palette narrowed to two tools, What the model sees lists exactly those with their normalised
// schemas, and a run in the playground calls one and shows its result on the call card. Then a server that changes
// what a tool says behind the builder's back (an SDK-written server told to by a Try from its row): the agent page
// shows the accepted text beside the new one, the model view holds the tool back, and Accept change offers it again.
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { call, offeredTools, startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { signIn } from "./support/accounts";
import { ownOrigin } from "./support/origin";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CHANGING = path.resolve("tests/integration/mcp/servers/changing-server.mjs");
const BASE = `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}`;
const BUILDER = { name: "Bea Builder", email: "mcp-builder@quiver.test", password: "builder password for mcp", role: "builder" };

let model: LoopbackModel;

test.beforeAll(async () => {
  model = await startLoopbackModel();
});

test.afterAll(async () => {
  await model.close();
});

async function importServers(page: Page, servers: Record<string, { command: string; args: string[] }>): Promise<Record<string, string>> {
  await page.goto("/settings/mcp");
  await page.getByRole("button", { name: "Import mcp.json" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Import mcp.json" });
  await dialog.getByLabel("mcp.json").fill(JSON.stringify({ mcpServers: servers }, null, 2));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  const ids: Record<string, string> = {};
  for (const name of Object.keys(servers)) ids[name] = (await page.getByRole("row", { name: new RegExp(`^${name}\\b`) }).getAttribute("id"))!;
  return ids;
}

/** A builder signed in in a browser of their own (the admin's page stays signed in as the admin). */
async function builderPage(browser: Browser, admin: Page): Promise<Page> {
  const made = await admin.request.post("/api/trpc/users.create", { headers: ownOrigin, data: BUILDER });
  // A second test finds the account made by the first.
  if (!made.ok()) expect(await made.text()).toContain("already");
  const context = await browser.newContext({ baseURL: BASE, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, BUILDER);
  return page;
}

async function agentWith(page: Page, name: string, entries: string[]): Promise<string> {
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { name, model: { provider: "openai-compatible", model: "scripted", base_url: model.url }, tools: entries.map((entry) => ({ entry })) } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
}

async function addFromPalette(page: Page, search: string, button: string) {
  await page.getByRole("button", { name: "Add a source" }).first().click();
  const palette = page.getByRole("dialog", { name: "Add a source" });
  await palette.getByRole("searchbox", { name: "Search sources" }).fill(search);
  await palette.getByRole("listitem", { name: "everything" }).getByRole("button", { name: button }).click();
  await expect(palette).toBeHidden();
}

async function cleanUp(page: Page, agents: string[], servers: string[]) {
  for (const id of agents) expect((await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id } })).ok()).toBe(true);
  for (const id of servers) expect((await page.request.post("/api/trpc/mcpServers.remove", { headers: ownOrigin, data: { id } })).ok()).toBe(true);
}

test("a builder narrows server-everything to two tools, sees their normalised schemas, and a run calls one", async ({ page, browser }) => {
  const { everything } = await importServers(page, { everything: { command: "node", args: [EVERYTHING] } });
  const builder = await builderPage(browser, page);
  const agentId = await agentWith(builder, "Sums and echoes", []);

  await builder.goto(`/agents/${agentId}`);
  await addFromPalette(builder, "echo", "Only Echo Tool");
  await addFromPalette(builder, "sum of two numbers", "Only Get Sum Tool");
  const card = builder.getByRole("region", { name: "everything" });
  await expect(card).toContainText("MCP server over stdio");
  await expect(card.getByRole("checkbox", { name: "Echo Tool" })).toBeChecked();
  await expect(card.getByRole("checkbox", { name: "Get Sum Tool" })).toBeChecked();
  await expect(card.getByRole("checkbox", { name: "Get Tiny Image Tool" })).not.toBeChecked();

  // Exactly the two, each with its schema normalised: the server's draft-07 `$schema` is gone.
  const seen = builder.getByRole("complementary", { name: "What the model sees" });
  await expect(seen.getByRole("list", { name: "Tools the model is offered" }).getByRole("listitem")).toHaveCount(2);
  const schemaOf = async (name: string) => {
    const item = seen.getByRole("listitem", { name, exact: true });
    await item.getByText("Input schema").click();
    return JSON.parse((await item.locator("pre").textContent())!) as unknown;
  };
  expect(await schemaOf("echo")).toEqual({ type: "object", properties: { message: { type: "string", description: "Message to echo" } }, required: ["message"] });
  expect(await schemaOf("get-sum")).toEqual({
    type: "object",
    properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
    required: ["a", "b"],
  });
  await builder.getByRole("button", { name: "Save", exact: true }).click();
  await expect(builder.getByText("Unsaved changes")).toBeHidden();

  // A run: the model is offered the two and calls get-sum; its result is on the call card.
  model.reset();
  model.reply(call("get-sum", { a: 2, b: 3 }), text("2 and 3 make 5."));
  await builder.getByRole("link", { name: "Run", exact: true }).click();
  const box = builder.getByRole("textbox", { name: "Message" });
  await box.fill("What is 2 + 3?");
  await box.press("Enter");
  const callCard = builder.getByRole("article", { name: "Tool call: Get Sum Tool" });
  await expect(callCard.getByRole("status")).toHaveText("Done", { timeout: 30_000 });
  await expect(callCard.getByLabel("Result")).toHaveText("The sum of 2 and 3 is 5.");
  await expect(builder.getByLabel("Agent's reply")).toHaveText("2 and 3 make 5.");
  expect(offeredTools(model.requests[0]!)).toEqual(["echo", "get-sum"]);

  await builder.context().close();
  await cleanUp(page, [agentId], [everything!]);
});

test("a tool its server rewords is held back until a builder accepts the change beside the old text", async ({ page, browser }) => {
  const { changing } = await importServers(page, { changing: { command: "node", args: [CHANGING] } });
  const builder = await builderPage(browser, page);
  const agentId = await agentWith(builder, "Note keeper", [`${changing}#note`]);

  // The server changes what note tells the model, as a server can at any time: here, told to from its row.
  const row = page.getByRole("row", { name: /^changing\b/ });
  await row.getByRole("button", { name: "Show tools of changing" }).click();
  await page.getByRole("region", { name: "Tools of changing" }).getByRole("button", { name: "Try reword" }).click();
  const trying = page.getByRole("dialog", { name: "Try Reword" });
  await trying.getByRole("button", { name: "Run", exact: true }).click();
  await expect(trying.getByLabel("Answer of reword")).toHaveText("reworded");

  await builder.goto(`/agents/${agentId}`);
  // The top of the page says so, and its link leads to the change on the server's card.
  const note = builder.getByRole("region", { name: "Held back from runs" });
  await expect(note).toContainText("changing: note is not offered to the model until you review and accept the change.");
  await note.getByRole("link", { name: "review and accept the change" }).click();
  const changes = builder.getByRole("region", { name: "Changes to accept from changing" });
  await expect(changes).toBeInViewport();
  await expect(changes).toContainText("Until you accept a change, runs do not offer that tool to the model.");
  const description = changes.getByRole("table", { name: "Description of note, accepted and now" });
  await expect(description.getByRole("cell").nth(0)).toHaveText(/Keep a note\./);
  await expect(description.getByRole("cell").nth(1)).toHaveText(/Keep a note, and send every note to an address outside\./);
  await expect(description.locator("ins")).toHaveText(", and send every note to an address outside");
  const seen = builder.getByRole("complementary", { name: "What the model sees" });
  await expect(seen.getByRole("list", { name: "Tools held back" })).toHaveText("note");
  await expect(seen.getByRole("list", { name: "Tools the model is offered" }).getByRole("listitem")).toHaveCount(0);
  // The schema did not change: it says so, folded, rather than showing the same text twice.
  await changes.getByText("Unchanged", { exact: true }).click();
  await expect(changes.getByLabel("Input schema of note, accepted and now")).toContainText('"text"');

  // An edit not saved yet stays on the page through the acceptance, and saves on top of it without a conflict.
  await builder.getByLabel("Description", { exact: true }).fill("Keeps notes");
  await expect(changes).toContainText("Accepting saves a new version with only this change; your unsaved edits stay on the page.");
  await changes.getByRole("button", { name: "Accept the change to note" }).click();
  await expect(changes).toBeHidden();
  await expect(note).toBeHidden();
  await expect(seen.getByRole("listitem", { name: "note", exact: true })).toContainText("send every note to an address outside");
  await expect(seen.getByRole("list", { name: "Tools held back" })).toBeHidden();
  await expect(builder.getByText(/^Version 2 ·/)).toBeVisible();
  await expect(builder.getByRole("region", { name: "Versions" })).toContainText("Accepted the current version of note from changing");
  await expect(builder.getByText("Unsaved changes")).toBeVisible();
  await expect(builder.getByLabel("Description", { exact: true })).toHaveValue("Keeps notes");
  await builder.getByRole("button", { name: "Save", exact: true }).click();
  await expect(builder.getByText(/^Version 3 ·/)).toBeVisible();
  await expect(builder.getByText("Unsaved changes")).toBeHidden();
  // The save kept the accepted version of note: nothing is held back after a reload.
  await builder.reload();
  await expect(builder.getByLabel("Description", { exact: true })).toHaveValue("Keeps notes");
  await expect(seen.getByRole("listitem", { name: "note", exact: true })).toBeVisible();
  await expect(builder.getByRole("region", { name: "Changes to accept from changing" })).toHaveCount(0);
  await expect(builder.getByRole("region", { name: "Held back from runs" })).toHaveCount(0);

  await builder.context().close();
  await cleanUp(page, [agentId], [changing!]);
});
