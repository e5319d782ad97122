// axe-core on a page as it stands, in light and in dark (R-a11y-axe): the WCAG 2.1 A and AA rules, failing on any
// serious or critical violation, each printed with its rule, impact, the elements it found and the rule's help.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { Result } from "axe-core";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export const BLOCKING_IMPACTS = ["serious", "critical"] as const;

/**
 * Everything the check leaves out, each with its reason. Only what the studio does not draw itself belongs here:
 * a part of the page Quiver renders is fixed, not ignored.
 */
export const AXE_IGNORED: readonly { selector?: string; rule?: string; why: string }[] = [
  {
    selector: ".monaco-editor",
    why:
      "Monaco draws its own editor (a hidden textarea that takes the typing, line numbers and tokens as coloured spans, " +
      "overlay widgets); its accessibility is Monaco's, with its own screen-reader mode (Alt+F1), and its theme's " +
      "token colours are not the studio's palette.",
  },
];

export type Scheme = "light" | "dark";

/**
 * Waits for colour transitions to end, so axe reads the colours a person sees and not a frame in between. A spinner's
 * or a pulse's endless animation never ends: waiting on it would only spend the whole bound on every check.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    const finished = Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([finished, new Promise((done) => setTimeout(done, 1_000))]);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });
}

export function describeViolation(v: Result): string {
  const targets = v.nodes.slice(0, 8).map((n) => {
    const why = n.failureSummary?.split("\n").slice(1).join(" ").trim();
    return `    ${n.target.join(" ")}${why ? ` — ${why}` : ""}`;
  });
  const more = v.nodes.length > 8 ? [`    … and ${v.nodes.length - 8} more`] : [];
  return [`  ${v.id} (${v.impact}): ${v.help}  ${v.helpUrl}`, ...targets, ...more].join("\n");
}

/** The serious and critical violations on the page in one colour scheme. */
export async function blockingViolations(page: Page, scheme: Scheme): Promise<Result[]> {
  await page.emulateMedia({ colorScheme: scheme });
  await settle(page);
  // The studio draws no frames of its own, so axe runs in the page itself (legacy mode: same-origin frames only) instead
  // of opening a blank page per check to merge each frame's partial results, which costs a page and two injections.
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode();
  const rules = AXE_IGNORED.flatMap((i) => (i.rule ? [i.rule] : []));
  if (rules.length > 0) builder = builder.disableRules(rules);
  for (const i of AXE_IGNORED) if (i.selector) builder = builder.exclude(i.selector);
  const results = await builder.analyze();
  return results.violations.filter((v) => (BLOCKING_IMPACTS as readonly string[]).includes(v.impact ?? ""));
}

/**
 * Checks the page in both schemes and returns a report of what failed, empty when nothing did, so one call
 * says everything wrong with a page at once.
 */
export async function axeReport(page: Page, what: string): Promise<string> {
  const lines: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    const found = await blockingViolations(page, scheme);
    if (found.length > 0) lines.push(`${what}, ${scheme}:`, ...found.map(describeViolation));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return lines.join("\n");
}
