// GET /api/v1/openapi.json: the public API's OpenAPI 3.1 document, generated from the routes' own schemas
// (server/api/openapi.ts). It needs no key: it says what the API takes, nothing a key guards.
import { openApiAnswer } from "@/server/api/openapi";

export const dynamic = "force-dynamic";
export const GET = openApiAnswer;
