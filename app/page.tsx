// The studio's home: what Quiver is and where to go first; for a new studio, the checklist of first steps until the
// viewer's are all done (R-start-gone).
import Link from "next/link";
import { ArrowRight, Bot, FileCode2, History, type LucideIcon } from "lucide-react";
import { PageHeader } from "@/components/frame/page-header";
import { StartChecklist } from "@/components/start/start-checklist";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const dynamic = "force-dynamic";

const sections: { href: string; title: string; icon: LucideIcon; text: string }[] = [
  {
    href: "/agents",
    title: "Agents",
    icon: Bot,
    text: "Compose an agent from the tools it may use, decide what needs your approval, and see exactly what the model is offered.",
  },
  {
    href: "/tools",
    title: "Tools",
    icon: FileCode2,
    text: "The Python files of the tool tree: one file per group of tools, each function an operation a model can call.",
  },
  {
    href: "/runs",
    title: "Runs",
    icon: History,
    text: "Every conversation an agent has had, step by step: its tool calls, approvals and results.",
  },
];

export default async function HomePage() {
  await pageUser("/");
  const checklist = await getQueryClient().fetchQuery(trpc.start.checklist.queryOptions());
  return (
    <>
      <PageHeader
        title="Welcome to Quiver"
        lede="Build AI agents out of tools. Developers write tools as small Python files and see exactly what the model will be offered; builders compose agents from them without code; secrets reach the tools and never the model."
      />
      {checklist.done ? null : <StartChecklist checklist={checklist} />}
      <section aria-labelledby="sections-heading" className="px-8 py-6">
        <h2 id="sections-heading" className="mb-3 text-sm font-medium text-zinc-500 dark:text-zinc-400">
          Start here
        </h2>
        <ul className="grid max-w-4xl gap-3 sm:grid-cols-3">
          {sections.map(({ href, title, icon: Icon, text }) => (
            <li key={href}>
              <Link
                href={href}
                className="group flex h-full flex-col gap-2 rounded-lg border border-zinc-200 p-4 hover:border-accent dark:border-zinc-800"
              >
                <span className="flex items-center gap-2 font-medium">
                  <Icon aria-hidden className="h-4 w-4 text-accent dark:text-indigo-400" />
                  {title}
                  <ArrowRight aria-hidden className="ml-auto h-4 w-4 opacity-0 transition group-hover:opacity-100" />
                </span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
