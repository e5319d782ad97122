// The agents that use something (a model connection, an MCP server), each a link to its page, or "No agent".
import Link from "next/link";

export function AgentLinks({ agents }: { agents: readonly { id: string; name: string }[] }) {
  if (agents.length === 0) return <span className="whitespace-nowrap text-zinc-500 dark:text-zinc-400">No agent</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {agents.map((agent) => (
        <li key={agent.id}>
          <Link href={`/agents/${agent.id}`} className="hover:text-accent hover:underline">
            {agent.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
