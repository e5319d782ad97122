// A schedule's times as the builder sees them while typing (R-trigger-schedule-cron): the next five ticks of a cron
// expression in its time zone, and each fault as a sentence at the cron or time zone field.
import { describe, expect, it } from "vitest";
import { nextTick, scheduleTimeProblems, tickLabel, ticksBetween } from "./cron";
import { preview } from "./schedules";

const FROM = new Date("2026-03-27T12:00:00Z");

describe("the next five times of a schedule", () => {
  it("reads the expression in its time zone, across a change to summer time", () => {
    const { times, problems } = preview("0 9 * * 1-5", "Europe/Paris", FROM);
    expect(problems).toEqual([]);
    // Paris moves to summer time on Sunday 29 March 2026: 9:00 is 08:00 UTC before, 07:00 UTC after.
    expect(times.map((t) => t.at.toISOString())).toEqual([
      "2026-03-30T07:00:00.000Z",
      "2026-03-31T07:00:00.000Z",
      "2026-04-01T07:00:00.000Z",
      "2026-04-02T07:00:00.000Z",
      "2026-04-03T07:00:00.000Z",
    ]);
    expect(times[0]!.label).toBe("Mon 30 Mar 2026, 09:00");
  });

  it("gives the same instants different labels in different zones", () => {
    const [first] = preview("30 14 * * *", "America/New_York", FROM).times;
    expect(first!.at.toISOString()).toBe("2026-03-27T18:30:00.000Z");
    expect(tickLabel(first!.at, "America/New_York")).toBe("Fri 27 Mar 2026, 14:30");
    expect(tickLabel(first!.at, "UTC")).toBe("Fri 27 Mar 2026, 18:30");
  });

  it("takes a nickname such as @daily", () => {
    expect(preview("@daily", "UTC", FROM).times[0]!.at.toISOString()).toBe("2026-03-28T00:00:00.000Z");
  });

  it("counts the ticks between two instants, for a catch-up after a stop", () => {
    expect(ticksBetween("*/15 * * * *", "UTC", new Date("2026-03-27T11:59:59Z"), new Date("2026-03-27T13:00:00Z"))).toBe(5);
    expect(nextTick("*/15 * * * *", "UTC", new Date("2026-03-27T12:00:00Z"))!.toISOString()).toBe("2026-03-27T12:15:00.000Z");
  });
});

describe("a cron expression or time zone that will not do", () => {
  const at = (cron: string, zone = "UTC") => scheduleTimeProblems(cron, zone, FROM);

  it("names the field croner refuses", () => {
    expect(at("61 * * * *")).toEqual([{ path: "cron", message: expect.stringMatching(/^The minute field “61” is not one cron reads;/) }]);
    expect(at("0 9 * * funday")).toEqual([{ path: "cron", message: expect.stringMatching(/^The day of the week field “funday”/) }]);
  });

  it("says how many fields there are, and that there is no seconds field", () => {
    expect(at("* * * * * *")[0]!.message).toMatch(/has five fields, minute hour day month weekday; this one has 6 \(a schedule runs at most once a minute/);
    expect(at("")[0]!.message).toMatch(/^Write a cron expression/);
    expect(at("@fortnightly")[0]!.message).toMatch(/^“@fortnightly” is no cron nickname/);
  });

  it("refuses a day that never comes", () => {
    expect(at("0 0 31 2 *")).toEqual([{ path: "cron", message: expect.stringMatching(/never comes/) }]);
  });

  it("refuses an unknown time zone at its own field, beside a cron fault", () => {
    expect(at("61 * * * *", "Mars/Olympus")).toEqual([
      { path: "cron", message: expect.any(String) },
      { path: "timeZone", message: "“Mars/Olympus” is not a time zone the studio knows; write one like Europe/Paris, America/New_York or UTC." },
    ]);
    expect(preview("0 9 * * *", "", FROM)).toEqual({ times: [], problems: [{ path: "timeZone", message: expect.stringMatching(/^Pick the time zone/) }] });
  });
});
