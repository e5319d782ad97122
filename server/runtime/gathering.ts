// Statements of one kind that many runs make at the same moment, made as one (R-ops-db-gathered): a hundred runs starting
// together wrote a hundred rows and queued a hundred jobs one statement each, and on the embedded database each
// statement's planning cost more than its rows (one job sent: about 3 ms of CPU; a hundred in one insert: about 0.2 ms
// each). Edit when what is gathered, or how long an item may wait to be, changes.

/**
 * Items given in one turn of the event loop, handed on together once the loop has polled its I/O (setImmediate),
 * each giver answered from the one outcome. A lone item waits for no timer, only for that turn. When a gathering of
 * several fails, each item is handed on alone, so one bad item fails only its own giver.
 */
export class Gathering<Item, Answer> {
  private items: { item: Item; resolve(answer: Answer): void; reject(err: Error): void }[] = [];

  /** `hand` makes the one statement, and says what each item's answer is. */
  constructor(private readonly hand: (items: Item[]) => Promise<(item: Item) => Answer>) {}

  give(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      if (this.items.length === 0) setImmediate(() => void this.handOn());
      this.items.push({ item, resolve, reject });
    });
  }

  private async handOn(): Promise<void> {
    const taken = this.items;
    this.items = [];
    try {
      const answerOf = await this.hand(taken.map((t) => t.item));
      for (const t of taken) t.resolve(answerOf(t.item));
    } catch (err) {
      if (taken.length === 1) return taken[0]!.reject(err as Error);
      await Promise.all(
        taken.map(async (t) => {
          try {
            t.resolve((await this.hand([t.item]))(t.item));
          } catch (alone) {
            t.reject(alone as Error);
          }
        }),
      );
    }
  }
}

/** One gathering per key (a database), made on its first use and gone with the key. */
export function gatheringPer<Key extends object, Item, Answer>(
  hand: (key: Key) => (items: Item[]) => Promise<(item: Item) => Answer>,
): (key: Key) => Gathering<Item, Answer> {
  const made = new WeakMap<Key, Gathering<Item, Answer>>();
  return (key) => {
    let gathering = made.get(key);
    if (!gathering) made.set(key, (gathering = new Gathering(hand(key))));
    return gathering;
  };
}
