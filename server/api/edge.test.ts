// How a key route finds its path parameters in the request's URL (R-api-runs-envelope: a route is checked by the
// spec it is documented by): by the spec's `{name}` segments, decoded, and only for a URL of that shape.
import { describe, expect, it } from "vitest";
import { pathParams } from "./edge";

describe("pathParams", () => {
  it("takes each {name} segment of the spec's path from the URL, decoded", () => {
    expect(pathParams("/api/v1/runs/{id}/events", "/api/v1/runs/0f8f/events")).toEqual({ id: "0f8f" });
    expect(pathParams("/api/v1/agents/{id}/runs", "/api/v1/agents/a%20b/runs/")).toEqual({ id: "a b" });
    expect(pathParams("/api/v1/runs/{id}", "/api/v1/runs/%E0%A4%A")).toEqual({ id: "%E0%A4%A" });
  });

  it("answers null for a URL of another shape, so a route never reads another route's segments", () => {
    expect(pathParams("/api/v1/runs/{id}", "/api/v1/runs/1/events")).toBeNull();
    expect(pathParams("/api/v1/runs/{id}/events", "/api/v1/runs/1/messages")).toBeNull();
    expect(pathParams("/api/v1/openapi.json", "/api/v1/openapi.json")).toEqual({});
  });
});
