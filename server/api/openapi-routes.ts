// Every route behind a key that the OpenAPI document lists, by its spec (edge.ts's RouteSpec). A route added under
// app/api/v1 adds its spec here, or tests/integration/api/runs-openapi.test.ts names it as missing.
import type { RouteSpec } from "./edge";
import { CHAT_ROUTES } from "./chat-specs";
import { RUNS_ROUTES } from "./runs-specs";

export const API_ROUTES: readonly RouteSpec[] = [...RUNS_ROUTES, ...CHAT_ROUTES];
