"use client";
// The left rail: the studio's sections a person's role may use, the current one marked, and who is
// signed in. The server refuses what a role may not do; the rail only hides it.
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { Bot, BrainCircuit, FileCode2, History, Home, KeyRound, KeySquare, LogOut, ScrollText, Server, Users, type LucideIcon } from "lucide-react";
import { authClient } from "@/components/account/auth-client";
import { ThemeChoice } from "@/components/theme/theme-choice";
import type { Role } from "@/db/schema";
import type { Theme } from "@/server/auth/preferences";
import { hasRole, roleNames } from "@/server/auth/roles";

type Section = { href: string; label: string; icon: LucideIcon; role: Role };

const sections: Section[] = [
  { href: "/", label: "Home", icon: Home, role: "builder" },
  { href: "/tools", label: "Tools", icon: FileCode2, role: "builder" },
  { href: "/agents", label: "Agents", icon: Bot, role: "builder" },
  { href: "/runs", label: "Runs", icon: History, role: "builder" },
];
const settings: Section[] = [
  { href: "/settings/models", label: "Models", icon: BrainCircuit, role: "admin" },
  { href: "/settings/mcp", label: "MCP servers", icon: Server, role: "admin" },
  { href: "/settings/api-keys", label: "API keys", icon: KeySquare, role: "admin" },
  { href: "/settings/secrets", label: "Secrets", icon: KeyRound, role: "admin" },
  { href: "/settings/users", label: "Users", icon: Users, role: "admin" },
  { href: "/settings/audit", label: "Audit", icon: ScrollText, role: "admin" },
];

function RailLink({ section, current }: { section: Section; current: boolean }) {
  const Icon = section.icon;
  return (
    <Link
      href={section.href}
      aria-current={current ? "page" : undefined}
      className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm ${
        current
          ? "bg-white font-medium text-zinc-900 shadow-sm dark:bg-zinc-800 dark:text-zinc-50"
          : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
      }`}
    >
      <Icon aria-hidden className="h-4 w-4" />
      {section.label}
    </Link>
  );
}

export function Rail({ user, theme }: { user: { name: string; email: string; role: Role }; theme: Theme }) {
  const pathname = usePathname();
  const router = useRouter();
  const isCurrent = (href: string) => (href === "/" ? pathname === "/" : pathname.startsWith(href));
  const mine = settings.filter((s) => hasRole(user, s.role));
  return (
    <nav
      aria-label="Sections"
      className="flex w-52 shrink-0 flex-col gap-1 border-r border-zinc-200 bg-zinc-50 px-3 py-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Link href="/" className="mb-4 flex items-center gap-2 px-2 text-base font-semibold tracking-tight">
        <span aria-hidden className="inline-block h-5 w-5 rounded-md bg-accent" />
        Quiver
      </Link>
      {sections
        .filter((s) => hasRole(user, s.role))
        .map((section) => (
          <RailLink key={section.href} section={section} current={isCurrent(section.href)} />
        ))}
      <div className="mt-auto flex flex-col gap-1">
        {mine.length > 0 ? (
          <>
            <p className="px-2 pt-4 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Settings</p>
            {mine.map((section) => (
              <RailLink key={section.href} section={section} current={isCurrent(section.href)} />
            ))}
          </>
        ) : null}
        <div className="mt-4 border-t border-zinc-200 px-2 pt-3 text-xs dark:border-zinc-800">
          <p className="truncate font-medium text-zinc-800 dark:text-zinc-200" title={user.email}>
            {user.name}
          </p>
          <p className="truncate text-zinc-500 dark:text-zinc-400">
            {user.email} · {roleNames[user.role]}
          </p>
          <ThemeChoice initial={theme} />
          <button
            type="button"
            onClick={async () => {
              await authClient.signOut();
              router.push("/sign-in");
              router.refresh();
            }}
            className="mt-2 inline-flex items-center gap-1 text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
          >
            <LogOut aria-hidden className="h-3.5 w-3.5" /> Sign out
          </button>
        </div>
      </div>
    </nav>
  );
}
