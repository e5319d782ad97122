// What the trace tests share: a small OTLP/HTTP receiver on 127.0.0.1 that keeps every JSON export it is sent (the
// exporter's own encoding, read back as the OTLP JSON mapping says), the spans decoded from them, and a scratch studio
// whose tools make one ordinary call, one that echoes a secret setting, one that fails and one that calls a built-in
// through ctx.system. The environment is set before anything of the studio is imported, since the configuration is
// read once per process.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Studio } from "@/tests/integration/runtime/setup";

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[]; status?: { code?: number } };
type Export = { resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };

export type Span = {
  traceId: string;
  spanId: string;
  parent: string | null;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: number;
  resource: Record<string, string | number | boolean>;
};

export type Receiver = { url: string; bodies: string[]; spans(): Span[]; close(): Promise<void> };

function valueOf(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return v.boolValue ?? "";
}

const record = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]));

export async function startReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    spans: () =>
      bodies.flatMap((body) =>
        (JSON.parse(body) as Export).resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              parent: s.parentSpanId || null,
              name: s.name,
              kind: s.kind,
              attributes: record(s.attributes),
              status: s.status?.code ?? 0,
              resource: record(rs.resource.attributes),
            })),
          ),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const TOKEN = "svc_live_otel_5e4d3c2b1a";

const BOX = `"""Small tools the trace tests call."""

from quiver import Context, tool


@tool
def echo(words: str) -> str:
    """Say the words back.

    Args:
        words: What to say.
    """
    return words


@tool
def crash(reason: str) -> str:
    """Fail with a ValueError.

    Args:
        reason: The message.
    """
    raise ValueError(reason)


@tool(risk="write")
def remember(key: str, value: str, ctx: Context) -> str:
    """Remember a fact through the studio's memory.

    Args:
        key: The fact's key.
        value: Its value.
    """
    return ctx.system.memory.memory_set(key=key, value=value)
`;

const SERVICE = `"""A service whose tool leaks its token on purpose."""

import base64

from quiver import Context, Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret


def whoami(ctx: Context, settings: Settings) -> str:
    """Say who the service thinks we are."""
    return "token=" + settings.token + " b64=" + base64.b64encode(settings.token.encode()).decode()
`;

/**
 * The environment of a traced studio, then the studio: an agent with the tools (one of which calls memory_set through
 * ctx.system) and the SERVICE_TOKEN secret.
 * `env` is applied before the studio's modules load.
 */
export async function tracedStudio(name: string, env: Record<string, string>): Promise<{ s: Studio; agent: string; flush: () => Promise<void> }> {
  Object.assign(process.env, env);
  const { studio } = await import("@/tests/integration/runtime/setup");
  const { createSecret } = await import("@/server/secrets/store");
  const { flushTraces } = await import("@/server/telemetry");
  const s = await studio(name, { "box.py": BOX, "service.py": SERVICE });
  await createSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  const agent = await s.agent({ tools: [{ entry: "tools/box.py" }, { entry: "tools/service.py", settings: { token: "${SERVICE_TOKEN}" } }, { entry: "system:memory#memory_set" }] });
  return { s, agent, flush: flushTraces };
}
