// The conversation as the provider reads it (the AI SDK's LanguageModelV4Prompt): the instructions, with the
// planning line while write_todos is installed (R-loop-plan) and a client's system text after them; the messages;
// each call with arguments a provider accepts (an object, and a name that fits the pattern, even when the model's
// were damaged); each result, as an error when it was not ok, and with its images as image content. The current
// plan rides on the newest message of each request and stays where it was first sent, so the start of the
// conversation never changes.
import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import type { ModelTool } from "@/server/agents/model-view";
import type { Entry, ResultRecord, Run } from "./run";
import { showTodos } from "@/server/system/planning";
import { runProvider } from "./models";

export const PLANNING_LINE =
  "For any task of three or more steps, plan it with write_todos first, update the list in the same turn as the work, and when the work is done, just answer.";

/** Puts the current plan on the newest message, once, when the plan has steps. */
export function attachPlan(run: Run): void {
  const newest = run.transcript.at(-1);
  if (!run.planning || run.todos.length === 0 || !newest || newest.kind === "assistant" || newest.plan !== undefined) return;
  newest.plan = `Current plan (write_todos):\n${showTodos(run.todos)}`;
}

function output(result: ResultRecord, plan: string | undefined, inline: boolean): LanguageModelV4ToolResultOutput {
  const text = plan ? `${result.text}\n\n${plan}` : result.text;
  if (result.images.length > 0 && inline) {
    return {
      type: "content",
      value: [...(text ? [{ type: "text" as const, text }] : []), ...result.images.map((image) => ({ type: "file" as const, data: { type: "data" as const, data: image.data }, mediaType: image.mimeType }))],
    };
  }
  const shown = result.images.length > 0 ? `${text}${text ? "\n" : ""}[${result.images.length} image${result.images.length === 1 ? "" : "s"}, attached below]` : text;
  return result.outcome === "ok" ? { type: "text", value: shown } : { type: "error-text", value: shown };
}

function messages(entry: Entry, provider: string): LanguageModelV4Message[] {
  if (entry.kind === "user") {
    return [{ role: "user", content: [{ type: "text", text: entry.text }, ...(entry.plan ? [{ type: "text" as const, text: entry.plan }] : [])] }];
  }
  if (entry.kind === "assistant") {
    return [
      {
        role: "assistant",
        content: [
          ...(entry.text ? [{ type: "text" as const, text: entry.text }] : []),
          ...entry.calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.callId, toolName: c.name, input: c.input })),
        ],
      },
    ];
  }
  // Chat-completions servers take only text in a tool message, so their pictures follow in a user message.
  const inline = provider !== "openai-compatible";
  const last = entry.results.length - 1;
  const out: LanguageModelV4Message[] = [
    {
      role: "tool",
      content: entry.results.map((r, i) => ({ type: "tool-result" as const, toolCallId: r.callId, toolName: r.name, output: output(r, i === last ? entry.plan : undefined, inline) })),
    },
  ];
  const pictures = inline ? [] : entry.results.filter((r) => r.images.length > 0);
  if (pictures.length > 0) {
    out.push({
      role: "user",
      content: pictures.flatMap((r) => [
        { type: "text" as const, text: `The image${r.images.length === 1 ? "" : "s"} ${r.name} returned (call ${r.callId}):` },
        ...r.images.map((image) => ({ type: "file" as const, mediaType: image.mimeType, data: { type: "data" as const, data: image.data } })),
      ]),
    });
  }
  return out;
}

/** The agent's instructions first; a client's own system text only after them, so it can add but never replace. */
export function systemText(run: Run): string {
  return [run.declaration.instructions.trim(), run.planning ? PLANNING_LINE : "", run.clientSystem?.trim() ?? ""].filter(Boolean).join("\n\n");
}

export function toPrompt(run: Run): LanguageModelV4Prompt {
  const system = systemText(run);
  const provider = runProvider(run);
  return [...(system ? [{ role: "system" as const, content: system }] : []), ...run.transcript.flatMap((entry) => messages(entry, provider))];
}

/** The tools as the provider is given them: name, description and input schema, nothing else. */
export function providerTools(tools: ModelTool[]) {
  return tools.map((t) => ({ type: "function" as const, name: t.name, description: t.description, inputSchema: t.input_schema as Record<string, unknown> }));
}
