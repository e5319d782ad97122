// POST /api/v1/runs/{id}/answers: answer the question the run waits on (scope decide). The handler is
// server/api/runs.ts's.
import { answerQuestion } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const POST = answerQuestion;
