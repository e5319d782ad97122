// The tool host layer's public face: what the rest of server/ imports to reach a tree's host.
// Edit when a new piece of server/host/ is meant for use outside it. The CLI imports this too, so nothing here
// may reach the studio's database or secrets (a call with its settings and secrets is server/calls/'s).
export { hostFor, closeAll, type Host, type HostStatus } from "./supervisor";
export { installDeps, type DepsSummary, type DepsOptions } from "./deps";
export { HostError, MAX_TIMEOUT_S, type CallOptions, type StudioRequest } from "./client";
export type { HostOptions } from "./command";
export type { IoKind, IoRequest } from "./io-protocol";
export { resultText, type CallResult, type Catalog, type CatalogFile, type CatalogTool, type Content, type HookCall, type HookDecision, type Image, type Outcome, type Progress, type SecretCheck } from "./protocol";
