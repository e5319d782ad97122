// Agents, as a builder meets them: an agent is made from the built-in Files narrowed to two operations with its
// folder set, and the tree's Tickets with its token picked by name; one operation asks first; what the model sees
// lists exactly those operations and no setting or secret; it is saved, kept across a reload, exported, imported
// as a copy and the copy deleted. A save on a stale version is never silent, text names a misspelt source, and a
// source that changed since the save says what changed.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

// This suite runs before secrets.spec.ts, which starts from an empty list: the secret made here is deleted at the end.
const SECRET = "AGENT_TICKETS_TOKEN";
const VALUE = "tkt_agents_e2e_value_0123456789";

async function newSecret(page: Page) {
  await page.goto("/settings/secrets");
  await page.getByRole("button", { name: "New secret" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New secret" });
  await dialog.getByLabel("Name").fill(SECRET);
  await dialog.getByLabel("Value").fill(VALUE);
  await dialog.getByLabel("Description").fill("The tracker's token for agents");
  await dialog.getByRole("button", { name: "Save secret" }).click();
  await expect(dialog).toBeHidden();
}

async function deleteSecret(page: Page) {
  await page.goto("/settings/secrets");
  await page.getByRole("button", { name: `Delete ${SECRET}` }).click();
  await page.getByRole("dialog", { name: `Delete ${SECRET}?` }).getByRole("button", { name: `Delete ${SECRET}` }).click();
  await expect(page.getByRole("cell", { name: SECRET, exact: true })).toBeHidden();
}

async function deleteAgent(page: Page, name: string) {
  await page.goto("/agents");
  await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
  const confirm = page.getByRole("dialog", { name: `Delete ${name}?` });
  await expect(confirm).toContainText("deleted for good");
  await confirm.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
}

async function newAgent(page: Page, name: string) {
  await page.goto("/agents");
  await page.getByRole("button", { name: "New agent" }).first().click();
  // New agent opens the gallery (R-template-gallery); Blank agent is its first card.
  await page.getByRole("dialog", { name: "New agent" }).getByRole("button", { name: "Blank agent" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

async function addSource(page: Page, search: string, button: string) {
  await page.getByRole("button", { name: "Add a source" }).first().click();
  const palette = page.getByRole("dialog", { name: "Add a source" });
  await palette.getByRole("searchbox", { name: "Search sources" }).fill(search);
  await palette.getByRole("button", { name: button }).click();
  await expect(palette).toBeHidden();
}

test("a builder makes an agent from Files and Tickets, saves, exports, imports a copy and deletes it", async ({ page }) => {
  await newSecret(page);

  await page.goto("/agents");
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Agents" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No agents yet — New agent")).toBeVisible();
  await newAgent(page, "Triage");
  await page.getByLabel("Description").fill("Sorts what arrives in the inbox");
  await page.getByLabel("Instructions").fill("Read each new file in the inbox.\nOpen a ticket for anything broken; ask before you do.");

  // Files, by need: only reading a file, then listing a folder too.
  await addSource(page, "read files", "Only Read a file");
  const files = page.getByRole("region", { name: "Files" });
  await expect(files.getByRole("checkbox", { name: "Read a file" })).toBeChecked();
  await expect(files.getByRole("checkbox", { name: "Write a file" })).not.toBeChecked();
  await files.getByRole("checkbox", { name: "List a folder" }).check();
  await files.getByRole("button", { name: "Settings and approval" }).click();
  // A folder outside the workspace is refused at its field and in the summary; the form keeps what was typed.
  await files.getByLabel("root").fill("../elsewhere");
  await expect(files.getByText(/climbs out of the workspace/)).toBeVisible();
  await expect(page.getByRole("heading", { name: /to fix before this agent can be saved/ })).toBeVisible();
  await expect(files.getByLabel("root")).toHaveValue("../elsewhere");
  await files.getByLabel("root").fill("inbox");
  await expect(files.getByText(/climbs out of the workspace/)).toBeHidden();

  // Tickets, a file of the tree: its token is a secret picked by name, with the file's help and its check.
  await addSource(page, "tickets", "Add Tickets");
  const tickets = page.getByRole("region", { name: "Tickets" });
  await expect(tickets.getByText(/A tracker API token: it starts with tkt_/)).toBeVisible();
  await tickets.getByRole("combobox", { name: "token" }).selectOption(SECRET);
  await expect(tickets.getByText(`${SECRET} is accepted for token.`)).toBeVisible();
  await tickets.getByRole("combobox", { name: "Approval of Open" }).selectOption({ label: "Ask me" });
  await expect(tickets.getByText(/Asks you first, each time/)).toBeVisible();
  await expect(page.getByRole("heading", { name: /to fix before this agent can be saved/ })).toBeHidden();

  // What the model sees: exactly the chosen operations, and nothing of the settings or the secret.
  const seen = page.getByRole("complementary", { name: "What the model sees" });
  await expect(seen.getByText("Settings and secrets are never part of this.")).toBeVisible();
  const offered = seen.getByRole("list", { name: "Tools the model is offered" }).getByRole("listitem");
  await expect(offered).toHaveCount(4);
  for (const name of ["read_file", "list_directory", "tickets__open", "tickets__lookup"]) {
    await expect(seen.getByRole("listitem", { name, exact: true })).toBeVisible();
  }
  const panel = (await seen.textContent()) ?? "";
  for (const hidden of ["token", SECRET, VALUE, "inbox", "max_read_bytes", "write_file"]) expect(panel).not.toContain(hidden);

  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Unsaved changes")).toBeHidden();
  await expect(page.getByRole("region", { name: "Versions" }).getByText(/^v2$/)).toBeVisible();

  // Everything is kept across a reload.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Triage" })).toBeVisible();
  await expect(page.getByLabel("Instructions")).toHaveValue(/ask before you do/);
  await expect(files.getByRole("checkbox", { name: "Read a file" })).toBeChecked();
  await expect(files.getByRole("checkbox", { name: "List a folder" })).toBeChecked();
  await expect(files.getByRole("checkbox", { name: "Write a file" })).not.toBeChecked();
  await files.getByRole("button", { name: "Settings and approval" }).click();
  await expect(files.getByLabel("root")).toHaveValue("inbox");
  await tickets.getByRole("button", { name: "Settings and approval" }).click();
  await expect(tickets.getByRole("combobox", { name: "token" })).toHaveValue(SECRET);
  await expect(tickets.getByRole("combobox", { name: "Approval of Open" })).toHaveValue("ASK");
  await expect(page.getByText("Unsaved changes")).toBeHidden();
  expect(await page.content()).not.toContain(VALUE);

  // Export, then import the file as a copy: the name is taken, so the copy is "Triage 2".
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = await (await download).path();
  await expect(page.getByText(/Exported triage\.agent\.json/)).toBeVisible();

  await page.goto("/agents");
  await expect(page.getByRole("row", { name: /Triage/ })).toContainText("Files (Read a file, List a folder) · Tickets");
  await page.getByRole("button", { name: "Import" }).click();
  const importer = page.getByRole("dialog", { name: "Import an agent" });
  await importer.getByLabel("Agent file").setInputFiles(file);
  await importer.getByRole("button", { name: "Import agent" }).click();
  await expect(importer).toBeHidden();
  await expect(page.getByRole("status")).toContainText("Imported as Triage 2, since an agent named Triage already exists.");
  await expect(page.getByRole("link", { name: "Triage 2", exact: true })).toBeVisible();

  await deleteAgent(page, "Triage 2");
  await expect(page.getByRole("link", { name: "Triage", exact: true })).toBeVisible();

  // Duplicate makes a copy under a free name, with what the original can use.
  await page.getByRole("button", { name: "Duplicate Triage", exact: true }).click();
  await expect(page.getByRole("row", { name: /Triage copy/ })).toContainText("Files (Read a file, List a folder) · Tickets");
  await deleteAgent(page, "Triage copy");

  // Leave the studio as the next suites expect it: no agent holding the secret, and no secret.
  await deleteAgent(page, "Triage");
  await deleteSecret(page);
});

test("an import that names a source the studio does not have is refused in the dialog, naming each problem", async ({ page }) => {
  await page.goto("/agents");
  await page.getByRole("button", { name: "Import" }).first().click();
  const importer = page.getByRole("dialog", { name: "Import an agent" });
  await importer.getByLabel("Or paste its text").fill(
    JSON.stringify({ name: "Broken", model: { provider: "openai", model: "gpt-4o-mini" }, tools: [{ entry: "system:filesytem" }] }),
  );
  await importer.getByRole("button", { name: "Import agent" }).click();
  const refusal = importer.getByRole("alert");
  await expect(refusal).toContainText("Key: Pick the secret that holds your OpenAI API key.");
  await expect(refusal).toContainText("There is no built-in source system:filesytem.");
  await expect(refusal).toContainText("system:filesystem");
  await importer.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("link", { name: "Broken", exact: true })).toHaveCount(0);

  // An address that names no agent is a page that is not there.
  const missing = await page.goto("/agents/00000000-0000-4000-8000-000000000000");
  expect(missing?.status()).toBe(404);
});

test("a save on a version someone else replaced is shown, with their change, and mine can overwrite it", async ({ page, context }) => {
  await newAgent(page, "Conflicted");
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await other.getByLabel("Description").fill("Their description");
  await other.getByRole("button", { name: "Save", exact: true }).click();
  await expect(other.getByText("Unsaved changes")).toBeHidden();

  await page.getByLabel("Description").fill("My description");
  await page.keyboard.press("Control+s");
  const conflict = page.getByRole("alert").filter({ hasText: "since you opened it" });
  await expect(conflict).toContainText("saved version 2 of this agent");
  await expect(conflict).toContainText("Their change:");
  await expect(page.getByLabel("Description")).toHaveValue("My description");
  await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
  await expect(conflict).toBeHidden();
  await expect(page.getByText("Unsaved changes")).toBeHidden();
  await other.reload();
  await expect(other.getByLabel("Description")).toHaveValue("My description");
  await other.close();

  // Show as text: a misspelt source is refused with the closest name.
  await page.getByRole("button", { name: "Show as text" }).click();
  await page.getByLabel("What this agent can use, as text").fill("system:filesytem#read_file");
  await expect(page.getByText(/Line 1: There is no built-in source system:filesytem\..*system:filesystem/)).toBeVisible();
  await page.getByLabel("What this agent can use, as text").fill("system:filesystem#read_file");
  await expect(page.getByRole("complementary", { name: "What the model sees" }).getByRole("listitem", { name: "read_file" })).toBeVisible();
  await page.getByRole("button", { name: "Show as cards" }).click();
  await expect(page.getByRole("region", { name: "Files" }).getByRole("checkbox", { name: "Read a file" })).toBeChecked();

  // Leaving with unsaved changes asks first.
  const warned = new Promise<string>((resolve) =>
    page.once("dialog", async (dialog) => {
      resolve(dialog.type());
      await dialog.accept();
    }),
  );
  await deleteAgent(page, "Conflicted");
  expect(await warned).toBe("beforeunload");
});

test("a source that changed since the agent was saved says what changed, and saving accepts it", async ({ page }) => {
  // A file of its own in the test's copy of the tree, removed at the end, so no other suite sees it.
  const file = path.join(process.env.QUIVER_E2E_TOOLS!, "drift_probe.py");
  const write = (line: string) =>
    fs.writeFileSync(file, `"""Probes for drift."""\n\n\ndef check(subject: str) -> str:\n    """${line}\n\n    Args:\n        subject: What to check.\n    """\n    return subject\n`);
  write("Check one subject and answer it.");
  try {
    await newAgent(page, "Drifting");
    await addSource(page, "drift probe", "Add Drift probe");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Unsaved changes")).toBeHidden();

    write("Check one subject carefully and answer what was found.");
    await page.reload();
    const card = page.getByRole("region", { name: "Drift probe" });
    await expect(card.getByRole("status")).toContainText("Changed since this agent was saved");
    await expect(card.getByRole("status")).toContainText("drift_probe__check changed its description.");
    await expect(page.getByRole("complementary", { name: "What the model sees" })).toContainText("carefully");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(card.getByRole("status")).toBeHidden();
    await expect(page.getByRole("region", { name: "Versions" })).toContainText("Accepted changes in its sources");
    await deleteAgent(page, "Drifting");
  } finally {
    fs.rmSync(file, { force: true });
  }
});
