"use client";
// The playground's message box: Enter sends, Shift+Enter starts a new line. While the run works, Stop takes Send's
// place (Escape does the same from anywhere on the page; run-pane.tsx listens for it).
import { SendHorizontal, Square } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

type Props = {
  onSend: (text: string) => Promise<boolean>;
  disabled: boolean;
  hint: string;
  /** Given while the run is running or waiting. */
  stop?: { onStop: () => void; pending: boolean } | null;
};

export function MessageBox({ onSend, disabled, hint, stop }: Props) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  async function send() {
    const message = text.trim();
    if (!message || disabled || sending) return;
    setSending(true);
    try {
      if (await onSend(message)) setText("");
    } finally {
      setSending(false);
    }
  }
  return (
    <form
      className="flex items-end gap-2 rounded-lg border border-zinc-300 bg-white p-2 focus-within:border-accent dark:border-zinc-700 dark:bg-zinc-950"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label className="min-w-0 flex-1">
        <span className="sr-only">Message</span>
        <textarea
          value={text}
          rows={2}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
          placeholder={hint}
          className="block max-h-48 w-full resize-none bg-transparent px-1 text-sm outline-none placeholder:text-zinc-500 dark:placeholder:text-zinc-400"
        />
      </label>
      {stop ? (
        <Button type="button" onClick={stop.onStop} disabled={stop.pending} title="Stop the run (Esc)">
          <Square aria-hidden className="h-3.5 w-3.5 fill-current" /> Stop
        </Button>
      ) : (
        <Button type="submit" variant="primary" disabled={disabled || sending || !text.trim()}>
          <SendHorizontal aria-hidden className="h-4 w-4" /> Send
        </Button>
      )}
    </form>
  );
}
