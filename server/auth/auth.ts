// Accounts and sessions through better-auth: email and password, sessions in the database, httpOnly
// SameSite cookies, sign-in limited per address and account (sign-in-limit.ts). Built once the database
// is open (it needs the drizzle handle).
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { account, rateLimit, session, user, verification } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { CLIENT_HEADER } from "@/server/http/address";
import { deriveKey, studioKey } from "@/server/secrets/key";
import { COOKIE_PREFIX } from "./cookie-prefix";
import { settleSignInTry, takeSignInTry } from "./sign-in-limit";

function build(db: Db) {
  return betterAuth({
    appName: "Quiver",
    basePath: "/api/auth",
    // Without QUIVER_BASE_URL the studio answers on whatever host it is reached by (no OAuth callback
    // depends on the host), and cookies cannot be Secure, since plain http on a LAN must work too.
    baseURL: env().baseUrl ?? { allowedHosts: ["*"], fallback: `http://localhost:${env().port}` },
    // Sessions are signed with a key derived from the studio key: no second secret to manage.
    secret: deriveKey(studioKey().key, "sessions").toString("base64"),
    database: drizzleAdapter(db, { provider: "pg", schema: { user, session, account, verification, rateLimit } }),
    emailAndPassword: { enabled: true, minPasswordLength: 12, maxPasswordLength: 256, autoSignIn: false },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "builder", input: false },
        disabled: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 120,
      // Sign-in has limits of its own, per address and account (R-req-signin-limit): a limit per address alone
      // would let one attacker lock out everyone behind it, and would count successes.
      customRules: { "/sign-in/email": false },
    },
    // Same-origin only: a request's Origin must be the host it was sent to.
    trustedOrigins: (request) => {
      const host = request?.headers.get("host");
      return host ? [`http://${host}`, `https://${host}`] : [];
    },
    advanced: {
      // The route resolves the address from the socket and trusted proxies only (R-req-trusted-proxy).
      ipAddress: { ipAddressHeaders: [CLIENT_HEADER] },
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: env().baseUrl?.startsWith("https://") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // An error better-auth did not make itself reaches the route, which answers it with an error id and logs it masked
    // and without the query's values (R-error-id); better-auth would log the failed query whole and answer nothing.
    onAPIError: { throw: true },
    databaseHooks: {
      session: {
        create: {
          before: async (created) => {
            const [row] = await db.select({ disabled: user.disabled }).from(user).where(eq(user.id, created.userId));
            if (row?.disabled) throw new APIError("FORBIDDEN", { message: "This account is disabled; ask an admin to enable it." });
          },
          after: async (created) => {
            await recordAudit(db, { actor: created.userId, action: "user.signed_in", target: created.userId });
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const attempt = signInAttempt(ctx);
        if (!attempt) return;
        const refused = await takeSignInTry(db, attempt.address, attempt.email);
        if (refused) {
          throw new APIError("TOO_MANY_REQUESTS", { message: refused.message, code: "SIGN_IN_LIMITED" }, { "Retry-After": String(refused.retryAfterSeconds) });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const attempt = signInAttempt(ctx);
        if (!attempt) return;
        const returned = ctx.context.returned;
        const failed = returned instanceof APIError;
        // A disabled account is refused only once its password has been found right.
        const outcome = !failed || returned.statusCode === 403 ? "right-password" : returned.statusCode === 401 ? "wrong-password" : "other";
        await settleSignInTry(db, attempt.address, attempt.email, outcome);
        if (failed) await recordAudit(db, { actor: "anonymous", action: "user.sign_in_failed", target: attempt.email });
      }),
    },
  });
}

/** A sign-in by password, by whom and from where; null for every other request. */
function signInAttempt(ctx: { path?: string; body?: unknown; headers?: Headers }): { email: string; address: string } | null {
  if (ctx.path !== "/sign-in/email") return null;
  const email = (ctx.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== "string") return null;
  // Unknown when the studio is served without scripts/serve.mjs: every such attempt then shares one address.
  return { email: email.trim().toLowerCase(), address: ctx.headers?.get(CLIENT_HEADER) ?? "unknown" };
}

export type Auth = ReturnType<typeof build>;

const holder = globalThis as typeof globalThis & { __quiverAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  holder.__quiverAuth ??= getDb().then(build);
  return holder.__quiverAuth;
}
