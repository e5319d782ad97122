// Calling an operation with its settings and secrets, for whoever calls (the runtime, Try it, a settings form's
// secret check): one pipeline (call.ts) over one CallTarget per kind of source (sources/). It sits above the host,
// the built-ins, the catalog and the secrets, and below the runtime and the routers. Edit when a new kind of
// source arrives (one file in sources/, exported here) or a caller needs something new of a call.
export { callOperation, SettingsUnavailable, type CallRequest } from "./call";
export { CallTimeout, timeoutText } from "./bound";
export { checkBinding, type Binding } from "./check";
export { Inbox } from "./inbox";
export { callSecrets, SegmentSecrets, type SecretScope, type Settled } from "./secrets";
export { agentTarget, type AskSpecialist } from "./sources/agent";
export { fromMcp, mcpTarget, type McpCallOptions } from "./sources/mcp";
export { systemTarget } from "./sources/system";
export { progressLine, treeTarget, type TreeCallOptions } from "./sources/tree";
export type { CallTarget, SourceCall } from "./target";
export { tryCall, tryTarget, type TryEvent, type TryRequest } from "./try-it";
export { tryMcpTool, type McpTryRequest } from "./try-mcp";
