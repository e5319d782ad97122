// Settings → MCP servers as an admin meets it: an mcp.json naming the reference server-everything over stdio is
// imported whole or not at all (a malformed file says its line and column, a token written out is refused with a
// sentence asking for a secret), Test connection answers on the row with the tool count, the tools unfold with
// their schemas and each can be tried by hand (its progress as it runs, a destructive one only once confirmed), a
// new server's faults show at their fields, Delete is refused while an agent uses the server and otherwise asks
// first, naming what goes.
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ownOrigin } from "./support/origin";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CHANGING = path.resolve("tests/integration/mcp/servers/changing-server.mjs");
const TOKEN = "ghp_e2eWrittenOut0123456789abcdefghijkl";

async function importText(page: Page, text: string) {
  await page.getByRole("button", { name: "Import mcp.json" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Import mcp.json" });
  await dialog.getByLabel("mcp.json").fill(text);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  return dialog;
}

test("an admin imports server-everything, tests it, reads its tools and deletes it after confirming", async ({ page }) => {
  await page.goto("/settings/mcp");
  await expect(page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "MCP servers" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No MCP servers yet — New server or Import mcp.json")).toBeVisible();

  // A file that does not parse names the place it breaks, and nothing is saved.
  const malformed = await importText(page, `{\n  "mcpServers": {\n    "everything": { "command": "node" "args": [] }\n  }\n}`);
  await expect(malformed.getByRole("alert")).toHaveText(/does not parse at line 3, column \d+/);
  await malformed.getByLabel("mcp.json").press("Escape");
  await expect(malformed).toBeHidden();

  // A token written out is refused with the registry's sentence, asking for a secret instead.
  const literal = await importText(page, JSON.stringify({ mcpServers: { gh: { command: "node", args: [EVERYTHING], env: { GITHUB_TOKEN: TOKEN } } } }));
  await expect(literal.getByRole("alert")).toHaveText(/GITHUB_TOKEN holds a credential written out.*\$\{GITHUB_TOKEN\}/);
  await literal.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("No MCP servers yet — New server or Import mcp.json")).toBeVisible();

  // The file as Claude Desktop writes it; Ctrl+Enter imports from the text box.
  const dialog = page.getByRole("dialog", { name: "Import mcp.json" });
  await page.getByRole("button", { name: "Import mcp.json" }).first().click();
  await dialog.getByLabel("mcp.json").fill(JSON.stringify({ mcpServers: { everything: { command: "node", args: [EVERYTHING] } } }, null, 2));
  await dialog.getByLabel("mcp.json").press("Control+Enter");
  await expect(dialog).toBeHidden();
  const row = page.getByRole("row", { name: /everything/ }).first();
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toContainText("Stopped");
  await expect(row.getByRole("cell").nth(2)).toContainText("stdio");

  await row.getByRole("button", { name: "Test connection to everything" }).click();
  const answer = row.getByRole("status", { name: "Answer for everything" });
  await expect(answer).toHaveText(/^Connected over stdio: \d+ tools\.$/, { timeout: 30_000 });
  await expect(row.getByRole("cell").nth(1)).toContainText("Connected");

  // The list as read now (the server adds tools once it knows the client, and says its list changed), on the row too.
  await row.getByRole("button", { name: "Show tools of everything" }).click();
  const tools = page.getByRole("region", { name: "Tools of everything" });
  await expect(tools.getByRole("listitem").first()).toBeVisible({ timeout: 30_000 });
  const count = await tools.getByRole("listitem").count();
  expect(count).toBeGreaterThan(3);
  await expect(tools).toContainText(`${count} tools, read`);
  await expect(row.getByRole("cell").nth(3)).toContainText(`${count} tools`);
  const echo = tools.getByRole("listitem").filter({ has: page.getByText("echo", { exact: true }) });
  await echo.locator("summary").click();
  await expect(echo.getByLabel("Input schema of echo")).toContainText('"message"');

  // Try calls a tool by hand with the form made from its schema, and shows what the model would read.
  await echo.getByRole("button", { name: "Try echo" }).click();
  const trying = page.getByRole("dialog", { name: "Try Echo Tool" });
  await trying.getByRole("button", { name: "Run", exact: true }).click();
  await expect(trying.getByText("message is required.")).toBeVisible();
  await trying.getByLabel("message").fill("hello from Try");
  await trying.getByLabel("message").press("Control+Enter");
  await expect(trying.getByRole("region", { name: "Result of echo" }).getByRole("status")).toHaveText("Succeeded");
  await expect(trying.getByLabel("Answer of echo")).toHaveText("Echo: hello from Try");
  await trying.getByRole("button", { name: "Close" }).click();
  await expect(trying).toBeHidden();
  // A long call shows its progress lines as they come, then its answer.
  const longRunning = tools.getByRole("listitem").filter({ has: page.getByText("trigger-long-running-operation", { exact: true }) });
  await longRunning.getByRole("button", { name: "Try trigger-long-running-operation" }).click();
  const slow = page.getByRole("dialog", { name: "Try Trigger Long Running Operation Tool" });
  await slow.getByLabel("duration").fill("2");
  await slow.getByLabel("steps").fill("2");
  await slow.getByRole("button", { name: "Run", exact: true }).click();
  await expect(slow.getByRole("list", { name: "Progress" }).getByRole("listitem").first()).toBeVisible({ timeout: 10_000 });
  await expect(slow.getByRole("region", { name: "Result of trigger-long-running-operation" }).getByRole("status")).toHaveText("Succeeded", { timeout: 10_000 });
  await expect(slow.getByLabel("Answer of trigger-long-running-operation")).toContainText("completed");
  await slow.press("Escape");
  await page.getByRole("button", { name: "Show recent stderr of everything" }).click();
  await expect(page.getByRole("region", { name: "Recent stderr of everything" })).toBeVisible();

  // A new server's faults show at their fields, and nothing is saved.
  await page.getByRole("button", { name: "New server" }).click();
  const form = page.getByRole("dialog", { name: "New MCP server" });
  await form.getByLabel("Name", { exact: true }).fill("Everything");
  await form.getByLabel("Command", { exact: true }).fill("no-such-program-here");
  await form.getByLabel("Command", { exact: true }).press("Enter");
  await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("An MCP server named Everything already exists; choose another name.")).toBeVisible();
  await expect(form.getByLabel("Command", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Command", { exact: true }).press("Escape");
  await expect(form).toBeHidden();
  await expect(page.getByRole("row", { name: /no-such-program-here/ })).toHaveCount(0);

  // While an agent names the server, Delete is refused with the sentence naming the agent, and the row says who uses it.
  const id = (await row.getAttribute("id"))!;
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: {
      declaration: {
        name: "Echo user",
        model: { provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1" },
        tools: [{ entry: `${id}#echo` }],
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const agentId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  await page.reload();
  await expect(row.getByRole("cell").nth(5).getByRole("link", { name: "Echo user" })).toHaveAttribute("href", `/agents/${agentId}`);
  await row.getByRole("button", { name: "Delete everything" }).click();
  const refused = page.getByRole("dialog", { name: "Delete everything?" });
  await refused.getByRole("button", { name: "Delete everything" }).click();
  await expect(refused.getByRole("alert")).toHaveText(/everything is still used by the agent “Echo user”; remove it from that agent first/);
  await refused.press("Escape");
  const removed = await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id: agentId } });
  expect(removed.ok(), await removed.text()).toBe(true);
  await page.reload();
  await expect(row.getByRole("cell").nth(5)).toHaveText("No agent");

  // Delete asks first, naming what goes; Cancel keeps the row.
  await row.getByRole("button", { name: "Delete everything" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete everything?" });
  await expect(confirm).toContainText("its command (node), 1 argument and 0 environment variables");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Delete everything" }).click();
  await confirm.getByRole("button", { name: "Delete everything" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("No MCP servers yet — New server or Import mcp.json")).toBeVisible();
});

test("a tool its server marks destructive is tried only after the admin confirms it", async ({ page }) => {
  await page.goto("/settings/mcp");
  await importText(page, JSON.stringify({ mcpServers: { changing: { command: "node", args: [CHANGING] } } }));
  const row = page.getByRole("row", { name: /^changing\b/ });
  await row.getByRole("button", { name: "Show tools of changing" }).click();
  const tools = page.getByRole("region", { name: "Tools of changing" });
  const erase = tools.getByRole("listitem").filter({ has: page.getByText("erase", { exact: true }) });
  await expect(erase.getByText("Destructive", { exact: true })).toBeVisible({ timeout: 30_000 });
  await erase.getByRole("button", { name: "Try erase" }).click();
  const trying = page.getByRole("dialog", { name: "Try Erase" });
  await expect(trying).toContainText("This tool takes no arguments.");

  // Run asks first, naming the tool and the server; Cancel sends nothing.
  await trying.getByRole("button", { name: "Run", exact: true }).click();
  const confirm = trying.getByRole("alert");
  await expect(confirm).toContainText("Run erase on changing? Its server marks it destructive");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(trying.getByRole("region", { name: "Result of erase" })).toHaveCount(0);
  await trying.getByRole("button", { name: "Run", exact: true }).click();
  await trying.getByRole("button", { name: "Run erase" }).click();
  await expect(trying.getByLabel("Answer of erase")).toHaveText("erased");
  await trying.press("Escape");

  // Tried by hand, an action is in the audit log like a run's.
  await page.goto("/settings/audit");
  await expect(page.getByRole("row", { name: /tool\.executed.*erase/ }).first()).toBeVisible();

  await page.goto("/settings/mcp");
  const id = (await row.getAttribute("id"))!;
  const removed = await page.request.post("/api/trpc/mcpServers.remove", { headers: ownOrigin, data: { id } });
  expect(removed.ok(), await removed.text()).toBe(true);
});
