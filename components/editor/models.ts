// The Monaco models behind the editor's tabs, one per file path as monaco-react keeps them: text put in as an
// edit, and a model that follows its file through a rename or goes with its tab.
import type { Monaco } from "./monaco-setup";

export function modelOf(monaco: Monaco | null, path: string) {
  return monaco?.editor.getModel(monaco.Uri.parse(path)) ?? null;
}

/** Puts `text` into the file's model as one edit, not setValue: the change stays on the undo stack. */
export function replaceText(monaco: Monaco | null, path: string, text: string) {
  const model = modelOf(monaco, path);
  if (model && model.getValue() !== text) {
    model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
  }
}

export function disposeModel(monaco: Monaco | null, path: string) {
  modelOf(monaco, path)?.dispose();
}

/** The model of a renamed file, under its new path, with its text. */
export function moveModel(monaco: Monaco | null, from: string, to: string) {
  const text = modelOf(monaco, from)?.getValue();
  disposeModel(monaco, from);
  if (monaco && text !== undefined) monaco.editor.createModel(text, "python", monaco.Uri.parse(to));
}
