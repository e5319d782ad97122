// A failed call's sentence where it happened, in red, announced to screen readers; nothing when there is no error.
import { errorSentence } from "./errors";

export function ErrorText({
  error,
  byCode,
  // red-600 on the dark page is under 4.5:1; red-400 reads there.
  className = "text-sm text-red-600 dark:text-red-400",
}: {
  error: unknown;
  /** Sentences that replace the server's for a code, as errorSentence takes them. */
  byCode?: Partial<Record<string, string>>;
  className?: string;
}) {
  const sentence = errorSentence(error, byCode);
  if (!sentence) return null;
  return (
    <p role="alert" className={className}>
      {sentence}
    </p>
  );
}
