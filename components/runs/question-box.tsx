"use client";
// The agent's question to the person (ask_user): pick a choice or write an answer; Skip answers nothing.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";

export function QuestionBox({ runId, callId, choices }: { runId: string; callId: string; choices: string[] }) {
  const trpc = useTRPC();
  const answer = useMutation(trpc.runs.answer.mutationOptions());
  const [text, setText] = useState("");
  const send = (value: string | null) => answer.mutate({ runId, callId, answer: value });
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) send(text.trim());
      }}
    >
      {choices.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <Button key={choice} type="button" size="sm" disabled={answer.isPending} onClick={() => send(choice)}>
              {choice}
            </Button>
          ))}
        </div>
      ) : null}
      <div className="flex items-center gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">Your answer</span>
          <input
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Your answer"
            className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm outline-none focus:border-accent dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={answer.isPending || !text.trim()}>
          Answer
        </Button>
        <Button type="button" size="sm" variant="ghost" disabled={answer.isPending} onClick={() => send(null)}>
          Skip
        </Button>
      </div>
      <ErrorText error={answer.error} className="text-xs text-red-600" />
    </form>
  );
}
