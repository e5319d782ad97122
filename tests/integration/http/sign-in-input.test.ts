// What the sign-in route answers for a body it cannot take, through the real route handler: text the database cannot
// hold and fields of the wrong kind are refused with one sentence naming the field (R-input-text, R-input-sentence),
// and a failure nobody expected is the error-id sentence, never an empty answer or a driver's words (R-error-id).
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { addUser, freshStudio, PASSWORD, routes, signInRequest, STUDIO } from "./studio";

const studio = freshStudio("sign-in-input");

beforeAll(async () => {
  await addUser("ana@quiver.test", "builder");
});

afterEach(() => vi.restoreAllMocks());
afterAll(() => studio.close());

function post(body: string): Request {
  return new Request(`${STUDIO}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STUDIO },
    body,
  });
}

async function answerOf(request: Request): Promise<{ status: number; message: string; text: string }> {
  const { auth } = await routes();
  const answer = await auth.POST(request);
  const text = await answer.text();
  let message = "";
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? "");
  } catch {
    // An answer that is not JSON has no message: the assertions on it say so.
  }
  return { status: answer.status, message, text };
}

/** Everything the server logged while `run` ran, as one text. */
async function logged(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  for (const level of ["error", "warn", "log", "info"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  }
  await run();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return lines.join("\n");
}

describe("the sign-in route's input", () => {
  it("refuses a NUL in the email with 400 and a sentence naming the field, and logs no query", async () => {
    let answer = { status: 0, message: "", text: "" };
    const log = await logged(async () => {
      answer = await answerOf(signInRequest("ana\u0000@quiver.test", PASSWORD));
    });
    expect(answer.status).toBe(400);
    expect(answer.message).toBe("email contains a NUL character (U+0000) at character 4; remove it and send the text again.");
    expect(log).not.toMatch(/select|query/i);
  });

  it("refuses a lone surrogate in the password without echoing the password", async () => {
    const answer = await answerOf(signInRequest("ana@quiver.test", "secret\uD800word-long-enough"));
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/^password contains a lone surrogate \(U\+D800\) at character 7, .*send the text again\.$/);
    expect(answer.text).not.toContain("secret");
  });

  it("names the field of the wrong kind in a sentence, not a zod dump", async () => {
    const answer = await answerOf(post(JSON.stringify({ email: 42, password: PASSWORD })));
    expect(answer.status).toBe(400);
    expect(answer.message).toBe("email must be text; send it as text.");
    const missing = await answerOf(post(JSON.stringify({ email: "ana@quiver.test" })));
    expect(missing.status).toBe(400);
    expect(missing.message).toBe("password is missing; send it as text.");
  });

  it("refuses a body that is not a JSON object with a sentence", async () => {
    for (const body of ["{not json", "[1, 2]", "\"text\""]) {
      const answer = await answerOf(post(body));
      expect(answer.status, body).toBe(400);
      expect(answer.message, body).toMatch(/^The input .*\.$/);
    }
  });

  it("still signs in with a body it takes", async () => {
    expect((await answerOf(signInRequest("ana@quiver.test", PASSWORD))).status).toBe(200);
  });

  it("answers an unexpected failure with the error-id sentence and logs it under that id, not the query's values", async () => {
    const { getDb } = await import("@/server/db");
    const db = await getDb();
    await db.execute(sql.raw(`ALTER TABLE "user" RENAME TO user_away`));
    let answer = { status: 0, message: "", text: "" };
    try {
      const log = await logged(async () => {
        answer = await answerOf(signInRequest("ana@quiver.test", PASSWORD));
      });
      expect(answer.status).toBe(500);
      const id = /error id ([0-9a-f]{12})/.exec(answer.message)?.[1];
      expect(answer.message).toBe(`Something went wrong on the server; error id ${id}; the server log has the details.`);
      expect(log).toContain(`[quiver] error ${id} in`);
      expect(log).not.toContain("ana@quiver.test");
      expect(log).not.toContain(PASSWORD);
    } finally {
      await db.execute(sql.raw(`ALTER TABLE user_away RENAME TO "user"`));
    }
  });
});
