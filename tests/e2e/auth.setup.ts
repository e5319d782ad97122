// Signs in once as the owner the studio made from QUIVER_ADMIN_EMAIL / QUIVER_ADMIN_PASSWORD; the other
// tests start from that browser state.
import { test as setup } from "@playwright/test";
import { admin, adminState, signIn } from "./support/accounts";

setup("sign in as the owner", async ({ page }) => {
  await signIn(page, admin);
  await page.context().storageState({ path: adminState });
});
