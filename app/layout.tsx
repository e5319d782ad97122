// The frame every page sits in: the left rail (for a signed-in person) and the page beside it.
import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Rail } from "@/components/frame/rail";
import { TRPCReactProvider } from "@/components/trpc/provider";
import { themeOf, type Theme } from "@/server/auth/preferences";
import { sessionUser } from "@/server/auth/session";
import { getDb } from "@/server/db";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quiver", template: "%s · Quiver" },
  description: "A studio for building AI agents out of tools.",
  icons: { icon: "/quiver.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await sessionUser(await headers()).catch(() => null);
  // The signed-in person's theme is in the first HTML, so nothing flashes; signed out, the device decides (R-theme-first-paint).
  const theme: Theme = user ? await getDb().then((db) => themeOf(db, user.id)).catch(() => "system" as const) : "system";
  return (
    <html lang="en" data-theme={theme}>
      <body className="min-h-screen font-sans">
        <TRPCReactProvider>
          <div className="flex min-h-screen">
            {user ? <Rail user={user} theme={theme} /> : null}
            <main className="min-w-0 flex-1">{children}</main>
          </div>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
