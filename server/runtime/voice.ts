// The voice lines around a call (R-loop-voice), as progress events: ANNOUNCE once before it, HEARTBEAT while it runs
// (the first line at about 9 s, then about every 21 s, the last line repeating once the list runs out), COMPLETE
// after an ok result and FAIL after an actual failure; a refusal says neither. An interactive call has no
// heartbeats, and a wait for approval comes before the call starts, so it never draws one.
import type { Voice } from "./catalog";
import type { Outcome } from "./shapes";

export type VoiceTiming = { firstMs: number; everyMs: number };

export const VOICE_TIMING: VoiceTiming = { firstMs: 9_000, everyMs: 21_000 };

type Say = (kind: "announce" | "heartbeat" | "complete" | "fail", message: string) => void;

/** Says ANNOUNCE now and schedules the heartbeats; `end` stops them and says COMPLETE or FAIL. */
export function speak(voice: Voice | null, options: { interactive: boolean; timing: VoiceTiming; say: Say }): { end(outcome: Outcome): void } {
  if (!voice) return { end: () => {} };
  const { say, timing } = options;
  if (voice.announce) say("announce", voice.announce);
  let timer: NodeJS.Timeout | null = null;
  let beat = 0;
  const next = (delay: number) => {
    timer = setTimeout(() => {
      const line = voice.heartbeat[Math.min(beat++, voice.heartbeat.length - 1)]!;
      say("heartbeat", line);
      next(timing.everyMs);
    }, delay);
    timer.unref?.();
  };
  if (!options.interactive && voice.heartbeat.length > 0) next(timing.firstMs);
  return {
    end(outcome) {
      if (timer) clearTimeout(timer);
      timer = null;
      if (outcome === "ok" && voice.complete) say("complete", voice.complete);
      else if ((outcome === "failed" || outcome === "timeout" || outcome === "transient") && voice.fail) say("fail", voice.fail);
    },
  };
}
