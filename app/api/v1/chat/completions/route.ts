// OpenAI's Chat Completions API over the studio's agents, behind an API key. No logic here: server/api/chat.ts.
import { chatCompletions } from "@/server/api/chat";

export const POST = chatCompletions();
