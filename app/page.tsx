// The studio's home: what Quiver is and where to go first.
import Link from "next/link";
import { ArrowRight, FileCode2 } from "lucide-react";
import { PageHeader } from "@/components/frame/page-header";
import { pageUser } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  await pageUser("/");
  return (
    <>
      <PageHeader
        title="Welcome to Quiver"
        lede="Build AI agents out of tools. Developers write tools as small Python files and see exactly what the model will be offered; builders compose agents from them without code; secrets reach the tools and never the model."
      />
      <section aria-labelledby="sections-heading" className="px-8 py-6">
        <h2 id="sections-heading" className="mb-3 text-sm font-medium text-zinc-500">
          Start here
        </h2>
        <ul className="grid max-w-3xl gap-3 sm:grid-cols-2">
          <li>
            <Link
              href="/tools"
              className="group flex h-full flex-col gap-2 rounded-lg border border-zinc-200 p-4 hover:border-accent dark:border-zinc-800"
            >
              <span className="flex items-center gap-2 font-medium">
                <FileCode2 aria-hidden className="h-4 w-4 text-accent" />
                Tools
                <ArrowRight aria-hidden className="ml-auto h-4 w-4 opacity-0 transition group-hover:opacity-100" />
              </span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">
                The Python files of the tool tree: one file per group of tools, each function an operation a
                model can call.
              </span>
            </Link>
          </li>
        </ul>
      </section>
    </>
  );
}
