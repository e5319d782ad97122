// system:planning: the model's own todo list (R-sys-planning): write_todos takes the whole list each time; read_todos
// answers it. The plan lives in the run (ctx.todos, which the runtime keeps and streams), so its risk is read.
import { handler, ok, refused } from "./handler";
import { inputs, operation, type SystemSource, type Todo } from "./types";

const STATUSES = ["pending", "in_progress", "completed"] as const;
const MARK: Record<Todo["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

/** The list if it has the shape R-sys-planning gives it, else the one line that says what is wrong with it. */
export function checkTodos(value: unknown): Todo[] | string {
  if (!Array.isArray(value)) return "todos must be the whole list, as an array of {content, status} items; nothing changed.";
  for (const [i, item] of value.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return `todos[${i}] must be an object with content and status; nothing changed.`;
    const { content, status } = item as Record<string, unknown>;
    if (typeof content !== "string" || content.trim() === "") return `todos[${i}].content must be a short description of the step; nothing changed.`;
    if (!STATUSES.includes(status as Todo["status"])) return `todos[${i}].status must be pending, in_progress or completed; nothing changed.`;
  }
  return value as Todo[];
}

/** The plan as the model reads it back: one numbered line per step with its status. */
export function showTodos(todos: Todo[]): string {
  if (todos.length === 0) return "The plan is empty.";
  return todos.map((t, i) => `${i + 1}. ${MARK[t.status]} ${t.content} (${t.status})`).join("\n");
}

const writeTodos = handler(async (args, ctx) => {
  const todos = checkTodos(args.todos);
  if (typeof todos === "string") return refused(todos);
  await ctx.todos.set(todos.map((t) => ({ ...t })));
  const done = todos.filter((t) => t.status === "completed").length;
  return ok(`The plan has ${todos.length} step${todos.length === 1 ? "" : "s"}, ${done} completed.\n${showTodos(todos)}`);
});

const readTodos = handler(async (_args, ctx) => showTodos(await ctx.todos.get()));

export const planning: SystemSource = {
  name: "planning",
  title: "Planning",
  description: "Keep a list of steps for the task at hand and mark them done as the work goes.",
  settings_schema: null,
  operations: [
    operation({
      name: "write_todos",
      title: "Write the plan",
      description:
        "Replace the whole todo list with the one given (send every item each time); each item needs content and a status of pending, in_progress or completed, and a list of any other shape changes nothing.",
      input_schema: inputs(
        {
          todos: {
            type: "array",
            description: "The whole list, in order.",
            items: {
              type: "object",
              properties: {
                content: { type: "string", minLength: 1, description: "A short description of the step." },
                status: { type: "string", enum: ["pending", "in_progress", "completed"], description: "Where the step stands." },
              },
              required: ["content", "status"],
              // Extra keys on an item are fine (R-sys-planning).
              additionalProperties: true,
            },
          },
        },
        ["todos"],
      ),
      risk: "read",
      // Serial, but it runs beside the concurrent calls of its turn without holding them up (R-loop-concurrency).
      concurrent: false,
      capabilities: ["plan.write"],
    }),
    operation({
      name: "read_todos",
      title: "Read the plan",
      description: "Answer the current todo list with each item's status; an empty list when none was written.",
      input_schema: inputs({}),
      risk: "read",
      read_only: true,
      capabilities: ["plan.read"],
    }),
  ],
  handlers: { write_todos: writeTodos, read_todos: readTodos },
};
