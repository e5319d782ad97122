// The accounts the end-to-end tests use: the owner made from the environment, and helpers to sign in.
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const admin = { email: "admin@quiver.test", password: "correct-horse-battery-staple" };

/** Where the setup project keeps the admin's signed-in browser state. */
export const adminState = path.join("playwright", ".auth", "admin.json");

export const ownerEnv = { QUIVER_ADMIN_EMAIL: admin.email, QUIVER_ADMIN_PASSWORD: admin.password };

export async function signIn(page: Page, account: { email: string; password: string }, base = ""): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();
}
