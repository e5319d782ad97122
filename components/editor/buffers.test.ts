import { describe, expect, it } from "vitest";
import { buffersReducer, drawsChange, isDirty, noBuffers, type BufferAction, type Buffers } from "./buffers";

const file = { source: "v1", hash: "h1" };

describe("the editor's buffers", () => {
  it("opens a file at its saved version", () => {
    const state = buffersReducer(noBuffers, { type: "opened", path: "a.py", file, draft: null });
    expect(state.byPath["a.py"]).toMatchObject({ source: "v1", base: file, restoredAt: null });
    expect(isDirty(state.byPath["a.py"]!)).toBe(false);
  });

  it("restores unsaved edits kept on the server", () => {
    const updatedAt = new Date();
    const state = buffersReducer(noBuffers, {
      type: "opened",
      path: "a.py",
      file,
      draft: { source: "v1 edited", baseHash: "h1", updatedAt },
    });
    expect(state.byPath["a.py"]).toMatchObject({ source: "v1 edited", base: file, restoredAt: updatedAt });
  });

  it("keeps a draft's older base, so saving it meets the newer file as a conflict instead of overwriting it", () => {
    const state = buffersReducer(noBuffers, {
      type: "opened",
      path: "a.py",
      file: { source: "v2 from a git pull", hash: "h2" },
      draft: { source: "my edit of v1", baseHash: "h1", updatedAt: new Date() },
    });
    expect(state.byPath["a.py"]!.base.hash).toBe("h1");
    expect(state.byPath["a.py"]!.source).toBe("my edit of v1");
  });

  it("moves the base forward on a save and clears a resolved conflict", () => {
    let state = buffersReducer(noBuffers, { type: "opened", path: "a.py", file, draft: null });
    state = buffersReducer(state, { type: "edited", path: "a.py", source: "v1!" });
    state = buffersReducer(state, { type: "conflict", path: "a.py", current: { source: "theirs", hash: "h9" } });
    expect(state.byPath["a.py"]!.conflict).toEqual({ source: "theirs", hash: "h9" });
    state = buffersReducer(state, { type: "saved", path: "a.py", version: { source: "v1!", hash: "h10" } });
    expect(state.byPath["a.py"]).toMatchObject({ conflict: null, base: { hash: "h10" } });
    expect(isDirty(state.byPath["a.py"]!)).toBe(false);
  });

  it("keeps tab order when a file is renamed", () => {
    let state = buffersReducer(noBuffers, { type: "opened", path: "a.py", file, draft: null });
    state = buffersReducer(state, { type: "opened", path: "b.py", file, draft: null });
    state = buffersReducer(state, { type: "renamed", from: "a.py", to: "c.py" });
    expect(state.order).toEqual(["c.py", "b.py"]);
    expect(state.byPath["c.py"]!.path).toBe("c.py");
  });

  describe("what a key draws (R-editor-key-quiet)", () => {
    const step = (state: Buffers, action: BufferAction) => {
      const after = buffersReducer(state, action);
      return { after, draws: drawsChange(state, after, action) };
    };
    const opened = buffersReducer(noBuffers, { type: "opened", path: "a.py", file, draft: null });

    it("draws the first key, which makes the file unsaved, and not the keys after it", () => {
      const first = step(opened, { type: "edited", path: "a.py", source: "v1a" });
      expect(first.draws).toBe(true);
      const second = step(first.after, { type: "edited", path: "a.py", source: "v1ab" });
      expect(second.draws).toBe(false);
      // The state moved on all the same: a save reads the newest text.
      expect(second.after.byPath["a.py"]!.source).toBe("v1ab");
    });

    it("draws the key that brings the text back to the saved version", () => {
      const edited = buffersReducer(opened, { type: "edited", path: "a.py", source: "v1a" });
      expect(step(edited, { type: "edited", path: "a.py", source: "v1" }).draws).toBe(true);
    });

    it("draws a key that clears a save's error", () => {
      let state = buffersReducer(opened, { type: "edited", path: "a.py", source: "v1a" });
      state = buffersReducer(state, { type: "saveFailed", path: "a.py", message: "disk full" });
      const key = step(state, { type: "edited", path: "a.py", source: "v1ab" });
      expect(key.draws).toBe(true);
      expect(key.after.byPath["a.py"]!.saveError).toBeNull();
    });

    it("draws every change of a text a conflict's merge view shows", () => {
      let state = buffersReducer(opened, { type: "edited", path: "a.py", source: "v1a" });
      state = buffersReducer(state, { type: "conflict", path: "a.py", current: { source: "theirs", hash: "h9" } });
      expect(step(state, { type: "edited", path: "a.py", source: "v1ab" }).draws).toBe(true);
    });

    it("draws every other action, and a key for a file that is not open changes nothing", () => {
      const edited = buffersReducer(opened, { type: "edited", path: "a.py", source: "v1a" });
      expect(step(edited, { type: "saving", path: "a.py" }).draws).toBe(true);
      expect(step(edited, { type: "closed", path: "a.py" }).draws).toBe(true);
      const stray = step(edited, { type: "edited", path: "gone.py", source: "x" });
      expect(stray.draws).toBe(false);
      expect(stray.after).toBe(edited);
    });
  });
});
