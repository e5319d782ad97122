// Moving through a page as a keyboard user does (R-a11y-keyboard): Tab until a control has focus, within a bounded
// number of presses, checking at every stop that the focused element shows where it is (R-a11y-focus-visible).
import { expect, type Locator, type Page } from "@playwright/test";

export type FocusState = { what: string; visible: boolean; why: string };

/**
 * What has focus, and whether it is drawn: an outline, or for a visually hidden control the ring of what draws it; and
 * whether it is `target`. Run in the page, so it is one function with nothing from outside.
 */
function readFocus(target?: Element | null): FocusState & { reached: boolean } {
  const reached = !!target && target === document.activeElement;
  const state = ((): FocusState => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: "the page itself", visible: false, why: "nothing has focus" };
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50);
    const what = `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.getAttribute("role") ? ` role=${el.getAttribute("role")}` : ""}> ${name}`;
    const transparent = (color: string) => color === "transparent" || /rgba\(.*,\s*0\)$/.test(color);
    const outlined = (node: Element) => {
      const s = getComputedStyle(node);
      return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 1 && !transparent(s.outlineColor);
    };
    const ringed = (node: Element) => getComputedStyle(node).boxShadow !== "none";
    const box = el.getBoundingClientRect();
    if (box.width > 2 && box.height > 2) {
      return outlined(el) ? { what, visible: true, why: "" } : { what, visible: false, why: "it has no outline while focused" };
    }
    // A radio or checkbox drawn by its label (the input itself one pixel, out of sight) shows focus on the label.
    const drawers = [...((el as HTMLInputElement).labels ?? []), el.nextElementSibling].filter((n): n is Element => !!n);
    for (const node of drawers) {
      if (outlined(node) || ringed(node)) return { what, visible: true, why: "" };
    }
    return { what, visible: false, why: "it is drawn out of sight and nothing beside it shows focus" };
  })();
  return { ...state, reached };
}

export async function focusState(page: Page): Promise<FocusState> {
  const { what, visible, why } = await page.evaluate(readFocus, null);
  return { what, visible, why };
}

export async function expectFocusVisible(page: Page): Promise<FocusState> {
  const state = await focusState(page);
  expect(state.visible, `focus is not visible on ${state.what}: ${state.why}`).toBe(true);
  return state;
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, at most `max` times, and fails naming the last stops when it
 * does not get there: the sign of a trap, or of a control the keyboard cannot reach.
 */
export async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}): Promise<number> {
  await expect(target).toBeVisible();
  const stops: string[] = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    // One trip to the page per stop: what has focus, whether it shows, and whether it is the target.
    const state = await target.evaluate(readFocus);
    stops.push(state.what);
    // Past the page's last control Tab goes to the browser's own bar and then the page's first control: one stop
    // with nothing of the page focused is that wrap; two in a row mean Tab found nothing to move to.
    const wrapped = state.what === "the page itself" && stops.at(-2) !== "the page itself";
    if (!wrapped) expect(state.visible, `focus is not visible on ${state.what}: ${state.why}`).toBe(true);
    if (state.reached) return i;
  }
  throw new Error(`${max} presses of ${back ? "Shift+Tab" : "Tab"} did not reach ${target}; the last stops were:\n  ${stops.slice(-12).join("\n  ")}`);
}

/** Escape closes the open dialog, and focus goes back to the control that opened it. */
export async function escapeCloses(page: Page, dialog: Locator, opener: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Polls what has focus, so a failure says where focus went instead.
  const where = async () => ((await opener.evaluate((el) => el === document.activeElement)) ? "the opener" : (await focusState(page)).what);
  await expect.poll(where, { message: `focus goes back to ${opener} when Escape closes the dialog` }).toBe("the opener");
  await expectFocusVisible(page);
}
