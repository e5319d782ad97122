// Which problems each Monaco model shows as markers now, so an answer with the same problems sets nothing: every answer
// brings a new list, most often the same one (none), and setting it again would have Monaco redraw its decorations in
// the frame that paints the preview (R-preview-markers-same).
import type { Problem } from "./preview-state";

const signature = (problems: readonly Problem[]) => JSON.stringify(problems.map((p) => [p.line, p.message]));

export class ShownProblems {
  // Keyed by the model itself: a tab closed and opened again has a new model, without markers.
  private readonly byModel = new WeakMap<object, string>();

  /** Whether `problems` differ from what `model` shows; if so they count as shown from now on. */
  changed(model: object, problems: readonly Problem[]): boolean {
    const now = signature(problems);
    if (this.byModel.get(model) === now) return false;
    this.byModel.set(model, now);
    return true;
  }
}
