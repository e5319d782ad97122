// Accounts as people meet them: the first visitor makes the owner, admins add people and set roles,
// each role sees what it may use, and the server refuses the rest anyway.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { admin, signIn } from "./support/accounts";
import { startStudio } from "./support/studio-process";
import { ownOrigin } from "./support/origin";

async function freshPage(browser: Browser) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return { context, page: await context.newPage() };
}

test("on a new studio the first visitor creates the owner account and is signed in as an admin", async ({ browser }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-first-"));
  const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: "" });
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(`${studio.url}/tools`);
    await expect(page).toHaveURL(/\/setup$/);
    await page.getByLabel("Your name").fill("Ada");
    await page.getByLabel("Email").fill("ada@quiver.test");
    await page.getByLabel("Password").fill("short");
    await expect(page.getByText("At least 12 characters.")).toBeVisible();
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create the owner account" }).click();
    const rail = page.getByRole("navigation", { name: "Sections" });
    await expect(rail.getByText("ada@quiver.test · Admin")).toBeVisible();
    await expect(rail.getByRole("link", { name: "Users" })).toBeVisible();
    // The set-up page is gone once an owner exists.
    await page.goto(`${studio.url}/setup`);
    await expect(page).toHaveURL(/\/sign-in$/);
  } finally {
    await context.close();
    await studio.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a wrong password is refused with a sentence, and guessing is rate limited", async ({ browser }) => {
  // Its own studio: the limit counts per address and account, and every test here signs in from 127.0.0.1.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-limit-"));
  const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: "", QUIVER_ADMIN_EMAIL: admin.email, QUIVER_ADMIN_PASSWORD: admin.password });
  const { context, page } = await freshPage(browser);
  await page.goto(`${studio.url}/sign-in`);
  await page.getByLabel("Email").fill("nobody-here@quiver.test");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/do not match an account/);
  for (let attempt = 1; attempt < 6; attempt++) {
    await page.getByLabel("Password").fill(`wrong password ${attempt}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  // The studio's own sentence says how long to wait (R-req-signin-limit).
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    /^Too many failed sign-ins for this account from your address: try again in \d+ minutes\.$/,
  );
  await context.close();
  await studio.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("an admin adds a builder, who sees only what builders may use and cannot edit tools", async ({ page, browser }) => {
  const builder = { email: `builder-${Date.now()}@quiver.test`, password: "builder password 123" };
  await page.goto("/settings/users");
  await page.getByRole("button", { name: "Add user" }).click();
  await page.getByLabel("Name").fill("Bea Builder");
  await page.getByLabel("Email").fill(builder.email);
  await page.getByLabel("First password").fill(builder.password);
  await page.getByRole("button", { name: "Add user", exact: true }).last().click();
  await expect(page.getByRole("cell", { name: builder.email, exact: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: `Role of ${builder.email}` })).toHaveValue("builder");

  const { context, page: theirs } = await freshPage(browser);
  await signIn(theirs, builder);
  const rail = theirs.getByRole("navigation", { name: "Sections" });
  await expect(rail.getByRole("link", { name: "Tools" })).toBeVisible();
  await expect(rail.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(rail.getByRole("link", { name: "Secrets" })).toHaveCount(0);
  await theirs.goto("/tools");
  await expect(theirs.getByRole("cell", { name: "notes.py" })).toBeVisible();
  await expect(theirs.getByRole("button", { name: "New tool file" })).toHaveCount(0);
  await theirs.goto("/tools/notes.py");
  await expect(theirs.getByRole("main").getByRole("alert")).toContainText("Editing tool files needs the Developer role.");
  await theirs.goto("/settings/users");
  await expect(theirs.getByRole("main").getByRole("alert")).toContainText("Managing users needs the Admin role.");
  // The server refuses it anyway, whatever the page shows.
  const res = await theirs.request.post("/api/trpc/tools.file.create", { headers: ownOrigin, data: { path: "sneaky.py" } });
  expect(res.status()).toBe(403);

  // Made a developer, the same person may now edit.
  await page.getByRole("combobox", { name: `Role of ${builder.email}` }).selectOption("developer");
  await expect(page.getByRole("combobox", { name: `Role of ${builder.email}` })).toHaveValue("developer");
  await theirs.goto("/tools/notes.py");
  await expect(theirs.locator(".monaco-editor").first()).toBeVisible({ timeout: 20_000 });

  // Disabled, they are signed out and cannot sign in again.
  await page.getByRole("button", { name: `Disable ${builder.email}` }).click();
  await expect(page.getByRole("button", { name: `Enable ${builder.email}` })).toBeVisible();
  await theirs.goto("/tools");
  await expect(theirs).toHaveURL(/\/sign-in/);
  await theirs.getByLabel("Email").fill(builder.email);
  await theirs.getByLabel("Password").fill(builder.password);
  await theirs.getByRole("button", { name: "Sign in" }).click();
  await expect(theirs.getByRole("main").getByRole("alert")).toContainText("disabled");
  await context.close();
});

test("nobody signed in is sent to sign in, and the API answers 401", async ({ browser }) => {
  const { context, page } = await freshPage(browser);
  await page.goto("/tools");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Ftools$/);
  const res = await page.request.get("/api/trpc/tools.files");
  expect(res.status()).toBe(401);
  await context.close();
});

test("the audit log shows sign-ins and user changes to admins", async ({ page }) => {
  await page.goto("/settings/audit");
  await page.getByLabel("What").fill("user.");
  await expect(page.getByRole("cell", { name: "user.signed_in" }).first()).toBeVisible();
});
