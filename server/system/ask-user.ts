// system:ask_user: one focused question to the person running the agent (R-sys-ask-user): ALLOW, one at a time,
// replay-safe, and bounded at one hour because it waits on a person: past it the question closes and the model is
// told nobody answered (R-ask-hour). The runtime's ctx.ask reaches them.
import { handler, text } from "./handler";
import { inputs, operation, type SystemSource } from "./types";

/** How long a question waits for its answer (R-ask-hour): the hour of its declared timeout. */
export const ASK_USER_BOUND_S = 3600;

/** R-sys-ask-user: what the model is told when nobody answered (or nobody can be asked). */
export const NO_ANSWER =
  "Nobody answered. Proceed on the most likely reading of the request, and state that assumption at the start of your reply.";

const askUserHandler = handler(async (args, ctx) => {
  const question = text(args, "question").trim();
  const choices = Array.isArray(args.choices) ? args.choices.filter((c): c is string => typeof c === "string" && c.trim() !== "") : [];
  // A question that could not be put (or went unanswered until the call ended) is no answer, not a failure.
  const answer = await ctx.ask(question, choices, ASK_USER_BOUND_S * 1000).catch(() => null);
  return answer === null || answer.trim() === "" ? NO_ANSWER : `The user answered: ${answer}`;
});

export const askUser: SystemSource = {
  name: "ask_user",
  title: "Ask the user",
  description: "Let the agent ask the person running it one question before it commits to a reading of the request.",
  settings_schema: null,
  operations: [
    operation({
      name: "ask_user",
      title: "Ask a question",
      description:
        "Ask the person one focused question, with suggested answers when there are obvious ones, and answer their reply; when nobody answers, proceed on the most likely reading and say so.",
      input_schema: inputs(
        {
          question: { type: "string", minLength: 1, description: "One question, in a sentence." },
          choices: { type: "array", items: { type: "string" }, default: [], description: "Suggested answers; empty for a free-text question." },
        },
        ["question"],
      ),
      risk: "read",
      read_only: true,
      concurrent: false,
      timeout: ASK_USER_BOUND_S,
      replay: "safe",
      capabilities: ["user.ask"],
    }),
  ],
  handlers: { ask_user: askUserHandler },
};

/** R-perm-ask-user-allowed: ask_user is registered with ALLOW, whatever the agent's default (agents/permissions.ts applies it). */
export const ASK_USER_PERMISSION = "ALLOW" as const;
