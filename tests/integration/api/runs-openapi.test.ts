// The public API's OpenAPI document (R-api-runs-openapi): served without a key, valid OpenAPI 3.1 (by the
// OpenAPI specification's own JSON schema, and by its own structure), listing every route file under
// app/api/v1 with each method it exports, its key scope and the error envelope, and agreeing with the schemas the
// edge checks requests with.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiStudio, call, routeFiles, type ApiStudio } from "./runs-studio";

type Operation = {
  operationId: string;
  description: string;
  security: Record<string, string[]>[];
  "x-quiver-scopes"?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme: string }> };
};

let s: ApiStudio;
let doc: Document;

beforeAll(async () => {
  s = await apiStudio("api-runs-openapi");
  const answer = await call<Document>(`${s.url}/api/v1/openapi.json`);
  expect(answer.status).toBe(200);
  doc = answer.json!;
});
afterAll(async () => s?.close());

const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe("the document", () => {
  it("is served without a key as OpenAPI 3.1, naming the studio's address and the bearer scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Quiver API", version: "1" });
    expect(doc.servers).toEqual([{ url: s.url }]);
    expect(doc.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: "http", scheme: "bearer" }) });
  });

  it("validates against the OpenAPI 3.1 specification's schema", async () => {
    const validator = new Validator();
    const checked = await validator.validate(structuredClone(doc) as Parameters<Validator["validate"]>[0]);
    expect(checked.errors ?? []).toEqual([]);
    expect(checked.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("holds together: every $ref resolves, every path parameter is declared, operation ids are unique, every schema compiles as JSON Schema 2020-12", () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice('"$ref":"#/'.length, -1).split("/");
      const found = target.reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc);
      expect(found, ref).toBeDefined();
    }
    for (const { path, op } of operations()) {
      const named = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => [p.name, p.required])).toEqual(named.map((n) => [n, true]));
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      for (const response of Object.values(op.responses)) expect(response.description).toBeTruthy();
    }
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect(() => ajv.compile(schema as object), name).not.toThrow();
  });
});

describe("the routes", () => {
  it("lists every route file under app/api/v1 with each method it exports", async () => {
    const files = await routeFiles();
    expect(files.map((f) => f.pattern)).toEqual(expect.arrayContaining(["/api/v1/agents/{id}/runs", "/api/v1/runs/{id}/events", "/api/v1/openapi.json"]));
    const listed = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const served = files.flatMap((f) => f.methods.map((m) => `${m} ${f.pattern}`));
    expect(served.filter((route) => !listed.has(route))).toEqual([]);
    expect([...listed].filter((route) => !served.includes(route))).toEqual([]);
  });

  it("names each route's key scope and answers every refusal in the error envelope; only the document itself needs no key", () => {
    for (const { path, method, op } of operations()) {
      if (path === "/api/v1/openapi.json") {
        expect(op.security).toEqual([]);
        continue;
      }
      expect(op.security, `${method} ${path}`).toEqual([{ apiKey: [] }]);
      const scopes = op["x-quiver-scopes"]!;
      expect(scopes.length).toBeGreaterThan(0);
      for (const scope of scopes) expect(["run", "read", "decide"]).toContain(scope);
      expect(op.description).toContain(`Key scope: \`${scopes[0]}\``);
      for (const status of ["401", "403", "429", "500"]) {
        expect(op.responses[status]?.content?.["application/json"]?.schema, `${method} ${path} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
    expect(doc.paths["/api/v1/runs/{id}/decisions"]!.post!["x-quiver-scopes"]).toEqual(["decide"]);
    expect(doc.paths["/api/v1/agents/{id}/runs"]!.post!["x-quiver-scopes"]).toEqual(["run"]);
    expect(doc.paths["/api/v1/runs/{id}/events"]!.get!["x-quiver-scopes"]).toEqual(["read"]);
    expect(doc.paths["/api/v1/runs/{id}/events"]!.get!.description).toContain("Key scope: `read`.");
  });

  it("describes the bodies the edge takes: each route's example passes both its zod schema and the document's schema", async () => {
    const { API_ROUTES } = await import("@/server/api/openapi-routes");
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const withBody = API_ROUTES.filter((route) => route.body && route.example?.body !== undefined);
    expect(withBody.length).toBeGreaterThanOrEqual(4);
    for (const route of withBody) {
      expect(route.body!.safeParse(route.example!.body).success, route.operationId).toBe(true);
      const documented = doc.paths[route.path]![route.method]!.requestBody!.content["application/json"]!.schema as object;
      const validate = ajv.compile(documented);
      expect(validate(route.example!.body), `${route.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
      // A field the edge refuses, the document refuses too (and one it takes, the document takes).
      const extra = { ...(route.example!.body as object), unexpected: 1 };
      expect(validate(extra), route.operationId).toBe(route.body!.safeParse(extra).success);
    }
    const decision = doc.components.schemas.DecisionRequest as { properties: { decision: { enum: string[] }; note: { type: string } } };
    expect(decision.properties.decision.enum).toEqual(["approve_once", "approve_always_in_run", "deny"]);
    expect(decision.properties.note.type).toBe("string");
  });

  it("R-tool-io-cards: a waiting approval and question say their kind, so a client knows a tool's own request from a call's", () => {
    const kinds = (name: string) => (doc.components.schemas[name] as { properties: { kind: { enum: string[] } }; required: string[] });
    expect(kinds("WaitingApproval").properties.kind.enum).toEqual(["call", "plan", "shell", "write"]);
    expect(kinds("WaitingQuestion").properties.kind.enum).toEqual(["call", "ask"]);
    expect(kinds("WaitingApproval").required).toEqual(expect.arrayContaining(["kind", "parent"]));
  });
});
