// The buffer-and-wake loop between a producer that pushes whenever it likes and one reader that awaits the next
// item: a run's event stream and Try it's progress lines both read through it. Edit when a reader needs a new
// way to stop.

/** Items taken in order by one reader that waits while there is nothing, until the signal aborts or it ends. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private readonly onAbort = () => this.wake?.();

  constructor(private readonly signal?: AbortSignal) {
    signal?.addEventListener("abort", this.onAbort);
  }

  readonly push = (item: T): void => {
    this.items.push(item);
    this.wake?.();
  };

  /** Nothing more will come: the reader takes what is left, then null, or `error` thrown when one is given. */
  end(error?: unknown): void {
    this.ended = true;
    if (error !== undefined) this.failure = { error };
    this.wake?.();
  }

  /** The next item; null once the signal has aborted, or once it ended and nothing is left. */
  async take(): Promise<T | null> {
    for (;;) {
      if (this.signal?.aborted) return null;
      if (this.items.length > 0) return this.items.shift()!;
      if (this.ended) {
        if (this.failure) throw this.failure.error;
        return null;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  close(): void {
    this.signal?.removeEventListener("abort", this.onAbort);
  }
}
