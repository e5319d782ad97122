"use client";
// Settings → Users: everyone with an account, their role (changed in place) and whether they may sign in.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { roles, type Role } from "@/db/schema";
import { roleDescriptions, roleNames } from "@/server/auth/roles";

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

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
            {roles.map((role) => (
              <option key={role} value={role}>
                {roleNames[role]}: {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </label>
        {create.error ? (
          <p role="alert" className="text-sm text-red-600">
            {create.error.data?.issues?.[0]?.message ?? create.error.message}
          </p>
        ) : null}
        <div className="mt-2 flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add user"}
          </Button>
        </div>
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
  const error = setRole.error ?? setDisabled.error;

  return (
    <section className="px-8 py-6" aria-label="Users">
      <div className="mb-4 flex justify-end">
        <Button variant="primary" onClick={() => setAdding(true)}>
          <UserPlus aria-hidden className="h-4 w-4" /> Add user
        </Button>
      </div>
      {error ? (
        <p role="alert" className="mb-3 text-sm text-red-600">
          {error.message}
        </p>
      ) : null}
      {users.error ? (
        <p role="alert" className="text-sm text-red-600">{users.error.message}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800">
            <tr>
              <th scope="col" className="py-2 font-medium">Name</th>
              <th scope="col" className="py-2 font-medium">Email</th>
              <th scope="col" className="py-2 font-medium">Role</th>
              <th scope="col" className="py-2 font-medium">Since</th>
              <th scope="col" className="py-2 font-medium">Status</th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((u) => (
              <tr key={u.id} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-2">{u.name}{u.id === me ? <span className="text-zinc-500"> (you)</span> : null}</td>
                <td className="py-2 text-zinc-600 dark:text-zinc-400">{u.email}</td>
                <td className="py-2">
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}
                    className="rounded-md border border-zinc-300 bg-transparent px-1.5 py-0.5 dark:border-zinc-700"
                  >
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {roleNames[role]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="py-2 text-zinc-600 dark:text-zinc-400">{dateFormat.format(new Date(u.createdAt))}</td>
                <td className="py-2">
                  {u.disabled ? <span className="mr-2 text-zinc-500">Disabled</span> : <span className="mr-2">Active</span>}
                  {u.id !== me ? (
                    <Button size="sm" variant="ghost" onClick={() => setDisabled.mutate({ id: u.id, disabled: !u.disabled })}>
                      {u.disabled ? `Enable ${u.email}` : `Disable ${u.email}`}
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
    </section>
  );
}
