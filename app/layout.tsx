// The frame every page sits in: the left rail and the page beside it.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Rail } from "@/components/frame/rail";
import { TRPCReactProvider } from "@/components/trpc/provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quiver", template: "%s · Quiver" },
  description: "A studio for building AI agents out of tools.",
  icons: { icon: "/quiver.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <TRPCReactProvider>
          <div className="flex min-h-screen">
            <Rail />
            <main className="min-w-0 flex-1">{children}</main>
          </div>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
