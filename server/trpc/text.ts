// Text at the edge for the procedures: the checks live in server/input/text.ts, below both tRPC and the public API,
// so a route behind a key refuses the same text with the same sentence (R-input-text).
export * from "@/server/input/text";
