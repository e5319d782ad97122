// tRPC's one initialisation: the request context and the base procedures, each named for who may call
// it. Every procedure starts from one of these, so none can forget to say which role it needs.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Role } from "@/db/schema";
import { hasRole } from "@/server/auth/roles";
import { sessionUser, type SessionUser } from "@/server/auth/session";
import { reportUnexpected, type Unexpected } from "@/server/error-report";
import { DomainError } from "@/server/errors";
import { inputSentence, issueList } from "./sentences";

export type Context = {
  headers: Headers;
  /** The signed-in person, or null. */
  user: SessionUser | null;
};

export async function createContext(opts: { headers: Headers }): Promise<Context> {
  return { headers: opts.headers, user: await sessionUser(opts.headers) };
}

/** The error id each unexpected error was given: tRPC may shape one error more than once. */
const reported = new WeakMap<Error, Unexpected>();

/** Clear values a request may carry (a secret's value, a password), which its error's log line must not show. */
function carried(input: unknown): string[] {
  if (input === null || typeof input !== "object") return [];
  const record = input as Record<string, unknown>;
  return ["value", "password"].flatMap((key) => (typeof record[key] === "string" ? [record[key] as string] : []));
}

/** A message tRPC itself wrote (an unknown procedure, the wrong method), ending as a sentence does. */
const sentence = (message: string) => (/[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`);

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error, path, input, ctx }) {
    // Validation problems travel as a list a form can place beside its fields, each a sentence (R-input-sentence); a
    // domain error carries its reason and details (a conflicting version) for the client to act on; an unexpected
    // error is one sentence with an id the server log has the details under (R-error-id). Never a stack.
    const invalid = error.code === "BAD_REQUEST" && error.cause instanceof ZodError ? error.cause.issues : null;
    const domain =
      error.cause instanceof DomainError ? { reason: error.cause.reason, details: error.cause.details ?? null } : null;
    let message = error.message;
    let errorId: string | null = null;
    if (invalid) message = inputSentence(invalid);
    else if (error.code === "PARSE_ERROR" || error.cause instanceof SyntaxError) {
      message = "The request's input is not JSON (it is empty, cut off or garbled); send the input as one JSON value.";
    }
    else if (shape.data.httpStatus >= 500 && !domain) {
      let unexpected = reported.get(error);
      if (!unexpected) {
        unexpected = reportUnexpected(error.cause ?? error, `tRPC ${path ?? "(no procedure)"}${ctx?.user ? ` for ${ctx.user.id}` : ""}`, carried(input));
        reported.set(error, unexpected);
      }
      message = unexpected.sentence;
      errorId = unexpected.id;
    } else message = sentence(message);
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, issues: invalid ? issueList(invalid) : null, domain, errorId },
    };
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
