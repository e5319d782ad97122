import { describe, expect, it } from "vitest";
import { serverTiming, startTiming, timed } from "./server-timing";

describe("Server-Timing of a timed request (R-preview-server-timing)", () => {
  it("names each part with its duration, then the whole handler", async () => {
    const headers = new Headers();
    startTiming(headers);
    await timed(headers, "session", () => new Promise((resolve) => setTimeout(resolve, 5)));
    await timed(headers, "derive", async () => "derived");
    const value = serverTiming(headers)!;
    expect(value).toMatch(/^session;dur=\d+\.\d{2}, derive;dur=\d+\.\d{2}, handler;dur=\d+\.\d{2}$/);
    const [session, , handler] = value.split(", ").map((part) => Number(part.split("=")[1]));
    expect(session).toBeGreaterThanOrEqual(4);
    expect(handler).toBeGreaterThanOrEqual(session!);
  });

  it("records a part that failed too, and passes its error on", async () => {
    const headers = new Headers();
    startTiming(headers);
    await expect(timed(headers, "derive", () => Promise.reject(new Error("host stopped")))).rejects.toThrow("host stopped");
    expect(serverTiming(headers)).toMatch(/^derive;dur=/);
  });

  it("says nothing for a request nobody started timing, and still runs its work", async () => {
    const headers = new Headers();
    await expect(timed(headers, "derive", async () => 42)).resolves.toBe(42);
    expect(serverTiming(headers)).toBeNull();
  });
});
