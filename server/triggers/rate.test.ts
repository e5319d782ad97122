// Each webhook's requests a minute (R-trigger-webhook-rate): the 61st within the minute is told how long to wait, and
// another webhook is not held back.
import { describe, expect, it } from "vitest";
import { HOOK_RATE_PER_MINUTE, takeHookRequest } from "./rate";

describe("a webhook's rate", () => {
  it("lets 60 requests through in a minute, then says how many seconds to wait, counting each webhook apart", async () => {
    const answers = [];
    for (let i = 0; i < HOOK_RATE_PER_MINUTE; i++) answers.push(await takeHookRequest("hook-busy"));
    expect(answers.every((wait) => wait === null)).toBe(true);
    const wait = await takeHookRequest("hook-busy");
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await takeHookRequest("hook-quiet")).toBeNull();
  });
});
