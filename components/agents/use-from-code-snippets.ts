// What "Use from code" gives a program's author for one agent: its addresses, a chat completion in curl, TypeScript
// and Python (the openai packages), and the MCP configuration of three clients. Plain text built from the studio's
// address and the agent's saved name; the key is always KEY_PLACEHOLDER, never a value (R-use-from-code-key). The
// snippets are run as written by tests/integration/api/use-from-code.test.ts; edit them there and here together.

/** What the reader puts their key in place of, in every snippet and configuration. */
export const KEY_PLACEHOLDER = "<YOUR_API_KEY>";

export type CodeAgent = { id: string; name: string };

export type Endpoints = {
  /** What an OpenAI client takes as its base URL. */
  openaiBase: string;
  chatCompletions: string;
  startRun: string;
  mcp: string;
  reference: string;
};

/** The studio's address without a trailing slash: the configured one, else the page's own. */
export function baseOf(configured: string | null, pageOrigin: string): string {
  return (configured ?? pageOrigin).replace(/\/+$/, "");
}

export function endpointsOf(base: string, agent: CodeAgent): Endpoints {
  return {
    openaiBase: `${base}/api/v1`,
    chatCompletions: `${base}/api/v1/chat/completions`,
    startRun: `${base}/api/v1/agents/${agent.id}/runs`,
    mcp: `${base}/api/mcp/agents/${agent.id}`,
    reference: `${base}/api-docs`,
  };
}

/** A text in single quotes for a POSIX shell: nothing inside is expanded, and a quote of its own is closed, escaped, reopened. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A string literal TypeScript, Python and JSON all read the same: JSON's. */
const literal = (text: string) => JSON.stringify(text);

const QUESTION = "What can you do?";

export type Snippets = { curl: string; typescript: string; python: string };

/** A streamed chat completion with this agent as the model. */
export function snippetsOf(base: string, agent: CodeAgent): Snippets {
  const at = endpointsOf(base, agent);
  // The body over a few lines, as a person would write it; a shell's single quotes span them.
  const body = [
    `{`,
    `    "model": ${literal(agent.name)},`,
    `    "stream": true,`,
    `    "messages": [{"role": "user", "content": ${literal(QUESTION)}}]`,
    `  }`,
  ].join("\n");
  const curl = [
    `curl -sS -N ${shellQuoted(at.chatCompletions)} \\`,
    `  -H ${shellQuoted(`Authorization: Bearer ${KEY_PLACEHOLDER}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuoted(body)}`,
  ].join("\n");
  const typescript = [
    `import OpenAI from "openai";`,
    ``,
    `const client = new OpenAI({ baseURL: ${literal(at.openaiBase)}, apiKey: ${literal(KEY_PLACEHOLDER)} });`,
    ``,
    `const stream = await client.chat.completions.create({`,
    `  model: ${literal(agent.name)},`,
    `  stream: true,`,
    `  messages: [{ role: "user", content: ${literal(QUESTION)} }],`,
    `});`,
    `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`,
  ].join("\n");
  const python = [
    `from openai import OpenAI`,
    ``,
    `client = OpenAI(base_url=${literal(at.openaiBase)}, api_key=${literal(KEY_PLACEHOLDER)})`,
    ``,
    `stream = client.chat.completions.create(`,
    `    model=${literal(agent.name)},`,
    `    stream=True,`,
    `    messages=[{"role": "user", "content": ${literal(QUESTION)}}],`,
    `)`,
    `for chunk in stream:`,
    `    if chunk.choices:`,
    `        print(chunk.choices[0].delta.content or "", end="", flush=True)`,
    `print()`,
  ].join("\n");
  return { curl, typescript, python };
}

/** "Triage (inbox)" → "quiver-triage-inbox": the server's name in a client's list. */
export function serverNameOf(agentName: string): string {
  const slug = agentName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 50).replace(/-+$/, "");
  return `quiver-${slug || "agent"}`;
}

export type McpClient = { id: "claude" | "cursor" | "vscode"; label: string; file: string; note: string; config: string };

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Each client's own shape for a Streamable HTTP server behind `Authorization: Bearer`. */
export function mcpConfigsOf(base: string, agent: CodeAgent): McpClient[] {
  const url = endpointsOf(base, agent).mcp;
  const name = serverNameOf(agent.name);
  const bearer = `Bearer ${KEY_PLACEHOLDER}`;
  // mcp-remote refuses a plain-http address unless told the network is trusted.
  const plainHttp = url.startsWith("http://") ? ["--allow-http"] : [];
  return [
    {
      id: "claude",
      label: "Claude Desktop",
      file: "claude_desktop_config.json",
      note:
        "Claude Desktop starts only local servers from this file, so mcp-remote (run by npx; Node 18 or later) carries its requests to the studio. The header's value sits in env because a space inside args does not survive.",
      config: json({
        mcpServers: { [name]: { command: "npx", args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}", ...plainHttp], env: { AUTH_HEADER: bearer } } },
      }),
    },
    {
      id: "cursor",
      label: "Cursor",
      file: ".cursor/mcp.json",
      note: "In the project, or in ~/.cursor/mcp.json for every project. Cursor reaches the studio itself over Streamable HTTP, sending the header with every request.",
      config: json({ mcpServers: { [name]: { url, headers: { Authorization: bearer } } } }),
    },
    {
      id: "vscode",
      label: "VS Code",
      file: ".vscode/mcp.json",
      note: "In the workspace. VS Code asks for the key the first time it starts the server and keeps it in its own secret storage, so the file holds no key.",
      config: json({
        inputs: [{ type: "promptString", id: "quiver-key", description: "A Quiver API key that may run this agent", password: true }],
        servers: { [name]: { type: "http", url, headers: { Authorization: "Bearer ${input:quiver-key}" } } },
      }),
    },
  ];
}
