// The JSON body of a request to better-auth, checked before better-auth reads it, with the same text check and the same
// sentences as every procedure (R-input-text, R-input-sentence): better-auth would hand a NUL to the database (a 500
// with the query logged) and answer a field of the wrong kind with a zod dump. Edit SCHEMAS when the route allows
// another endpoint that takes a body.
import { z } from "zod";
import { inputSentence, issueList } from "@/server/trpc/sentences";
import { json, text } from "@/server/trpc/text";

// Loose, as better-auth's own schemas are: a field it does not know is dropped there, still checked as text here.
const SCHEMAS: Record<string, z.ZodType> = {
  "/api/auth/sign-in/email": z.looseObject({
    email: text(),
    password: text(),
    callbackURL: text().optional(),
    rememberMe: z.boolean().optional(),
  }),
};
const ANY_OBJECT = z.looseObject({});

const NOT_JSON = "The input is not JSON (it is empty, cut off or garbled); send one JSON object.";

export type Checked = { refusal: Response; carried: null } | { refusal: null; carried: string[] };

function refuse(message: string, issues: ReturnType<typeof issueList> = []): Checked {
  return { refusal: Response.json({ message, code: "INVALID_INPUT", issues }, { status: 400 }), carried: null };
}

/**
 * A 400 with one sentence for a JSON body the route must not pass on; otherwise the clear values it carries (a
 * password), for the log line of an error nobody expected to be masked with. A body of another type is left to
 * better-auth, which reads only JSON and refuses the rest itself.
 */
export async function checkBody(request: Request, pathname: string): Promise<Checked> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!request.body || type !== "application/json") return { refusal: null, carried: [] };
  let body: unknown;
  try {
    body = JSON.parse(await request.clone().text());
  } catch {
    return refuse(NOT_JSON);
  }
  const parsed = json(SCHEMAS[pathname] ?? ANY_OBJECT).safeParse(body);
  if (!parsed.success) return refuse(inputSentence(parsed.error.issues), issueList(parsed.error.issues));
  const password = (body as { password?: unknown }).password;
  return { refusal: null, carried: typeof password === "string" ? [password] : [] };
}
