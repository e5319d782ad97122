// The decisions a running tool asks through ctx.io, folded into the trace: each one a card of its own inside its
// tool's card, listed among the tool's children (R-tool-io-cards); one still open when the tool's call ends was never
// answered, and stops waiting with it. Pure and generic over trace.ts's shapes, which call it.
type Node = { state: string; children: string[]; io?: unknown };
type Calls<C> = { calls: Readonly<Record<string, C>> };

/** A ctx.io request, made as a call by trace.ts, opened under its tool's call; one already folded changes nothing. */
export function ioAsked<C extends Node, T extends Calls<C>>(trace: T, callId: string, parentId: string, request: C): T {
  const parent = trace.calls[parentId];
  if (!parent || trace.calls[callId]) return trace;
  return { ...trace, calls: { ...trace.calls, [callId]: request, [parentId]: { ...parent, children: [...parent.children, callId] } } };
}

/** The tool's call ended: its requests still waiting were never answered, and wait no more. */
export function ioClosed<C extends Node, T extends Calls<C>>(trace: T, parentId: string): T {
  const open = trace.calls[parentId]?.children.filter((id) => {
    const child = trace.calls[id];
    return child?.io && (child.state === "approval" || child.state === "question");
  });
  if (!open?.length) return trace;
  const calls = { ...trace.calls };
  for (const id of open) calls[id] = { ...calls[id]!, state: "pending" };
  return { ...trace, calls };
}
