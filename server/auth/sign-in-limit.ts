// How many wrong passwords a sign-in may cost (R-req-signin-limit). Counted per (address, account), so an attacker
// cannot lock everyone behind one address out, and per account with a backoff that doubles, so one account is not
// guessed from many addresses. Each attempt takes its place atomically before the password is checked (parallel
// guesses get no extra tries); a success clears both counts, so it never counts. Times come from Date.now(), never
// from the database clock, so tests can move them.
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signInLimit } from "@/db/schema";

export const SIGN_IN_LIMITS = {
  /** Wrong passwords one address may try on one account within the window. */
  perAddress: 5,
  addressWindowMs: 15 * 60_000,
  /** Wrong passwords on one account, from anywhere, before each further try must wait. */
  accountFree: 10,
  /** The first wait; each further failure doubles it, up to the longest. */
  accountFirstWaitMs: 1_000,
  accountLongestWaitMs: 15 * 60_000,
  /** An account's failures are forgotten after this long without one. */
  accountMemoryMs: 24 * 60 * 60_000,
} as const;

export type Refused = { message: string; retryAfterSeconds: number };

const pairKey = (address: string, email: string) => `address:${address}|${email}`;
const accountKey = (email: string) => `account:${email}`;

function waiting(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** The wait after an account's `n`th failure, in SQL: nothing while free, then doubling up to the longest. */
function waitAfter(n: SQL): SQL {
  const { accountFree, accountFirstWaitMs, accountLongestWaitMs } = SIGN_IN_LIMITS;
  return sql`(CASE WHEN ${n} > ${accountFree} THEN LEAST(${accountLongestWaitMs}::float8,
    ${accountFirstWaitMs}::float8 * power(2::float8, LEAST(${n} - ${accountFree} - 1, 30)::float8))::bigint ELSE 0 END)`;
}

async function takePairTry(db: Db, key: string, now: number): Promise<number | null> {
  const { perAddress, addressWindowMs } = SIGN_IN_LIMITS;
  const over = sql`${signInLimit.since} <= ${now - addressWindowMs}::bigint`;
  const rows = await db
    .insert(signInLimit)
    .values({ key, failures: 1, since: now, notBefore: 0 })
    .onConflictDoUpdate({
      target: signInLimit.key,
      set: {
        failures: sql`CASE WHEN ${over} THEN 1 ELSE ${signInLimit.failures} + 1 END`,
        since: sql`CASE WHEN ${over} THEN ${now}::bigint ELSE ${signInLimit.since} END`,
      },
      setWhere: sql`${over} OR ${signInLimit.failures} < ${perAddress}`,
    })
    .returning({ failures: signInLimit.failures });
  if (rows.length > 0) return null;
  const [row] = await db.select({ since: signInLimit.since }).from(signInLimit).where(eq(signInLimit.key, key));
  return (row?.since ?? now) + addressWindowMs - now;
}

async function takeAccountTry(db: Db, key: string, now: number): Promise<number | null> {
  const forgotten = sql`${signInLimit.since} <= ${now - SIGN_IN_LIMITS.accountMemoryMs}::bigint`;
  const n = sql`(CASE WHEN ${forgotten} THEN 1 ELSE ${signInLimit.failures} + 1 END)`;
  const rows = await db
    .insert(signInLimit)
    .values({ key, failures: 1, since: now, notBefore: now })
    .onConflictDoUpdate({
      target: signInLimit.key,
      set: { failures: n, since: sql`${now}::bigint`, notBefore: sql`${now}::bigint + ${waitAfter(n)}` },
      setWhere: sql`${signInLimit.notBefore} <= ${now}::bigint`,
    })
    .returning({ failures: signInLimit.failures });
  if (rows.length > 0) return null;
  const [row] = await db.select({ notBefore: signInLimit.notBefore }).from(signInLimit).where(eq(signInLimit.key, key));
  return (row?.notBefore ?? now) - now;
}

async function giveBack(db: Db, keys: string[], now: number): Promise<void> {
  await db
    .update(signInLimit)
    .set({ failures: sql`GREATEST(${signInLimit.failures} - 1, 0)`, notBefore: sql`LEAST(${signInLimit.notBefore}, ${now}::bigint)` })
    .where(inArray(signInLimit.key, keys));
}

/** Takes one try for `email` from `address`, counted as a failure until settled; or says how long to wait. */
export async function takeSignInTry(db: Db, address: string, email: string): Promise<Refused | null> {
  const now = Date.now();
  const pair = pairKey(address, email);
  const pairWait = await takePairTry(db, pair, now);
  if (pairWait !== null) {
    return {
      message: `Too many failed sign-ins for this account from your address: try again in ${waiting(pairWait)}.`,
      retryAfterSeconds: Math.max(1, Math.ceil(pairWait / 1000)),
    };
  }
  const accountWait = await takeAccountTry(db, accountKey(email), now);
  if (accountWait === null) return null;
  await giveBack(db, [pair], now);
  return {
    message: `Too many failed sign-ins for this account: try again in ${waiting(accountWait)}.`,
    retryAfterSeconds: Math.max(1, Math.ceil(accountWait / 1000)),
  };
}

export type Outcome = "wrong-password" | "right-password" | "other";

/**
 * Settles a try taken with takeSignInTry: a wrong password keeps its count; the right one (signed in, or refused
 * only because the account is disabled) clears both counts; any other end gives the try back, as it tested nothing.
 */
export async function settleSignInTry(db: Db, address: string, email: string, outcome: Outcome): Promise<void> {
  const keys = [pairKey(address, email), accountKey(email)];
  const now = Date.now();
  if (outcome === "right-password") await db.delete(signInLimit).where(inArray(signInLimit.key, keys));
  else if (outcome === "other") await giveBack(db, keys, now);
  // Rows nobody has failed on for a day hold nothing: drop them as we go.
  await db.delete(signInLimit).where(sql`${signInLimit.since} < ${now - SIGN_IN_LIMITS.accountMemoryMs}::bigint AND ${signInLimit.notBefore} < ${now}::bigint`);
}
