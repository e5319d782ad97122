// tRPC's one initialisation: the request context and the base procedures, each named for who may
// call it. Later roles add builderProcedure, developerProcedure and adminProcedure here.
import { initTRPC } from "@trpc/server";
import { ZodError } from "zod";

export type Context = { headers: Headers };

export async function createContext(opts: { headers: Headers }): Promise<Context> {
  return { headers: opts.headers };
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Validation problems travel as a list a form can place beside its fields.
    const issues =
      error.cause instanceof ZodError
        ? error.cause.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }))
        : null;
    return { ...shape, data: { ...shape.data, issues } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure;
