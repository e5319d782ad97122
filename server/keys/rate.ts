// Each key's requests a minute (R-key-rate), counted in this process's memory with rate-limiter-flexible: a limit
// per key, not per address, since one program may call from many machines and many programs from one. Studio
// processes sharing a database count apart, so each may take a key's whole limit.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export const DEFAULT_RATE_PER_MINUTE = 60;

/** One limiter per limit in use; held on globalThis so every bundle of the process counts the same requests. */
const holder = globalThis as typeof globalThis & { __quiverKeyLimiters?: Map<number, RateLimiterMemory> };

function limiter(perMinute: number): RateLimiterMemory {
  const limiters = (holder.__quiverKeyLimiters ??= new Map());
  let found = limiters.get(perMinute);
  if (!found) {
    found = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: `key-${perMinute}` });
    limiters.set(perMinute, found);
  }
  return found;
}

/** Takes one request from the key's minute; null when it may go on, else the seconds until it may. */
export async function takeKeyRequest(keyId: string, perMinute: number): Promise<number | null> {
  try {
    await limiter(perMinute).consume(keyId);
    return null;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
    throw refused;
  }
}

/** Forgets every key's count: for tests, which share one process. */
export function forgetKeyRequests(): void {
  holder.__quiverKeyLimiters?.clear();
}
