// The agent page's "Use from code" as a builder meets it: the agent's addresses on this studio, the snippets and MCP
// configurations with Copy putting exactly the text shown on the clipboard, no key in any of them, and the keys
// that can reach the agent, first none (pointing an admin to Settings → API keys), then one by name and prefix
// (R-use-from-code-key, R-use-from-code-keys).
import { expect, test } from "@playwright/test";
import { KEY_PLACEHOLDER, mcpConfigsOf, snippetsOf } from "../../components/agents/use-from-code-snippets";
import { ownOrigin } from "./support/origin";

test("Use from code shows the agent's addresses, copies its snippets and lists the keys that reach it", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const name = "Sam's desk";
  const created = await page.request.post("/api/trpc/agents.create", {
    headers: ownOrigin,
    data: { declaration: { name, instructions: "Answer.", model: { provider: "openai-compatible", model: "scripted", base_url: "http://127.0.0.1:9/v1" }, tools: [] } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  const agent = { id, name };

  await page.goto(`/agents/${id}`);
  const section = page.getByRole("region", { name: "Use from code" });
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByText(`${baseURL}/api/v1/chat/completions`, { exact: true })).toBeVisible();
  await expect(section.getByText(`${baseURL}/api/v1/agents/${id}/runs`, { exact: true })).toBeVisible();
  await expect(section.getByText(`${baseURL}/api/mcp/agents/${id}`, { exact: true })).toBeVisible();
  await expect(section.getByText(/^No API key can reach this agent yet: make one in Settings → API keys/)).toBeVisible();
  await expect(section.getByRole("link", { name: "Settings → API keys" })).toHaveAttribute("href", "/settings/api-keys");

  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await section.getByRole("button", { name: "Copy the address of MCP server" }).click();
  expect(await clipboard()).toBe(`${baseURL}/api/mcp/agents/${id}`);

  const snippets = snippetsOf(baseURL!, agent);
  const curl = section.getByRole("button", { name: "Copy the curl snippet" });
  await expect(section.getByLabel("the curl snippet", { exact: true })).toHaveText(snippets.curl);
  await curl.click();
  await expect(curl).toHaveText("Copied");
  expect(await clipboard()).toBe(snippets.curl);

  await section.getByRole("tab", { name: "TypeScript" }).click();
  await section.getByRole("button", { name: /^Copy the TypeScript snippet/ }).click();
  expect(await clipboard()).toBe(snippets.typescript);
  await section.getByRole("tab", { name: "Python" }).click();
  await section.getByRole("button", { name: /^Copy the Python snippet/ }).click();
  expect(await clipboard()).toBe(snippets.python);

  const vscode = mcpConfigsOf(baseURL!, agent).find((c) => c.id === "vscode")!;
  await section.getByRole("tab", { name: "VS Code" }).click();
  await expect(section.getByText(".vscode/mcp.json", { exact: true })).toBeVisible();
  await section.getByRole("button", { name: "Copy the VS Code configuration" }).click();
  expect(await clipboard()).toBe(vscode.config);
  await section.getByRole("tab", { name: "Claude Desktop" }).click();
  await section.getByRole("button", { name: "Copy the Claude Desktop configuration" }).click();
  expect(await clipboard()).toContain(`"AUTH_HEADER": "Bearer ${KEY_PLACEHOLDER}"`);

  // A key for this agent: listed by its name and prefix, what it may do and its expiry, and its value nowhere.
  const made = await page.request.post("/api/trpc/apiKeys.create", { headers: ownOrigin, data: { name: "desk-runner", agents: [id], scopes: ["run", "read"] } });
  expect(made.ok(), await made.text()).toBe(true);
  const value = ((await made.json()) as { result: { data: { value: string } } }).result.data.value;
  await page.reload();
  const row = page.getByRole("table", { name: "Keys that can reach this agent" }).getByRole("row", { name: /desk-runner/ });
  await expect(row).toContainText(`${value.slice(0, 11)}…`);
  await expect(row).toContainText("run agents, read runs");
  await expect(row).toContainText("Agents it lists, this one included");
  await expect(row).toContainText("Never");
  expect(await page.content()).not.toContain(value);

  await page.request.post("/api/trpc/agents.remove", { headers: ownOrigin, data: { id } });
});
