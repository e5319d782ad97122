"use client";
// Settings → Users: everyone with an account, their role (changed in place) and whether they may sign in.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { Role } from "@/db/schema";
import { ROLES, roleDescriptions, roleNames } from "@/server/auth/roles";

function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: "", email: "", password: "", role: "builder" as Role });
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
        setForm({ name: "", email: "", password: "", role: "builder" });
        onOpenChange(false);
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(form);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Add a user" description="Give them the email and the first password yourself; they sign in with them.">
      <form onSubmit={submit} className="flex flex-col gap-2">
        <Field id="user-name" label="Name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <Field id="user-email" label="Email" type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        <Field
          id="user-password"
          label="First password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 12 characters."
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
        />
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Role</span>
          <select
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
            className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 dark:border-zinc-700"
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {roleNames[role]}: {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </label>
        <ErrorText error={create.error} />
        <DialogActions onCancel={() => onOpenChange(false)} label="Add user" busyLabel="Adding…" busy={create.isPending} className="mt-2" />
      </form>
    </Dialog>
  );
}

export function UsersTable({ me }: { me: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const setRole = useMutation(trpc.users.setRole.mutationOptions({ onSettled: refresh }));
  const setDisabled = useMutation(trpc.users.setDisabled.mutationOptions({ onSettled: refresh }));

  return (
    <section className="px-8 py-6" aria-label="Users">
      <div className="mb-4 flex justify-end">
        <Button variant="primary" onClick={() => setAdding(true)}>
          <UserPlus aria-hidden className="h-4 w-4" /> Add user
        </Button>
      </div>
      <ErrorText error={setRole.error ?? setDisabled.error} className="mb-3 text-sm text-red-600" />
      {users.error ? (
        <ErrorText error={users.error} />
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Role</TableHead>
              <TableHead>Since</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(users.data ?? []).map((u) => (
              <TableRow key={u.id}>
                <TableCell>{u.name}{u.id === me ? <span className="text-zinc-500 dark:text-zinc-400"> (you)</span> : null}</TableCell>
                <TableCell className="text-zinc-600 dark:text-zinc-400">{u.email}</TableCell>
                <TableCell>
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}
                    className="rounded-md border border-zinc-300 bg-transparent px-1.5 py-0.5 dark:border-zinc-700"
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {roleNames[role]}
                      </option>
                    ))}
                  </select>
                </TableCell>
                <TableCell className="text-zinc-600 dark:text-zinc-400">
                  <Time at={u.createdAt} format="date" />
                </TableCell>
                <TableCell>
                  {u.disabled ? <span className="mr-2 text-zinc-500 dark:text-zinc-400">Disabled</span> : <span className="mr-2">Active</span>}
                  {u.id !== me ? (
                    <Button size="sm" variant="ghost" onClick={() => setDisabled.mutate({ id: u.id, disabled: !u.disabled })}>
                      {u.disabled ? `Enable ${u.email}` : `Disable ${u.email}`}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
    </section>
  );
}
