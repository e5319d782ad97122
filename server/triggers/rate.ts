// Each webhook's requests a minute (R-trigger-webhook-rate), counted in this process's memory by rate-limiter-flexible,
// as a key's are: a sender in a loop is told to wait rather than starting a run per request without end.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export const HOOK_RATE_PER_MINUTE = 60;

/** Held on globalThis so every bundle of the process counts the same requests. */
const holder = globalThis as typeof globalThis & { __quiverHookLimiter?: RateLimiterMemory };

function limiter(): RateLimiterMemory {
  holder.__quiverHookLimiter ??= new RateLimiterMemory({ points: HOOK_RATE_PER_MINUTE, duration: 60, keyPrefix: "webhook" });
  return holder.__quiverHookLimiter;
}

/** Takes one request from the webhook's minute; null when it may go on, else the seconds until it may. */
export async function takeHookRequest(webhookId: string): Promise<number | null> {
  try {
    await limiter().consume(webhookId);
    return null;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
    throw refused;
  }
}
