// What POST /api/v1/chat/completions takes: OpenAI's request body, checked with zod at the edge, and the
// conversation it carries turned into what a run starts from (R-api-chat-conversation). Sampling parameters are the
// builder's and ignored; what the studio cannot honour (the client's own tools, images, more than one answer) is
// refused with a sentence (R-api-chat-tools). Edit when the endpoint takes another part of OpenAI's body.
import { z } from "zod";
import type { PriorTurn } from "@/server/runtime";
import { DomainError } from "@/server/errors";
import { text } from "@/server/input/text";

/** The longest one message may be: the playground's own limit. */
export const MESSAGE_LIMIT = 100_000;
const MESSAGES_LIMIT = 1_000;

const part = z.looseObject({ type: text().max(40), text: text().max(MESSAGE_LIMIT).optional() });

const message = z.looseObject({
  role: text().max(40),
  content: z.union([text().max(MESSAGE_LIMIT), z.array(part).max(100), z.null()]).optional(),
  name: text().max(200).optional(),
  tool_calls: z.array(z.unknown()).nullish(),
});

export const chatBody = z.looseObject({
  model: text().trim().min(1, "model is missing; send the agent's id or its name as model.").max(200),
  messages: z.array(message).min(1, "messages is empty; send the conversation, ending with the user's message.").max(MESSAGES_LIMIT),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
  tools: z.unknown().optional(),
  functions: z.unknown().optional(),
  tool_choice: z.unknown().optional(),
  function_call: z.unknown().optional(),
});

export type ChatBody = z.output<typeof chatBody>;

export type Conversation = { prior: PriorTurn[]; message: string; system: string | null };

function refused(reason: string, sentence: string): DomainError {
  return new DomainError("BAD_REQUEST", reason, sentence);
}

const given = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/** The client's own tools, refused: which tools an agent has is its builder's choice. */
function refuseTools(body: ChatBody): void {
  for (const field of ["tools", "functions"] as const) {
    if (given(body[field])) {
      throw refused(
        "TOOLS_NOT_TAKEN",
        `${field} was sent, but an agent's tools are the ones its builder gave it and they run inside the studio; send the request without ${field}.`,
      );
    }
  }
  for (const field of ["tool_choice", "function_call"] as const) {
    const value = body[field];
    if (given(value) && value !== "none" && value !== "auto") {
      throw refused("TOOLS_NOT_TAKEN", `${field} was sent, but the agent chooses its own tools inside the studio; send the request without ${field}.`);
    }
  }
}

type Message = ChatBody["messages"][number];

/** A message's text: a string, or its text parts joined; anything else in it is refused with where it is. */
function textOf(m: Message, i: number): string {
  if (m.content === undefined || m.content === null) return "";
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((p, j) => {
      if (p.type === "text" && typeof p.text === "string") return p.text;
      const what = p.type === "image_url" || p.type === "image" ? "an image" : `a part of type “${p.type}”`;
      throw refused("CONTENT_NOT_TAKEN", `messages[${i}].content[${j}] is ${what}, but an agent's runs take text only; send the message as text.`);
    })
    .join("\n");
}

/** The conversation OpenAI's way (the whole of it, every time) as a run's start: earlier turns, system text, message. */
export function conversationOf(body: ChatBody): Conversation {
  refuseTools(body);
  if (typeof body.n === "number" && body.n !== 1) {
    throw refused("ONE_CHOICE", `n is ${body.n}, but a run gives one answer; send n as 1 or leave it out.`);
  }
  const system: string[] = [];
  const turns: PriorTurn[] = [];
  body.messages.forEach((m, i) => {
    if (m.role === "system" || m.role === "developer") {
      system.push(textOf(m, i));
      return;
    }
    if (m.role === "tool" || m.role === "function") {
      throw refused("TOOLS_NOT_TAKEN", `messages[${i}] is a ${m.role} result, but the agent's tools run inside the studio and no call is handed to the client; send only system, user and assistant messages.`);
    }
    if (m.role !== "user" && m.role !== "assistant") {
      throw refused("BAD_ROLE", `messages[${i}].role is “${m.role}”; send system, user or assistant.`);
    }
    if (m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      throw refused("TOOLS_NOT_TAKEN", `messages[${i}] holds tool_calls, but the agent's tool calls stay inside the studio; send the assistant's text only.`);
    }
    const said = textOf(m, i);
    if (m.role === "user" && said.trim() === "") throw refused("EMPTY_MESSAGE", `messages[${i}] is an empty user message; write something for the agent.`);
    // An assistant turn with nothing said (only calls the client saw elsewhere) adds nothing to the conversation.
    if (said.trim() !== "") turns.push({ role: m.role, text: said });
  });
  const last = turns.at(-1);
  if (!last || last.role !== "user") {
    throw refused("LAST_NOT_USER", "The conversation does not end with a user message; end messages with the user's message the agent should answer.");
  }
  const joined = system.map((s) => s.trim()).filter(Boolean).join("\n\n");
  return { prior: turns.slice(0, -1), message: last.text, system: joined || null };
}
