// Accounts and sessions through better-auth: email and password, sessions in the database, httpOnly
// SameSite cookies, sign-in rate limited. Built once the database is open (it needs the drizzle handle).
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { account, rateLimit, session, user, verification } from "@/db/schema";
import { recordAudit } from "@/server/audit/record";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { deriveKey, studioKey } from "@/server/secrets/key";

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
      // Guessing passwords gets five tries a minute per address.
      customRules: { "/sign-in/email": { window: 60, max: 5 } },
    },
    // Same-origin only: a request's Origin must be the host it was sent to.
    trustedOrigins: (request) => {
      const host = request?.headers.get("host");
      return host ? [`http://${host}`, `https://${host}`] : [];
    },
    advanced: {
      cookiePrefix: "quiver",
      useSecureCookies: env().baseUrl?.startsWith("https://") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
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
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email" && ctx.context.returned instanceof APIError) {
          const email = typeof ctx.body?.email === "string" ? ctx.body.email.toLowerCase() : null;
          await recordAudit(db, { actor: "anonymous", action: "user.sign_in_failed", target: email });
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof build>;

const holder = globalThis as typeof globalThis & { __quiverAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  holder.__quiverAuth ??= getDb().then(build);
  return holder.__quiverAuth;
}
