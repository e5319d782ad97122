import { expect, test } from "@playwright/test";

test("the home page says what Quiver is and links to the tools", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to Quiver" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Home" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("main").getByRole("link", { name: /Tools/ }).click();
  await expect(page).toHaveURL(/\/tools$/);
  await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
});

test("/tools lists the files of the tool tree, read on the server", async ({ page }) => {
  await page.goto("/tools");
  const table = page.getByRole("table");
  await expect(table.getByRole("cell", { name: "notes.py", exact: true })).toBeVisible();
  await expect(table.getByRole("cell", { name: "shell.py", exact: true })).toBeVisible();
});

test("the search box narrows the list of tool files and says when nothing matches", async ({ page }) => {
  await page.goto("/tools");
  const search = page.getByRole("searchbox", { name: "Search tool files" });
  await search.fill("shell");
  await expect(page.getByRole("cell", { name: "shell.py", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "notes.py", exact: true })).toHaveCount(0);
  await search.fill("nothing-like-this");
  await expect(page.getByText("No file matches")).toBeVisible();
});

test("/api/health says the embedded database is migrated", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ ok: true, db: "pglite" });
});

test("the tRPC endpoint answers the tree listing as JSON", async ({ request }) => {
  const res = await request.get("/api/trpc/tools.files");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { result: { data: { files: { path: string }[] } } };
  expect(body.result.data.files.map((f) => f.path)).toEqual(expect.arrayContaining(["notes.py", "shell.py"]));
});
