// system:filesystem: the declaration beside the handlers that implement it (read.ts, write.ts, search.ts), every
// path through confine.ts. Edit the declaration for what the model sees, a handler for what a call does.
import type { SystemSource } from "../types";
import { declaration } from "./declaration";
import { listDirectory, readFile } from "./read";
import { glob, grep } from "./search";
import { deletePath, editFile, generateFile, writeFile } from "./write";

export { outputDirFor } from "./write";

export const filesystem: SystemSource = {
  ...declaration,
  handlers: {
    read_file: readFile,
    write_file: writeFile,
    edit_file: editFile,
    delete: deletePath,
    glob,
    grep,
    list_directory: listDirectory,
    generate_file: generateFile,
  },
};
