// The agent's plan, as its todos events last said it.
import { CheckCircle2, Circle, CircleDot } from "lucide-react";
import type { Todo } from "@/server/runtime/shapes";

const ICONS = { pending: Circle, in_progress: CircleDot, completed: CheckCircle2 } as const;

export function TodoList({ todos }: { todos: Todo[] }) {
  return (
    <section aria-labelledby="todos-heading">
      <h2 id="todos-heading" className="mb-2 text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
        Plan
      </h2>
      {todos.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No plan yet; an agent that plans lists its steps here.</p>
      ) : (
        <ul className="flex flex-col gap-1.5 text-sm">
          {todos.map((todo, i) => {
            const Icon = ICONS[todo.status] ?? Circle;
            return (
              <li key={i} className={`flex items-start gap-2 ${todo.status === "completed" ? "text-zinc-500 dark:text-zinc-400 line-through" : ""}`}>
                <Icon
                  aria-label={todo.status.replace("_", " ")}
                  className={`mt-0.5 h-4 w-4 shrink-0 ${todo.status === "in_progress" ? "text-indigo-500" : todo.status === "completed" ? "text-emerald-500" : "text-zinc-400"}`}
                />
                <span>{todo.content}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
