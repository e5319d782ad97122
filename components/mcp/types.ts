// The shapes the MCP servers page reads, as the API answers them (dates arrive as ISO text).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>["mcpServers"];

export type ServerRow = Outputs["list"][number];
export type ServerStatus = ServerRow["status"];
export type ServerTool = Outputs["tools"]["tools"][number];
