// The canary: a secret set to a random value, every page used as each role, tools that echo the secret,
// encode it and raise it in an error; then the value (and its base64 and URL-encoded forms) is searched
// for in every HTTP response, the server's log, every file of the data folder, the tool host's
// environment and the audit rows. It must be found nowhere.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { openDatabase } from "@/db/client";
import { audit } from "@/db/schema";
import { admin, ownerEnv, signIn } from "./support/accounts";
import { startStudio, type Studio } from "./support/studio-process";

test.use({ storageState: { cookies: [], origins: [] } });
test.setTimeout(180_000);

const canaryTool = `"""Canary tools: they hand their secret back in every way a careless tool might."""

import base64
import os
from urllib.parse import quote

from quiver import Secret


class Settings:
    """What the canary is given.

    Attributes:
        token: The secret under test.
    """

    token: Secret


def echo(note: str, settings: Settings) -> str:
    """Say the note and the token together.

    Args:
        note: Anything.
    """
    return f"{note}: {settings.token}"


def encoded(settings: Settings) -> str:
    """Give the token in base64 and URL-encoded."""
    raw = settings.token.encode()
    return " ".join([base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode().rstrip("="), quote(settings.token, safe="")])


def leak(settings: Settings) -> str:
    """Fail with the token in the error."""
    raise ValueError(f"the token {settings.token} was refused")


def environment() -> dict:
    """The tool host's own environment."""
    return dict(os.environ)
`;

function forms(value: string): string[] {
  const raw = Buffer.from(value);
  return [
    value,
    raw.toString("base64"),
    raw.toString("base64url"),
    raw.toString("base64").replace(/=+$/, ""),
    encodeURIComponent(value),
  ];
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/** Every response body a page receives, kept for the search at the end. */
function record(context: BrowserContext, bodies: string[]) {
  context.on("response", async (response) => {
    try {
      bodies.push((await response.body()).toString("latin1"));
    } catch {
      // A redirect or an aborted request has no body.
    }
  });
}

async function signedIn(browser: Browser, studio: Studio, account: { email: string; password: string }, bodies: string[]) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  record(context, bodies);
  const page = await context.newPage();
  await signIn(page, account, studio.url);
  return { context, page };
}

async function tryOperation(page: Page, operation: string, fill?: () => Promise<void>) {
  const panel = page.getByRole("tabpanel", { name: "Try it" });
  await panel.getByRole("combobox", { name: "Operation" }).selectOption(operation);
  await panel.getByRole("combobox", { name: "token" }).selectOption("CANARY");
  await fill?.();
  await panel.getByRole("button", { name: "Run" }).click();
  const result = panel.getByTestId("try-result");
  await expect(panel.getByRole("region", { name: "Result" }).getByRole("status")).not.toHaveText("Running…", { timeout: 20_000 });
  return (await result.textContent()) ?? "";
}

test("the canary secret is found nowhere it must not be", async ({ browser }) => {
  const value = `canary-${randomBytes(16).toString("hex")}`;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-canary-"));
  const dataDir = path.join(root, "data");
  const tree = path.join(root, "tools");
  fs.mkdirSync(tree);
  fs.writeFileSync(path.join(tree, "canary.py"), canaryTool);
  const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, DATABASE_URL: "", ...ownerEnv });
  const bodies: string[] = [];
  const people = {
    developer: { email: "dev@quiver.test", password: "developer password 1" },
    builder: { email: "builder@quiver.test", password: "builder password 12" },
  };
  try {
    const owner = await signedIn(browser, studio, admin, bodies);
    await owner.page.goto(`${studio.url}/settings/secrets`);
    await owner.page.getByRole("button", { name: "New secret" }).first().click();
    const dialog = owner.page.getByRole("dialog", { name: "New secret" });
    await dialog.getByLabel("Name").fill("CANARY");
    await dialog.getByLabel("Value").fill(value);
    await dialog.getByLabel("Description").fill("A value that must never come back");
    await dialog.getByRole("button", { name: "Save secret" }).click();
    await expect(owner.page.getByRole("cell", { name: "CANARY", exact: true })).toBeVisible();
    for (const [role, account] of Object.entries(people)) {
      await owner.page.goto(`${studio.url}/settings/users`);
      await owner.page.getByRole("button", { name: "Add user" }).click();
      await owner.page.getByLabel("Name").fill(role);
      await owner.page.getByLabel("Email").fill(account.email);
      await owner.page.getByLabel("First password").fill(account.password);
      await owner.page.getByRole("combobox", { name: "Role", exact: true }).selectOption(role);
      await owner.page.getByRole("button", { name: "Add user", exact: true }).last().click();
      await expect(owner.page.getByRole("cell", { name: account.email, exact: true })).toBeVisible();
    }

    // The developer binds the secret in Try it and runs every canary operation.
    const dev = await signedIn(browser, studio, people.developer, bodies);
    await dev.page.goto(`${studio.url}/tools/canary.py`);
    await dev.page.getByRole("tab", { name: "Try it" }).click();
    const echoed = await tryOperation(dev.page, "canary__echo", () => dev.page.getByLabel("note").fill("hello"));
    expect(echoed).toBe("hello: ***");
    expect(await tryOperation(dev.page, "canary__encoded")).toBe("*** *** ***");
    expect(await tryOperation(dev.page, "canary__leak")).toBe("ValueError: the token *** was refused");
    const panel = dev.page.getByRole("tabpanel", { name: "Try it" });
    await panel.getByRole("combobox", { name: "Operation" }).selectOption("canary__environment");
    await panel.getByRole("button", { name: "Run" }).click();
    await expect(panel.getByRole("region", { name: "Result" }).getByRole("status")).toHaveText("Succeeded");
    const hostEnvironment = (await panel.getByTestId("try-result").textContent()) ?? "";
    expect(hostEnvironment).toContain("PATH");
    expect(hostEnvironment).not.toMatch(/QUIVER_|DATABASE_URL/);

    // Every page, as each role.
    const builder = await signedIn(browser, studio, people.builder, bodies);
    const pages = ["/", "/tools", "/tools/canary.py", "/settings/secrets", "/settings/users", "/settings/audit"];
    for (const session of [owner, dev, builder]) {
      for (const url of pages) {
        await session.page.goto(`${studio.url}${url}`);
        await session.page.waitForLoadState("networkidle");
      }
    }
    for (const session of [owner, dev, builder]) await session.context.close();
  } finally {
    await studio.stop();
  }

  const log = studio.output();
  const files = filesUnder(dataDir).map((file) => ({ file, bytes: fs.readFileSync(file) }));
  const database = await openDatabase({ dataDir });
  const auditRows = JSON.stringify(await database.db.select().from(audit));
  await database.close();
  expect(auditRows).toContain("secret.used");

  for (const form of forms(value)) {
    expect(bodies.filter((body) => body.includes(form)), `an HTTP response holds ${form}`).toEqual([]);
    expect(log.includes(form), `the server's log holds ${form}`).toBe(false);
    expect(files.filter(({ bytes }) => bytes.includes(form)).map(({ file }) => file), `a data file holds ${form}`).toEqual([]);
    expect(auditRows.includes(form), `an audit row holds ${form}`).toBe(false);
  }
  expect(bodies.length).toBeGreaterThan(50);
  fs.rmSync(root, { recursive: true, force: true });
});
