// tRPC's one initialisation: the request context and the base procedures, each named for who may
// call it. Later roles add builderProcedure, developerProcedure and adminProcedure here.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { DomainError } from "@/server/errors";

export type Context = {
  headers: Headers;
  /** Whose drafts and actions these are. One local person until accounts exist (issue 5). */
  actorId: string;
};

export async function createContext(opts: { headers: Headers }): Promise<Context> {
  return { headers: opts.headers, actorId: "local" };
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

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(domainErrors);
