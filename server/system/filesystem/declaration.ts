// system:filesystem as the model and the builder see it: the file bundle (R-sys-filesystem), every path confined to
// the builder's root (R-root-confine). The limits are settings, so the model can never raise them (R-sys-settings-hidden).
import { inputs, operation, type SystemSource } from "../types";

const path = (what: string) => ({ type: "string", description: `${what}, relative to the root.` });

export const declaration: Omit<SystemSource, "handlers"> = {
  name: "filesystem",
  title: "Files",
  description: "Read, search and change files in one folder of the studio's workspace that you choose.",
  settings_schema: {
    type: "object",
    properties: {
      root: {
        type: "string",
        "x-quiver-kind": "root",
        default: ".",
        description: "Folder of the workspace every path is confined to; nothing outside it can be read or changed.",
      },
      max_read_bytes: { type: "integer", minimum: 1, default: 1_000_000, description: "Largest file read whole, in bytes." },
      max_directory_entries: { type: "integer", minimum: 1, default: 1_000, description: "Most entries one listing returns." },
    },
    required: [],
  },
  operations: [
    operation({
      name: "read_file",
      title: "Read a file",
      description:
        "Read one text file under the root, whole or from a line for a number of lines; refuses paths outside the root, binary files and files over the read limit.",
      input_schema: inputs(
        {
          path: path("File to read"),
          start_line: { type: "integer", minimum: 1, default: 1, description: "First line to return, counted from 1." },
          max_lines: { type: "integer", minimum: 1, description: "Most lines to return; the rest of the file when omitted." },
        },
        ["path"],
      ),
      risk: "read",
      read_only: true,
      capabilities: ["file.read"],
    }),
    operation({
      name: "write_file",
      title: "Write a file",
      description:
        "Write one text file under the root, creating its folders, atomically; refuses to replace an existing file unless overwrite is true, and paths outside the root.",
      input_schema: inputs(
        {
          path: path("File to write"),
          content: { type: "string", description: "The whole content of the file." },
          overwrite: { type: "boolean", default: false, description: "Replace the file if it already exists." },
        },
        ["path", "content"],
      ),
      risk: "write",
      capabilities: ["file.write"],
    }),
    operation({
      name: "edit_file",
      title: "Edit a file",
      description:
        "Replace one exact piece of text in an existing file under the root; refuses text that is missing or appears more than once unless replace_all is true, so read the file first.",
      input_schema: inputs(
        {
          path: path("File to edit"),
          old_text: { type: "string", description: "The exact text to replace, with enough around it to be unique." },
          new_text: { type: "string", description: "The text to put in its place." },
          replace_all: { type: "boolean", default: false, description: "Replace every occurrence instead of refusing an ambiguous match." },
        },
        ["path", "old_text", "new_text"],
      ),
      risk: "write",
      capabilities: ["file.write"],
    }),
    operation({
      name: "delete",
      title: "Delete a file or folder",
      description:
        "Delete one file or folder under the root; refuses a folder that is not empty unless recursive is true, and never deletes the root itself.",
      input_schema: inputs(
        {
          path: path("File or folder to delete"),
          recursive: { type: "boolean", default: false, description: "Delete a folder with everything in it." },
        },
        ["path"],
      ),
      risk: "write",
      destructive: true,
      capabilities: ["file.delete"],
    }),
    operation({
      name: "glob",
      title: "Find files by name",
      description: "Find files under the root whose paths match a glob pattern such as **/*.md; answers paths relative to the root and never looks outside it.",
      input_schema: inputs(
        {
          pattern: { type: "string", description: "Glob pattern, e.g. **/*.md or reports/2024-*.csv." },
          path: { ...path("Folder to search in"), default: "." },
        },
        ["pattern"],
      ),
      risk: "read",
      read_only: true,
      capabilities: ["file.search"],
    }),
    operation({
      name: "grep",
      title: "Search file contents",
      description:
        "Search the text of files under the root for a regular expression; answers path:line: text for each match up to a limit, and skips binary files and paths outside the root.",
      input_schema: inputs(
        {
          pattern: { type: "string", description: "Regular expression to look for." },
          path: { ...path("File or folder to search"), default: "." },
          glob: { type: "string", description: "Only files whose paths match this glob, e.g. *.py." },
          max_matches: { type: "integer", minimum: 1, default: 100, description: "Most matches to return." },
        },
        ["pattern"],
      ),
      risk: "read",
      read_only: true,
      capabilities: ["file.search"],
    }),
    operation({
      name: "list_directory",
      title: "List a folder",
      description:
        "List one folder under the root, one level deep: folders first with a slash after them, then files; refuses paths outside the root and stops at the entry limit.",
      input_schema: inputs({ path: { ...path("Folder to list"), default: "." } }),
      risk: "read",
      read_only: true,
      capabilities: ["file.list"],
    }),
    operation({
      name: "generate_file",
      title: "Make a file to download",
      description:
        "Create a file for the person to download (a report, a CSV) in the run's output folder and answer its name; never writes under the root and never replaces an earlier file.",
      input_schema: inputs(
        {
          filename: { type: "string", description: "Name of the file, without a folder, e.g. report.md." },
          content: { type: "string", description: "The whole content of the file." },
        },
        ["filename", "content"],
      ),
      risk: "write",
      capabilities: ["file.export"],
    }),
  ],
};
