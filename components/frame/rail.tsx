"use client";
// The left rail: the studio's sections, the current one marked.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { FileCode2, Home, type LucideIcon } from "lucide-react";

type Section = { href: string; label: string; icon: LucideIcon };

// Agents, Runs and Settings join this list as their pages land.
const sections: Section[] = [
  { href: "/", label: "Home", icon: Home },
  { href: "/tools", label: "Tools", icon: FileCode2 },
];

export function Rail() {
  const pathname = usePathname();
  return (
    <nav
      aria-label="Sections"
      className="flex w-52 shrink-0 flex-col gap-1 border-r border-zinc-200 bg-zinc-50 px-3 py-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Link href="/" className="mb-4 flex items-center gap-2 px-2 text-base font-semibold tracking-tight">
        <span aria-hidden className="inline-block h-5 w-5 rounded-md bg-accent" />
        Quiver
      </Link>
      {sections.map(({ href, label, icon: Icon }) => {
        const current = href === "/" ? pathname === "/" : pathname.startsWith(href);
        return (
          <Link
            key={href}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm ${
              current
                ? "bg-white font-medium text-zinc-900 shadow-sm dark:bg-zinc-800 dark:text-zinc-50"
                : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
            }`}
          >
            <Icon aria-hidden className="h-4 w-4" />
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
