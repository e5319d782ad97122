// What "New agent" creates: a free name and a model that is valid without a key (an OpenAI-compatible server
// on this machine, as Ollama serves it), so the agent exists at once and the builder changes what they need.

/** "New agent", or "New agent 2", "New agent 3"…: the first name no agent has (case aside). */
export function freeAgentName(taken: Iterable<string>, base = "New agent"): string {
  const names = new Set([...taken].map((name) => name.toLowerCase()));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!names.has(name.toLowerCase())) return name;
  }
}

export function newAgentDeclaration(name: string) {
  return {
    name,
    description: "",
    instructions: "",
    model: { provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1" },
    tools: [],
  };
}
