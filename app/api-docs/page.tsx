// /api-docs: the public API's reference for a signed-in person, drawn from the same OpenAPI document that
// /api/v1/openapi.json answers (server/api/openapi.ts), the studio's own address in its curl lines.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { ApiReference } from "@/components/api-docs/api-reference";
import { PageHeader } from "@/components/frame/page-header";
import { openApiDocument } from "@/server/api/openapi";
import { pageUser } from "@/server/auth/guard";
import { env } from "@/server/env";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

export default async function ApiDocsPage() {
  await pageUser("/api-docs");
  const sent = await headers();
  const server = env().baseUrl ?? `${sent.get("x-forwarded-proto") ?? "http"}://${sent.get("host") ?? "localhost"}`;
  return (
    <>
      <PageHeader
        title="API reference"
        lede="What programs can do with an agent through an API key: start and follow runs, decide their approvals, answer their questions, and chat with an agent as an OpenAI-compatible model."
        action={
          <a href="/api/v1/openapi.json" className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900">
            OpenAPI document
          </a>
        }
      />
      <ApiReference doc={openApiDocument(server)} />
    </>
  );
}
