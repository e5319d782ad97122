// The shapes the Models page and the agent's Model section read, as the API answers them (dates arrive as text).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>["models"];

export type Connection = Outputs["list"][number];
export type TestAnswer = Outputs["test"];
export type InlineAgent = Outputs["inline"][number];
export type Offered = Outputs["offered"];
