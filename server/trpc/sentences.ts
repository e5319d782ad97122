// Refused input as sentences for the procedures: the wording lives in server/input/sentences.ts, shared with the
// public API's routes (R-input-sentence).
export * from "@/server/input/sentences";
