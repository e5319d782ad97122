import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { modelFailure } from "./open";

const KEY = "sk-loopback-0123456789abcdef";
const refused = (body: string) =>
  new APICallError({ message: "Unauthorized", url: "http://127.0.0.1:9/v1/chat/completions", requestBodyValues: {}, statusCode: 401, responseBody: body });

describe("a provider's failure in a sentence", () => {
  it("R-conn-key-masked: a key the server echoes in its error is not repeated in the sentence", () => {
    const spec = { provider: "openai-compatible" as const, model: "m", base_url: "http://127.0.0.1:9/v1", api_key: "${LOOPBACK_KEY}" };
    const sentence = modelFailure(refused(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } })), spec, KEY);
    expect(sentence).not.toContain(KEY);
    expect(sentence).toContain("Incorrect API key provided: [the key]");
    expect(sentence).toContain("${LOOPBACK_KEY}");
  });

  it("R-conn-key-masked: without a key the provider's words are kept as they are", () => {
    const spec = { provider: "openai-compatible" as const, model: "m", base_url: "http://127.0.0.1:9/v1" };
    expect(modelFailure(refused(JSON.stringify({ error: "no key given" })), spec)).toContain("no key given");
  });
});
