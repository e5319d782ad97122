"use client";
// Sign in with email and password; the error stays on the form, in a sentence.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { authClient } from "./auth-client";

function safeNext(next: string | null): string {
  // Only paths on this studio: never an open redirect.
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export function SignInForm({ next }: { next: string | null }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const { error: failed } = await authClient.signIn.email({ email, password });
    setPending(false);
    if (failed) {
      setError(
        failed.status === 429
          ? (failed.message ?? "Too many failed sign-ins: wait a while, then try again.")
          : failed.status === 403
            ? (failed.message ?? "This account is disabled; ask an admin to enable it.")
            : "That email and password do not match an account. Check them, or ask an admin to reset your password.",
      );
      return;
    }
    router.push(safeNext(next));
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <Field id="email" label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <ErrorText error={error} />
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
