// system:planning: the model's own todo list (seed 002): write_todos takes the whole list each time; read_todos
// answers it. The plan lives in the run and touches nothing outside it, so its risk is read.
import { inputs, operation, type SystemSource } from "./types";

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
              // Seed 002: extra keys on an item are fine.
              additionalProperties: true,
            },
          },
        },
        ["todos"],
      ),
      risk: "read",
      // Serial, but it runs beside the concurrent calls of its turn without holding them up (seed 002).
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
  handlers: {},
};
