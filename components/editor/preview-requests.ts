// The live preview's requests, apart from React so a test can drive them with a fake clock: a derivation once
// typing pauses, the request before it for the same file cancelled, and only the newest answer applied
// (R-preview-pause, R-preview-latest).
import { LatestOnly } from "./latest-only";

/**
 * The pause that counts as "typing stopped". Derivation takes a few milliseconds, so the wait is what a person feels:
 * it is kept just long enough that a burst of keys sends one request, and the keystroke-to-paint total stays ≤ 80 ms.
 */
export const PREVIEW_DEBOUNCE_MS = 25;

export type PreviewSend<T> = (path: string, source: string, signal: AbortSignal) => Promise<T>;

type FileRequests = { latest: LatestOnly; inFlight?: AbortController };

type Change = { path: string; source: string };

export class PreviewRequests<T> {
  private readonly files = new Map<string, FileRequests>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last text the pause was started for: the same text told again (by the render after the key) is no change. */
  private last: Change | undefined;

  constructor(
    private readonly send: PreviewSend<T>,
    private readonly onAnswer: (path: string, entry: T) => void,
    private readonly onPending: (pending: boolean) => void,
    private readonly pauseMs = PREVIEW_DEBOUNCE_MS,
  ) {}

  /**
   * The shown buffer is now `source`: derive it once no further change comes for the pause. The editor tells it from
   * the key's own change event and again once React has rendered the edit; only the first starts the pause, so the
   * pause runs from the key, not from the render (R-preview-from-key).
   */
  changed(path: string, source: string): void {
    if (this.last?.path === path && this.last.source === source) return;
    this.stop();
    this.last = { path, source };
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.derive(path, source);
    }, this.pauseMs);
  }

  /** A change superseded by another (or an editor going away) derives nothing. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.last = undefined;
  }

  /** A renamed or deleted file's requests are no one's any more. */
  forget(path: string): void {
    this.files.get(path)?.inFlight?.abort();
    this.files.delete(path);
  }

  private derive(path: string, source: string): void {
    let file = this.files.get(path);
    if (!file) this.files.set(path, (file = { latest: new LatestOnly() }));
    const { latest } = file;
    // The older request's answer could never be shown: stop waiting for it, and let the server stop sending it.
    file.inFlight?.abort();
    const controller = (file.inFlight = new AbortController());
    const seq = latest.next();
    this.onPending(true);
    this.send(path, source, controller.signal).then(
      (entry) => {
        // An answer can still overtake an older one on the way back (the abort came too late): only the newer counts.
        if (latest.accept(seq)) this.onAnswer(path, entry);
        this.onPending(latest.pending);
      },
      () => {
        // A cancelled request is superseded, not failed: the newer one settles `pending`. A failed one is the newest
        // word on its text, so older answers still on the way are dropped behind it and the preview is no longer busy.
        if (controller.signal.aborted) return;
        latest.accept(seq);
        this.onPending(latest.pending);
      },
    );
  }
}
