// system:ask_user: one focused question to the person running the agent (seed 002): ALLOW, one at a time,
// replay-safe, and bounded at one hour because it waits on a person.
import { inputs, operation, type SystemSource } from "./types";

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
      timeout: 3600,
      replay: "safe",
      capabilities: ["user.ask"],
    }),
  ],
  handlers: {},
};

/** Seed 002: ask_user is registered with ALLOW, whatever the agent's default (agents/permissions.ts applies it). */
export const ASK_USER_PERMISSION = "ALLOW" as const;
