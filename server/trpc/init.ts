// tRPC's one initialisation: the request context and the base procedures, each named for who may call
// it. Every procedure starts from one of these, so none can forget to say which role it needs.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Role } from "@/db/schema";
import { hasRole } from "@/server/auth/roles";
import { sessionUser, type SessionUser } from "@/server/auth/session";
import { DomainError } from "@/server/errors";

export type Context = {
  headers: Headers;
  /** The signed-in person, or null. */
  user: SessionUser | null;
};

export async function createContext(opts: { headers: Headers }): Promise<Context> {
  return { headers: opts.headers, user: await sessionUser(opts.headers) };
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Validation problems travel as a list a form can place beside its fields; a domain error
    // carries its reason and details (a conflicting version) for the client to act on.
    const issues =
      error.cause instanceof ZodError
        ? error.cause.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }))
        : null;
    const domain =
      error.cause instanceof DomainError ? { reason: error.cause.reason, details: error.cause.details ?? null } : null;
    return { ...shape, data: { ...shape.data, issues, domain } };
  },
});

/** Turns the domain's errors into answers with their own status, not a 500. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.kind, message: cause.message, cause });
  }
  return result;
});

const roleLabel: Record<Role, string> = { admin: "an admin", developer: "a developer or an admin", builder: "a signed-in user" };

function requireRole(role: Role) {
  return t.middleware(({ ctx, next }) => {
    if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
    if (!hasRole(ctx.user, role)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `Only ${roleLabel[role]} may do this; ask an admin for the role.` });
    }
    return next({ ctx: { ...ctx, user: ctx.user } });
  });
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(domainErrors);
/** Any signed-in person: composes and runs agents, reads tools. */
export const builderProcedure = publicProcedure.use(requireRole("builder"));
/** Developers and admins: edit the tool tree. */
export const developerProcedure = publicProcedure.use(requireRole("developer"));
/** Admins: users, secrets, audit. */
export const adminProcedure = publicProcedure.use(requireRole("admin"));
