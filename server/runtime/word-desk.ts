// Where the person's word on a run goes (R-queue-word): checked against the run as its holder sees it, written,
// then acted on here when this process drives the run, else by its holder once told over the bus, or at its next
// lease refresh when the notice is lost. Nothing waits for the holder to answer.
import type { Db } from "@/db/client";
import type { RunBus } from "./bus";
import type { EventLog } from "./events";
import type { Run } from "./run";
import type { WaitAnswer } from "./run";
import { applyWord, checkWaiting, decisionOf, kindOf, wordsAfter, writeWord, type Word } from "./words";

/** What the waiting call would be told of the word (used to refuse it in the run's own words when nothing waits). */
function answerOf(word: Exclude<Word, { kind: "cancel" }>): WaitAnswer {
  if (word.kind === "decide") return decisionOf(word);
  if (word.kind === "answer") return { answer: word.answer, by: word.by };
  return { action: word.action, by: word.by };
}

/** A run this process holds: its Run once built, and the newest word on it applied here. */
export type Holding = { run: Run | null; lastWord: number };

export class WordDesk {
  /** Runs not held here when a word on them was written or announced: taking one reads its words. */
  private readonly heard = new Set<string>();

  constructor(private readonly c: { db: Db; log: EventLog; bus: RunBus | null; takes: boolean; held(runId: string): Holding | undefined }) {}

  /** The person's word on the run, written before anything acts on it. */
  async say(runId: string, word: Word): Promise<void> {
    const held = this.c.held(runId);
    const here = held?.run;
    if (held && here && !here.abandoned) {
      if (word.kind !== "cancel" && !here.awaits(word.callId, kindOf(word))) here.settle(word.callId, kindOf(word), answerOf(word));
      if (word.kind === "recover") word.round = here.recoveryRounds.get(word.callId) ?? 0;
      const id = await writeWord(this.c.db, runId, word);
      held.lastWord = Math.max(held.lastWord, id);
      applyWord(here, word);
      return;
    }
    if (word.kind !== "cancel") {
      const round = await checkWaiting(this.c.db, this.c.log, runId, word);
      if (word.kind === "recover") word.round = round;
    }
    await writeWord(this.c.db, runId, word);
    await this.c.bus?.word(runId);
    // The run may have been taken here meanwhile, after its words were read.
    void this.apply([runId]);
  }

  /** The words written on these runs since this process last looked, applied to those it drives. */
  async apply(runIds: string[]): Promise<void> {
    for (const id of runIds) {
      if (this.c.held(id)?.run || !this.c.takes) continue;
      this.heard.add(id);
      // Only the last few matter: a run is taken a moment after its word, or by another process.
      if (this.heard.size > 1_000) this.heard.delete(this.heard.values().next().value!);
    }
    const held = runIds.filter((id) => this.c.held(id)?.run);
    if (held.length === 0) return;
    const words = await wordsAfter(this.c.db, held, (id) => this.c.held(id)?.lastWord ?? 0).catch(() => []);
    for (const { id, runId, word } of words) {
      const h = this.c.held(runId);
      if (!h?.run || id <= h.lastWord) continue;
      h.lastWord = id;
      applyWord(h.run, word);
    }
  }

  /** Whether a word on the run was heard of while this process did not hold it; asked once, as it takes the run. */
  heardOf(runId: string): boolean {
    return this.heard.delete(runId);
  }
}
