// An error nobody expected (R-error-id): the answer gets one sentence with an error id, never the error's own words
// (they may be SQL, a stack, a driver's message or a value); the server log gets the id with the details, masked,
// and without the parameters of any query (a secret's insert carries its encrypted value there).
import { randomBytes } from "node:crypto";
import { logMasker } from "@/server/secrets/log-mask";

export type Unexpected = { id: string; sentence: string };

/** The sentence an answer carries for an unexpected error. */
export function unexpectedSentence(id: string): string {
  return `Something went wrong on the server; error id ${id}; the server log has the details.`;
}

const FIELDS = ["code", "detail", "hint", "where", "table", "column", "constraint"] as const;

/** One error of the chain, as its log lines: a query's text without its parameters, the driver's fields, the frames. */
function linesOf(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)];
  const record = error as Error & Record<string, unknown>;
  // drizzle writes a failed query's parameters into its message: the query alone is kept. (The driver's own error
  // carries them as a property, which is never logged.)
  const failedQuery = typeof record.query === "string" && error.message.startsWith("Failed query: ");
  const message = failedQuery ? `Failed query: ${record.query as string}` : error.message;
  const facts = FIELDS.filter((f) => typeof record[f] === "string" || typeof record[f] === "number").map((f) => `${f}=${String(record[f])}`);
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  return [`${error.name}: ${message}${facts.length ? ` (${facts.join(", ")})` : ""}`, ...frames];
}

function chainOf(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    lines.push(...(depth === 0 ? [] : ["caused by:"]), ...linesOf(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines;
}

/**
 * Gives the error an id, logs it (masked with every secret value the studio holds, the studio key and `carried`,
 * clear values the request held), and returns the sentence for the answer. The log line is written once the
 * masker is ready; the answer does not wait for it.
 */
export function reportUnexpected(error: unknown, where: string, carried: readonly string[] = []): Unexpected {
  const id = randomBytes(6).toString("hex");
  const lines = chainOf(error);
  void logMasker(carried)
    .catch(() => null)
    .then((mask) => {
      const text = [`[quiver] error ${id} in ${where}:`, ...lines].join("\n");
      // Without a masker nothing with a value in it is written: the id and where are enough to start from.
      console.error(mask ? mask(text) : `[quiver] error ${id} in ${where}: its details could not be masked, so they are not logged.`);
    });
  return { id, sentence: unexpectedSentence(id) };
}
