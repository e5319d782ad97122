// system:bash: one shell command per call (seed 002's run_bash), bounded at 300 s of its own.
import { inputs, operation, type SystemSource } from "./types";

export const bash: SystemSource = {
  name: "bash",
  title: "Shell",
  description: "Run shell commands in the tool sandbox; each command starts fresh in the run's working folder.",
  settings_schema: null,
  operations: [
    operation({
      name: "run_bash",
      title: "Run a shell command",
      description:
        "Run one shell command in the run's working folder and answer its exit status and combined output; it is stopped at its timeout, and nothing typed interactively reaches it.",
      input_schema: inputs(
        {
          command: { type: "string", description: "The command line to run, e.g. ls -la." },
          timeout: { type: "integer", minimum: 1, maximum: 300, default: 120, description: "Seconds to wait before stopping the command." },
        },
        ["command"],
      ),
      risk: "exec",
      // Seed 002's table: 300 seconds; the command's own timeout argument ends it first.
      timeout: 300,
      capabilities: ["shell.exec"],
    }),
  ],
  handlers: {},
};
