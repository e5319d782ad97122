"use client";
// One operation's Approval: Allowed, Ask me, Never, or the agent's default, with the one line beside it that says
// what will happen (R-perm-explicit-beats-default: the operation's own setting beats the agent's default).
import { explainPermission, explicitPermission, PERMISSION_LABELS, PERMISSION_LEVELS, type PermissionLevel } from "@/server/agents/permissions";

export function ApprovalSelect({
  id,
  source,
  operation,
  title,
  permissions,
  agentDefault,
  error,
  onChange,
}: {
  id: string;
  source: string;
  operation: string;
  title: string;
  permissions: Readonly<Record<string, PermissionLevel>>;
  agentDefault: PermissionLevel;
  error?: string;
  onChange: (level: PermissionLevel | null) => void;
}) {
  const explanation = explainPermission({ explicit: explicitPermission(source, operation, permissions), agentDefault });
  return (
    <div className="grid grid-cols-[10rem_1fr] items-start gap-3 py-1.5 text-xs">
      <select
        id={id}
        aria-label={`Approval of ${title}`}
        aria-describedby={`${id}-note`}
        aria-invalid={!!error}
        value={permissions[operation] ?? ""}
        onChange={(e) => onChange(e.target.value ? (e.target.value as PermissionLevel) : null)}
        className="rounded-md border border-zinc-300 bg-transparent px-1.5 py-1 text-xs outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700"
      >
        <option value="">Agent&apos;s default</option>
        {PERMISSION_LEVELS.map((level) => (
          <option key={level} value={level}>
            {PERMISSION_LABELS[level]}
          </option>
        ))}
      </select>
      <span id={`${id}-note`} className="pt-1">
        <span className="font-medium">{title}</span>: <span className="text-zinc-600 dark:text-zinc-400">{explanation}</span>
        {error ? <span className="block text-red-600">{error}</span> : null}
      </span>
    </div>
  );
}
