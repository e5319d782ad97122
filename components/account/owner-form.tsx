"use client";
// The studio's first account: whoever opens a new studio first makes the owner (an admin).
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { authClient } from "./auth-client";

export function OwnerForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(trpc.account.createOwner.mutationOptions());
  const short = password.length > 0 && password.length < 12;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await create.mutateAsync({ name, email, password });
      const { error: failed } = await authClient.signIn.email({ email, password });
      if (failed) throw new Error(failed.message ?? "Signing in failed.");
      router.push("/");
      router.refresh();
    } catch (err) {
      setError(errorSentence(err as Error));
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <Field id="name" label="Your name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
      <Field id="email" label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={short ? "At least 12 characters." : null}
        hint="At least 12 characters."
      />
      <ErrorText error={error} />
      <Button type="submit" variant="primary" disabled={create.isPending || short}>
        {create.isPending ? "Creating…" : "Create the owner account"}
      </Button>
    </form>
  );
}
