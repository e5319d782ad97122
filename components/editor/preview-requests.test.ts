import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PREVIEW_DEBOUNCE_MS, PreviewRequests } from "./preview-requests";

/** A send whose answers the test releases one by one, in any order. */
function controlledSend() {
  const sent: { path: string; source: string; signal: AbortSignal; answer: (entry: string) => void }[] = [];
  const send = (path: string, source: string, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      sent.push({ path, source, signal, answer: resolve });
    });
  return { sent, send };
}

function setUp() {
  const { sent, send } = controlledSend();
  const shown: string[] = [];
  const pending: boolean[] = [];
  const requests = new PreviewRequests<string>(send, (_path, entry) => shown.push(entry), (p) => pending.push(p));
  return { sent, shown, pending, requests };
}

describe("PreviewRequests", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("derives once a pause of the debounce comes, with the newest text, not for each key of a burst (R-preview-pause)", () => {
    const { sent, requests } = setUp();
    requests.changed("a.py", "d");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS - 1);
    requests.changed("a.py", "de");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS - 1);
    requests.changed("a.py", "def");
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    expect(sent.map((s) => s.source)).toEqual(["def"]);
  });

  it("cancels the request before it when the next pause derives again (R-preview-pause)", async () => {
    const { sent, shown, pending, requests } = setUp();
    requests.changed("a.py", "one");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    requests.changed("a.py", "two");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    expect(sent.map((s) => [s.source, s.signal.aborted])).toEqual([
      ["one", true],
      ["two", false],
    ]);
    sent[1]!.answer("derived two");
    await vi.runAllTimersAsync();
    expect(shown).toEqual(["derived two"]);
    // The cancelled request does not clear `pending` before the newer one answers.
    expect(pending).toEqual([true, true, false]);
  });

  it("drops an answer that comes back after a newer one (R-preview-latest)", async () => {
    const shown: string[] = [];
    // A send that ignores its signal, as a request already answered by the server does.
    const late: ((entry: string) => void)[] = [];
    const stubborn = new PreviewRequests<string>(
      () => new Promise<string>((resolve) => late.push(resolve)),
      (_path, entry) => shown.push(entry),
      () => undefined,
    );
    stubborn.changed("a.py", "one");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    stubborn.changed("a.py", "two");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    late[1]!("derived two");
    await vi.runAllTimersAsync();
    late[0]!("derived one");
    await vi.runAllTimersAsync();
    expect(shown).toEqual(["derived two"]);
  });

  it("derives nothing for a change stopped before its pause ends, and each file cancels only its own requests", async () => {
    const { sent, shown, requests } = setUp();
    requests.changed("a.py", "gone");
    requests.stop();
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS * 4);
    expect(sent).toHaveLength(0);

    requests.changed("a.py", "a1");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    requests.changed("b.py", "b1");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    expect(sent.map((s) => s.signal.aborted)).toEqual([false, false]);
    sent[0]!.answer("a");
    sent[1]!.answer("b");
    await vi.runAllTimersAsync();
    expect(shown).toEqual(["a", "b"]);
  });

  it("is no longer busy once the newest request fails (R-preview-latest)", async () => {
    const pending: boolean[] = [];
    const requests = new PreviewRequests<string>(() => Promise.reject(new Error("host stopped")), () => undefined, (p) => pending.push(p));
    requests.changed("a.py", "x");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    await vi.runAllTimersAsync();
    expect(pending).toEqual([true, false]);
  });

  it("cancels a forgotten file's request, so a renamed file's old answer never lands", () => {
    const { sent, requests } = setUp();
    requests.changed("old.py", "x");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    requests.forget("old.py");
    expect(sent[0]!.signal.aborted).toBe(true);
  });

  it("keeps the pause started by the key running when the render after it tells the same text again (R-preview-from-key)", () => {
    const { sent, requests } = setUp();
    requests.changed("a.py", "def");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS - 5);
    // React's render of the edit, with its effect, lands later than the key's change event.
    requests.changed("a.py", "def");
    vi.advanceTimersByTime(5);
    expect(sent.map((s) => s.source)).toEqual(["def"]);
    // Told again after it was sent, the same text sends nothing more; another file's text or a new text does.
    requests.changed("a.py", "def");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS * 2);
    requests.changed("b.py", "def");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    requests.changed("a.py", "def");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    expect(sent.map((s) => `${s.path} ${s.source}`)).toEqual(["a.py def", "b.py def", "a.py def"]);
  });

  it("derives the same text again once stopped, as an editor shown anew does (R-preview-from-key)", () => {
    const { sent, requests } = setUp();
    requests.changed("a.py", "def");
    requests.stop();
    requests.changed("a.py", "def");
    vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS);
    expect(sent.map((s) => s.source)).toEqual(["def"]);
  });
});
