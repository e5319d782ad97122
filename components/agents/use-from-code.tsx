"use client";
// The agent page's "Use from code": where a program reaches this agent (chat completions with the agent's name as
// the model, the runs API, its MCP endpoint), the snippets and MCP configurations to copy, and the API keys that can
// reach it. Addresses use the studio's configured address, else the page's own. The texts are
// use-from-code-snippets.ts's; this file only lays them out.
import * as Tabs from "@radix-ui/react-tabs";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSyncExternalStore, type ReactNode } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { CodeBlock, CopyButton } from "./use-from-code-copy";
import { KeysReaching } from "./use-from-code-keys";
import { baseOf, endpointsOf, KEY_PLACEHOLDER, mcpConfigsOf, snippetsOf, type CodeAgent } from "./use-from-code-snippets";
import { EditorSection } from "./editor-section";

const noChange = () => () => {};
/** The page's origin in the browser; null while rendered on the server, which has no page. */
const usePageOrigin = () => useSyncExternalStore(noChange, () => window.location.origin, () => null);

const tabList = "flex gap-1 border-b border-zinc-200 text-xs dark:border-zinc-800";
const tab =
  "-mb-px border-b-2 border-transparent px-2 py-1.5 text-zinc-500 dark:text-zinc-400 data-[state=active]:border-accent data-[state=active]:text-zinc-900 dark:data-[state=active]:text-zinc-50";

function Address({ label, url, hint }: { label: string; url: string; hint: ReactNode }) {
  return (
    // A <dl>'s group holds only its <dt> and <dd>: the copy button goes in the <dd>, drawn at the group's corner.
    <div className="relative flex flex-col gap-0.5 py-2 pr-10">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="flex flex-col gap-0.5">
        <code className="break-all font-mono text-xs">{url}</code>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</span>
        <span className="absolute right-0 top-1.5">
          <CopyButton text={url} label={`Copy the address of ${label}`} />
        </span>
      </dd>
    </div>
  );
}

export function UseFromCode({ agent }: { agent: CodeAgent }) {
  const trpc = useTRPC();
  const facts = useQuery(trpc.useFromCode.get.queryOptions({ id: agent.id }));
  const origin = usePageOrigin();
  const configured = facts.data?.baseUrl ?? null;
  const base = configured || origin ? baseOf(configured, origin ?? "") : null;

  // The section before it is the last of its group and draws no rule below it.
  return (
    <div className="border-t border-zinc-200 dark:border-zinc-800">
      <EditorSection
        id="use-from-code"
        title="Use from code"
        lede="Call this agent from a program: as a chat model, through the runs API, or as an MCP server. Its tools, approvals, settings and secrets stay as set here."
      >
        {facts.error ? (
          <ErrorText error={facts.error} />
        ) : base === null || !facts.data ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading where this agent can be reached…</p>
        ) : (
          <Reach agent={agent} base={base} keys={facts.data.keys} canManageKeys={facts.data.canManageKeys} />
        )}
      </EditorSection>
    </div>
  );
}

function Reach({ agent, base, keys, canManageKeys }: { agent: CodeAgent; base: string; keys: Parameters<typeof KeysReaching>[0]["keys"]; canManageKeys: boolean }) {
  const at = endpointsOf(base, agent);
  const snippets = snippetsOf(base, agent);
  const configs = mcpConfigsOf(base, agent);
  return (
    <div className="flex flex-col gap-5">
      <dl className="divide-y divide-zinc-100 dark:divide-zinc-900">
        <Address
          label="Chat completions"
          url={at.chatCompletions}
          hint={
            <>
              OpenAI&apos;s Chat Completions API, streamed or whole: base URL <code className="font-mono">{at.openaiBase}</code>, model{" "}
              <code className="font-mono">{agent.name}</code> (the saved name).
            </>
          }
        />
        <Address
          label="Runs API"
          url={at.startRun}
          hint={
            <>
              Start a run with a message, then follow, approve and continue it;{" "}
              <Link href="/api-docs" className="text-accent dark:text-indigo-400 underline-offset-2 hover:underline">
                the API reference
              </Link>{" "}
              has every route.
            </>
          }
        />
        <Address label="MCP server" url={at.mcp} hint="Streamable HTTP: this agent's tools as it offers them to its model, and the agent itself as one tool." />
      </dl>

      <div>
        <h3 className="mb-2 text-sm font-medium">Snippets</h3>
        <Tabs.Root defaultValue="curl">
          <Tabs.List aria-label="Snippet language" className={tabList}>
            <Tabs.Trigger value="curl" className={tab}>curl</Tabs.Trigger>
            <Tabs.Trigger value="typescript" className={tab}>TypeScript</Tabs.Trigger>
            <Tabs.Trigger value="python" className={tab}>Python</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="curl" className="pt-2"><CodeBlock title="a streamed chat completion" label="the curl snippet" text={snippets.curl} /></Tabs.Content>
          <Tabs.Content value="typescript" className="pt-2"><CodeBlock title="npm install openai" label="the TypeScript snippet" text={snippets.typescript} /></Tabs.Content>
          <Tabs.Content value="python" className="pt-2"><CodeBlock title="pip install openai" label="the Python snippet" text={snippets.python} /></Tabs.Content>
        </Tabs.Root>
        <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          Put a key&apos;s value in place of <code className="font-mono">{KEY_PLACEHOLDER}</code>; keep it out of files you share.
        </p>
      </div>

      <div>
        <h3 className="mb-2 text-sm font-medium">MCP configuration</h3>
        <Tabs.Root defaultValue={configs[0]!.id}>
          <Tabs.List aria-label="MCP client" className={tabList}>
            {configs.map((c) => (
              <Tabs.Trigger key={c.id} value={c.id} className={tab}>{c.label}</Tabs.Trigger>
            ))}
          </Tabs.List>
          {configs.map((c) => (
            <Tabs.Content key={c.id} value={c.id} className="flex flex-col gap-1.5 pt-2">
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{c.note}</p>
              <CodeBlock title={c.file} label={`the ${c.label} configuration`} text={c.config} />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </div>

      <div>
        <h3 className="mb-2 text-sm font-medium">Keys that can reach this agent</h3>
        <KeysReaching keys={keys} canManageKeys={canManageKeys} />
      </div>
    </div>
  );
}
