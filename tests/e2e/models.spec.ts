// Settings → Models and the agent's Model section, as an admin and a builder meet them: the admin connects the
// loopback model (an OpenAI-compatible server on 127.0.0.1) with its key picked by name, Test lists the stub's
// models and says so in a sentence before and after saving; an address nothing answers gets its own sentence; a
// builder then picks the connection and one of its models for an agent, with its options, and the agent keeps them.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { LISTED, startLoopbackModel, type LoopbackModel } from "../support/loopback-model";
import { signIn } from "./support/accounts";
import { ownOrigin } from "./support/origin";

const BASE = `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}`;
const BUILDER = { name: "Mo Builder", email: "models-builder@quiver.test", password: "builder password for models", role: "builder" };
const CONNECTION = "loopback-e2e";
const KEY = { name: "LOOPBACK_MODEL_KEY", value: "lk_e2e_models_0123456789" };
// 127.0.0.1 port 9 (discard) is closed on these machines: nothing answers there.
const UNREACHABLE = "http://127.0.0.1:9/v1";

let model: LoopbackModel;

test.beforeAll(async () => {
  model = await startLoopbackModel();
  // The list and the one-token answer are refused without the key the connection names.
  model.expectKey = KEY.value;
});

test.afterAll(async () => {
  await model.close();
});

async function post(page: Page, procedure: string, data: unknown) {
  const answer = await page.request.post(`/api/trpc/${procedure}`, { headers: ownOrigin, data });
  return { ok: answer.ok(), body: await answer.text() };
}

/** A builder signed in in a browser of their own. */
async function builderPage(browser: Browser, admin: Page): Promise<Page> {
  const made = await post(admin, "users.create", BUILDER);
  if (!made.ok) expect(made.body).toContain("already");
  const context = await browser.newContext({ baseURL: BASE, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, BUILDER);
  return page;
}

test("R-conn-test: an admin connects the loopback model, Test lists its models in a sentence, and a builder picks one for an agent", async ({ page, browser }) => {
  const secret = await post(page, "secrets.create", { ...KEY, description: "The loopback model's key" });
  expect(secret.ok, secret.body).toBe(true);

  await page.goto("/settings/models");
  await expect(page.getByRole("heading", { name: "Models", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Models" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("button", { name: "New connection" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New connection" });

  // A preset fills its usual address and a name; the admin then points it at the loopback server.
  await dialog.getByLabel("Provider", { exact: true }).selectOption({ label: "Ollama" });
  await expect(dialog.getByLabel("Server address", { exact: true })).toHaveValue("http://127.0.0.1:11434/v1");
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue("local-ollama");
  await dialog.getByLabel("Name", { exact: true }).fill(CONNECTION);
  await dialog.getByLabel("Server address", { exact: true }).fill(model.url);
  await dialog.getByLabel("Key", { exact: true }).selectOption(KEY.name);

  // Test before anything is saved: the stub's models, in one sentence with its time.
  await dialog.getByRole("button", { name: "Test", exact: true }).click();
  const drafted = dialog.getByRole("status", { name: "Test of this connection" });
  await expect(drafted).toContainText(/^Connected in \d+ ms: .* lists \d+ models?/);
  const ids = { models: [...LISTED] as string[] };
  await expect(drafted).toContainText(`lists ${ids.models.length} models`);
  await expect(drafted.getByText("Models it lists")).toHaveText(`Models it lists: ${ids.models.join(", ")}`);

  // Only these: the ids Test listed are there to tick.
  await dialog.getByLabel("Only these", { exact: true }).check();
  for (const id of ids.models) await dialog.getByRole("checkbox", { name: id }).check();
  await dialog.getByRole("button", { name: "Save connection" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row", { name: new RegExp(CONNECTION) });
  await expect(row).toContainText(KEY.name);
  await expect(row).toContainText(ids.models[0]!);
  await row.getByRole("button", { name: `Test ${CONNECTION}` }).click();
  await expect(row.getByRole("status", { name: `Test of ${CONNECTION}` })).toContainText(/^Connected in \d+ ms/);
  await expect(page.content()).resolves.not.toContain(KEY.value);

  // An address nothing answers at says so, in the dialog, before saving.
  await page.getByRole("button", { name: "New connection" }).first().click();
  const other = page.getByRole("dialog", { name: "New connection" });
  await other.getByLabel("Provider", { exact: true }).selectOption({ label: "Another OpenAI-compatible server" });
  await other.getByLabel("Server address", { exact: true }).fill(UNREACHABLE);
  await other.getByRole("button", { name: "Test", exact: true }).click();
  await expect(other.getByRole("status", { name: "Test of this connection" })).toContainText(`The server at ${UNREACHABLE} could not be reached`);
  await other.getByRole("button", { name: "Cancel" }).click();

  // A builder's agent, made with its own settings, moves to the connection and one of its models.
  const builder = await builderPage(browser, page);
  const created = await post(builder, "agents.create", {
    declaration: { name: "Connected scribe", model: { provider: "openai-compatible", model: "scripted", base_url: model.url } },
  });
  expect(created.ok, created.body).toBe(true);
  const agentId = (JSON.parse(created.body) as { result: { data: { id: string } } }).result.data.id;
  await builder.goto(`/agents/${agentId}`);
  const section = builder.getByRole("region", { name: "Model", exact: true });
  await expect(section.getByRole("heading", { name: "Own settings (advanced)" })).toBeVisible();
  await section.getByLabel("Connection", { exact: true }).selectOption(CONNECTION);
  const picker = section.getByRole("combobox", { name: "Model", exact: true });
  await picker.fill("");
  await picker.press("ArrowDown");
  await expect(builder.getByRole("listbox", { name: "Models on offer" }).getByRole("option")).toHaveCount(ids.models.length);
  await builder.getByRole("option", { name: ids.models[0]!, exact: true }).click();
  await expect(picker).toHaveValue(ids.models[0]!);
  await section.getByLabel("Temperature", { exact: true }).fill("0.3");
  await section.getByLabel("Maximum output tokens", { exact: true }).fill("500");
  await section.getByLabel("Reasoning effort", { exact: true }).selectOption({ label: "Low" });
  await builder.getByRole("button", { name: "Save", exact: true }).click();
  await expect(builder.getByText("Unsaved changes")).toBeHidden();

  const saved = await builder.request.get(`/api/trpc/agents.get?input=${encodeURIComponent(JSON.stringify({ id: agentId }))}`);
  const declaration = ((await saved.json()) as { result: { data: { declaration: { model: unknown } } } }).result.data.declaration;
  expect(declaration.model).toEqual({ connection: CONNECTION, model: ids.models[0], temperature: 0.3, max_tokens: 500, reasoning_effort: "low" });

  // The Models page lists the agent as the connection's user.
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(CONNECTION) })).toContainText("Connected scribe");
  await builder.context().close();
});

test("R-conn-adopt: an agent's own model settings become a connection from the Models page, and the agent then uses it", async ({ page }) => {
  // A server of its own, so only this agent has these settings.
  const own = await startLoopbackModel();
  try {
    const created = await post(page, "agents.create", { declaration: { name: "Self-made", model: { provider: "openai-compatible", model: "loopback-small", base_url: own.url } } });
    expect(created.ok, created.body).toBe(true);
    await page.goto("/settings/models");
    await page.getByRole("button", { name: "Make a connection from Self-made" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a connection from Self-made" });
    await dialog.getByLabel("Connection name", { exact: true }).fill("adopted-e2e");
    await dialog.getByRole("button", { name: "Make the connection" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Made the connection" })).toHaveText("Made the connection adopted-e2e; Self-made now uses it.");
    const row = page.getByRole("row", { name: /adopted-e2e/ });
    await expect(row).toContainText("Self-made");
    await expect(row).toContainText("Default: loopback-small");
    await expect(page.getByRole("button", { name: "Make a connection from Self-made" })).toHaveCount(0);

    // A connection an agent uses is not deleted from under it: the refusal stays in the dialog.
    await row.getByRole("button", { name: "Delete adopted-e2e" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete adopted-e2e?" });
    await expect(confirm).toContainText("Self-made");
    await confirm.getByRole("button", { name: "Delete adopted-e2e" }).click();
    await expect(confirm.getByRole("alert")).toHaveText("adopted-e2e is used by the agent “Self-made”; move it to another connection first, then delete it.");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(row).toBeVisible();
  } finally {
    await own.close();
  }
});

test("R-conn-offered: a builder picks from what the provider lists, and types an id with a warning when the list cannot be read", async ({ page, browser }) => {
  for (const [name, baseUrl] of [["loopback-all", model.url], ["nowhere-e2e", UNREACHABLE]] as const) {
    const made = await post(page, "models.create", { name, provider: "openai-compatible", baseUrl, apiKey: `\${${KEY.name}}`, models: null });
    expect(made.ok, made.body).toBe(true);
  }
  const builder = await builderPage(browser, page);
  const created = await post(builder, "agents.create", { declaration: { name: "Listed scribe", model: { connection: "loopback-all", model: LISTED[1] } } });
  expect(created.ok, created.body).toBe(true);
  const agentId = (JSON.parse(created.body) as { result: { data: { id: string } } }).result.data.id;
  await builder.goto(`/agents/${agentId}`);
  const section = builder.getByRole("region", { name: "Model", exact: true });
  // An agent made on a connection has no own settings to go back to.
  await expect(section.getByLabel("Connection", { exact: true }).getByRole("option", { name: "Own settings (advanced)" })).toHaveCount(0);

  // The provider's list, read when the picker is first focused; typing narrows it.
  const picker = section.getByRole("combobox", { name: "Model", exact: true });
  await picker.fill("large");
  const options = builder.getByRole("listbox", { name: "Models on offer" }).getByRole("option");
  await expect(options).toHaveText([LISTED[0]]);
  await picker.press("ArrowDown");
  await picker.press("Enter");
  await expect(picker).toHaveValue(LISTED[0]);

  // Nothing answers at the other connection's address: the id is typed, and the warning says why.
  await section.getByLabel("Connection", { exact: true }).selectOption("nowhere-e2e");
  await expect(picker).toHaveValue("");
  await picker.focus();
  await expect(section.getByRole("status").filter({ hasText: "could not be reached" })).toContainText("Type the model's id instead.");
  await picker.fill("typed-model");
  await builder.getByRole("button", { name: "Save", exact: true }).click();
  await expect(builder.getByText("Unsaved changes")).toBeHidden();
  const saved = await builder.request.get(`/api/trpc/agents.get?input=${encodeURIComponent(JSON.stringify({ id: agentId }))}`);
  const declaration = ((await saved.json()) as { result: { data: { declaration: { model: unknown } } } }).result.data.declaration;
  expect(declaration.model).toEqual({ connection: "nowhere-e2e", model: "typed-model" });
  await builder.context().close();
});

test("R-conn-adopt: an admin makes a connection from an agent's own settings on the agent's page, which then picks it", async ({ page }) => {
  const own = await startLoopbackModel();
  try {
    const created = await post(page, "agents.create", { declaration: { name: "Page-made", model: { provider: "openai-compatible", model: "loopback-large", base_url: own.url } } });
    expect(created.ok, created.body).toBe(true);
    const agentId = (JSON.parse(created.body) as { result: { data: { id: string } } }).result.data.id;
    await page.goto(`/agents/${agentId}`);
    const section = page.getByRole("region", { name: "Model", exact: true });
    await section.getByRole("button", { name: "Make this a connection" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a connection from Page-made" });
    await dialog.getByLabel("Connection name", { exact: true }).fill("page-made-e2e");
    await dialog.getByRole("button", { name: "Make the connection" }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByLabel("Connection", { exact: true })).toHaveValue("page-made-e2e");
    await expect(section.getByRole("combobox", { name: "Model", exact: true })).toHaveValue("loopback-large");
    await expect(section.getByRole("heading", { name: "Own settings (advanced)" })).toHaveCount(0);
    await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  } finally {
    await own.close();
  }
});
