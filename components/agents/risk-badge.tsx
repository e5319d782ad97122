// A source's or operation's risk as a small badge in the builder's words ("Changes things"), its meaning on hover.
import type { Risk } from "@/server/operations/operation";
import { RISK_LABELS } from "./labels";

export function RiskBadge({ risk }: { risk: Risk }) {
  const { label, help, className } = RISK_LABELS[risk];
  return (
    <span title={help} className={`inline-flex shrink-0 items-center rounded border px-1.5 py-px text-[11px] font-medium leading-4 ${className}`}>
      {label}
    </span>
  );
}
