// Putting text into Monaco from a test: typing goes through auto-indent and auto-closing, so the text is
// pasted instead (a ClipboardEvent sent to the focused element) and lands byte for byte (R-ops-monaco-paste).
import { expect, type Page } from "@playwright/test";

export async function focusEditor(page: Page): Promise<void> {
  await page.locator(".monaco-editor .view-lines").first().click();
}

/** Replaces the whole buffer with `text`. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press("ControlOrMeta+A");
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

export async function expectEditorReady(page: Page): Promise<void> {
  await expect(page.locator(".monaco-editor .view-lines").first()).toBeVisible({ timeout: 20_000 });
}
