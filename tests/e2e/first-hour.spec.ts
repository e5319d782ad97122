// A builder's first hour on a studio of its own: the first visitor creates the owner and Home lists the first steps
// undone; an OpenAI-compatible connection to the loopback model is tested in Settings → Models and lists the stub's
// models; a template from New agent becomes an agent on that connection; it runs and answers in the playground; and
// Home shows each of those steps done (R-start-steps, R-template-gallery, R-template-model).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startLoopbackModel, text, type LoopbackModel } from "../support/loopback-model";
import { signIn } from "./support/accounts";
import { startStudio, type Studio } from "./support/studio-process";

test.use({ storageState: { cookies: [], origins: [] } });
// The second test signs in as the owner the first one made.
test.describe.configure({ mode: "serial" });

let model: LoopbackModel;
let studio: Studio;
let scratch: string;
let tree: string;
const owner = { email: "ada@quiver.test", password: "a long enough password" };

test.beforeAll(async () => {
  model = await startLoopbackModel();
  // Test's one-token answer and anything unscripted get a plain reply.
  model.fallback = text("ok");
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-first-hour-"));
  tree = path.join(scratch, "checkout", "tools");
  fs.cpSync("tools", tree, { recursive: true, filter: (src) => !src.includes("__pycache__") });
  // No owner from the environment: the first visitor makes it, as on a new machine.
  studio = await startStudio({ QUIVER_DATA_DIR: path.join(scratch, "data"), QUIVER_TOOLS_DIR: tree, DATABASE_URL: "" });
});

test.afterAll(async () => {
  await studio?.stop();
  await model?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Home's checklist: each step's title with its state, in order. */
async function steps(page: Page): Promise<string[]> {
  await page.goto(`${studio.url}/`);
  const list = page.getByRole("region", { name: "Get started" }).getByRole("list", { name: "Steps" });
  await expect(list).toBeVisible();
  const items = list.getByRole("listitem");
  const out: string[] = [];
  for (let i = 0; i < (await items.count()); i++) {
    const item = items.nth(i);
    const title = (await item.locator("p").first().innerText()).replace(/^\d+\.\s*/, "");
    out.push(`${title}: ${(await item.getByText(/^(Done|To do)$/).innerText()).trim()}`);
  }
  return out;
}

test("a new studio walks its checklist: a tested connection, an agent from a template, a run that answers", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${studio.url}/`);
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Your name").fill("Ada");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Create the owner account" }).click();
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();

  expect(await steps(page)).toEqual([
    "Connect a model: To do",
    "Create your first agent: To do",
    "Run it: To do",
    "Invite your team: To do",
    "Write your first tool: To do",
  ]);

  // Settings → Models, from the checklist: a connection to the loopback model, tested before it is saved.
  await page.getByRole("link", { name: "Open Settings → Models" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();
  await page.getByRole("button", { name: "New connection" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New connection" });
  await dialog.getByLabel("Name", { exact: true }).fill("loopback");
  await dialog.getByRole("combobox", { name: "Provider" }).selectOption({ label: "Another OpenAI-compatible server" });
  await dialog.getByLabel("Server address").fill(model.url);
  await dialog.getByRole("button", { name: "Test", exact: true }).click();
  const answer = dialog.getByRole("status", { name: "Test of this connection" });
  await expect(answer).toContainText("Models it lists:", { timeout: 15_000 });
  const listed = (await answer.locator(".font-mono").innerText()).split(",").map((id) => id.trim()).filter(Boolean);
  // The stub's own list, as GET /v1/models answered it.
  expect(listed).toEqual(model.models);
  await dialog.getByLabel("Default model").fill(listed[0]!);
  await dialog.getByRole("button", { name: "Save connection" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: new RegExp(`^loopback Default: ${listed[0]} `) })).toBeVisible();

  // New agent, from the checklist: the gallery opens with Blank agent first, and a template becomes an agent.
  await page.goto(`${studio.url}/`);
  await page.getByRole("link", { name: "Choose a template" }).click();
  const gallery = page.getByRole("dialog", { name: "New agent" });
  const cards = gallery.getByRole("list", { name: "Templates" }).getByRole("button");
  await expect(cards.first()).toHaveAccessibleName("Blank agent");
  // One card per file of templates/, after Blank agent.
  await expect(cards).toHaveCount(1 + fs.readdirSync("templates").filter((name) => name.endsWith(".json")).length);
  await gallery.getByRole("button", { name: "Web researcher" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("textbox", { name: "Name" })).toHaveValue("Web researcher");
  // It runs on the studio's connection, not an address of its own.
  await expect(page.getByRole("combobox", { name: "Connection" })).toHaveValue("loopback");

  // The playground: the agent answers.
  model.reply(text("Here is what I found, with the pages I read."));
  await page.getByRole("link", { name: "Run", exact: true }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What is Quiver?");
  await box.press("Enter");
  await expect(page.getByLabel("Agent's reply")).toHaveText("Here is what I found, with the pages I read.", { timeout: 20_000 });
  await expect(page.getByRole("complementary", { name: "Run details" })).toContainText("Done");
  const sent = model.requests.at(-1)!;
  expect(sent.body.model).toBe(listed[0]);

  expect(await steps(page)).toEqual([
    "Connect a model: Done",
    "Create your first agent: Done",
    "Run it: Done",
    "Invite your team: To do",
    "Write your first tool: To do",
  ]);
});

test("R-template-gallery: the gallery works by keyboard, and a template whose tool the tree lacks still makes its agent, which says what is missing", async ({ page }) => {
  await signIn(page, owner, studio.url);
  await page.goto(`${studio.url}/agents`);
  const newAgent = page.getByRole("button", { name: "New agent" });
  await newAgent.focus();
  await page.keyboard.press("Enter");
  const gallery = page.getByRole("dialog", { name: "New agent" });
  await expect(gallery.getByRole("button", { name: "Blank agent" })).toBeFocused();
  await expect(gallery.getByRole("button", { name: "Data analyst" })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(gallery.getByRole("button", { name: "Data analyst" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(gallery).toBeHidden();
  await expect(newAgent).toBeFocused();

  // The support helper's tool file leaves the tree (R-template-missing).
  fs.rmSync(path.join(tree, "tickets.py"));
  await page.keyboard.press("Enter");
  const card = gallery.getByRole("button", { name: "Support helper" });
  await expect(card).toContainText("There is no file tools/tickets.py in the tree");
  await card.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("textbox", { name: "Name" })).toHaveValue("Support helper");
  await expect(page.getByRole("region", { name: /things? to fix/ })).toContainText("There is no file tools/tickets.py in the tree");
});
