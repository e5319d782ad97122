// system:compute: seed 000's "the model writes a program, and the program calls the tools": Python run in the
// tool host's sandbox, where the tree's tools import as plain functions, so a loop of calls is one round trip.
import { inputs, operation, type SystemSource } from "./types";

export const compute: SystemSource = {
  name: "compute",
  title: "Compute",
  description: "Let the agent write and run a Python program that calls its tools as plain functions, in one step.",
  settings_schema: null,
  operations: [
    operation({
      name: "compute_exec",
      title: "Run a Python program",
      description:
        "Run a Python program in the tool sandbox and answer what it prints; this agent's tree tools import as plain functions (from tools.notes import read), and tools the agent was not given are refused.",
      input_schema: inputs(
        {
          code: { type: "string", description: "The Python program; print what you want back." },
          timeout: { type: "integer", minimum: 1, maximum: 300, default: 120, description: "Seconds to wait before stopping the program." },
        },
        ["code"],
      ),
      risk: "exec",
      timeout: 300,
      capabilities: ["code.exec"],
    }),
  ],
  handlers: {},
};
