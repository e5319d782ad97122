// What a webhook's request says, as the run's message (R-trigger-webhook-body): JSON when its Content-Type says so
// or it is a JSON object or array whatever the type (curl -d sends JSON as a form), form fields as an object, any
// other text as it is; then through the webhook's template, if it has one. Every fault is a sentence for the sender.
import { textProblem } from "@/server/input/text";
import { render, shown } from "./template";

/** A run's message holds as much as a message sent through the runs API. */
export const MESSAGE_MAX = 100_000;

export type HookMessage = { message: string; missing: string[] };

export class BadHookBody extends Error {
  constructor(
    readonly code: "INVALID_JSON" | "NOT_TEXT" | "EMPTY_BODY" | "EMPTY_MESSAGE" | "MESSAGE_TOO_LONG" | "INVALID_TEXT",
    message: string,
  ) {
    super(message);
  }
}

function decoded(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new BadHookBody("NOT_TEXT", "This request's body is not UTF-8 text; send JSON or text.");
  }
}

/** The body as a value: parsed JSON, form fields, or the text itself. */
export function bodyValue(bytes: Uint8Array, contentType: string | null): unknown {
  const text = decoded(bytes);
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const saysJson = type === "application/json" || type.endsWith("+json");
  if (saysJson || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      if (saysJson) throw new BadHookBody("INVALID_JSON", "This request says its body is JSON, but it is not (it is cut off or garbled); send one JSON value.");
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  return text;
}

/** The run's message made of the request's body and the webhook's template (null: the body itself). */
export function hookMessage(bytes: Uint8Array, contentType: string | null, template: string | null): HookMessage {
  const value = bodyValue(bytes, contentType);
  let made: HookMessage;
  if (template === null) {
    made = { message: shown(value), missing: [] };
    if (made.message.trim() === "") throw new BadHookBody("EMPTY_BODY", "This request has no body; send the JSON or text the agent should read.");
  } else {
    made = render(template, value);
    if (made.message.trim() === "") {
      throw new BadHookBody("EMPTY_MESSAGE", "The webhook's template made an empty message of this request; send the fields it names, or change the template on the agent's page.");
    }
  }
  if (made.message.length > MESSAGE_MAX) {
    throw new BadHookBody(
      "MESSAGE_TOO_LONG",
      `This request makes a message of ${made.message.length.toLocaleString("en")} characters, over ${MESSAGE_MAX.toLocaleString("en")}; send less, or give the webhook a template that takes only the fields the agent needs.`,
    );
  }
  const fault = textProblem(made.message);
  if (fault) throw new BadHookBody("INVALID_TEXT", `This request's message ${fault}.`);
  return made;
}
