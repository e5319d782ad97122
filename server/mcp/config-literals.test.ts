// Which written-out values are taken for credentials (R-mcp-import-literals): a table of what mcp.json files hold,
// each refused or kept, so a change to the patterns shows what it lets through or starts refusing.
import { describe, expect, it } from "vitest";
import { literalCredentials } from "./config-literals";

const env = (name: string, value: string) => literalCredentials({ type: "stdio", command: "node", args: [], cwd: null, env: { [name]: value } }, "github");
const header = (name: string, value: string) => literalCredentials({ type: "http", url: "https://mcp.example.com/mcp", headers: { [name]: value } }, "github");
const args = (...list: string[]) => literalCredentials({ type: "stdio", command: "node", args: list, cwd: null, env: {} }, "github");
const url = (value: string) => literalCredentials({ type: "http", url: value, headers: {} }, "github");

describe("credentials written out", () => {
  it.each([
    ["GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_0123456789abcdefghijklmnopqrstuv"],
    ["OPENAI_API_KEY", "sk-proj-abcdefghijklmnopqrstuv"],
    ["SLACK_BOT_TOKEN", "xoxb-1234567890-abcdefghij"],
    ["DB_PASSWORD", "hunter2"],
    ["CLIENT_SECRET", "whatever"],
    ["API_KEY", "a1b2c3d4"],
    ["NOTION", "secret_but_named_plainly sk-ant-abcdefghijklmnopqrst"],
    ["AWS_ACCESS_KEY_ID", "AKIAABCDEFGHIJKLMNOP"],
  ])("refuses env %s", (name, value) => {
    const problems = env(name, value);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).not.toContain(value);
  });

  it.each([
    ["AUTH_MODE", "oauth"],
    ["KEY_FILE", "/etc/keys/server.pem"],
    ["TOKEN_URL", "https://auth.example.com/token"],
    ["USE_AUTH", "true"],
    ["MAX_TOKENS", "4096"],
    ["GITHUB_TOKEN", "${GITHUB_TOKEN}"],
    ["LOG_LEVEL", "debug"],
    ["HOST", "api.example.com"],
  ])("keeps env %s=%s", (name, value) => {
    expect(env(name, value)).toEqual([]);
  });

  it("refuses a scheme with a literal and keeps one with a reference, suggesting a name", () => {
    expect(header("Authorization", "Bearer abc")[0]!.message).toMatch(/write Bearer \$\{GITHUB_TOKEN\} here instead\.$/);
    expect(header("X-Api-Key", "abcdef123456")[0]!.message).toMatch(/write \$\{X_API_KEY\} here instead\.$/);
    expect(header("Authorization", "Bearer ${GITHUB_TOKEN}")).toEqual([]);
    expect(header("Accept", "application/json")).toEqual([]);
  });

  it("refuses a flag's literal value and a credential's shape in arguments", () => {
    expect(args("--token", "abc123").map((p) => p.path)).toEqual(["transport.args[1]"]);
    expect(args("--api-key=abc123").map((p) => p.path)).toEqual(["transport.args[0]"]);
    expect(args("serve", "ghp_0123456789abcdefghijklmnop").map((p) => p.path)).toEqual(["transport.args[1]"]);
    expect(args("--token", "${GITHUB_TOKEN}", "--auth-mode", "oauth", "--port", "8080")).toEqual([]);
  });

  it("refuses a URL with a password or a credential in its query", () => {
    expect(url("https://user:pass@mcp.example.com/mcp")).toHaveLength(1);
    expect(url("https://mcp.example.com/mcp?api_key=abc123")).toHaveLength(1);
    expect(url("https://mcp.example.com/mcp?api_key=${GITHUB_TOKEN}")).toEqual([]);
    expect(url("https://mcp.example.com/mcp?page=2")).toEqual([]);
  });
});
