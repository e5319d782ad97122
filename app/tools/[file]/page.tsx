// /tools/<file>: the editor for one file of the tool tree (other files open beside it as tabs), or for one of the
// project files beside it (requirements.txt, pyproject.toml, setup.sh, hooks/tools.py).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ToolEditorLoader } from "@/components/editor/tool-editor-loader";
import { Forbidden } from "@/components/frame/forbidden";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { fileNameProblem } from "@/server/tree/names";
import { isProjectFile } from "@/server/tree/project-names";

type Props = { params: Promise<{ file: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeURIComponent((await params).file) };
}

export default async function ToolFilePage({ params }: Props) {
  const file = decodeURIComponent((await params).file);
  // A tool file, or one of the project files beside the tree (R-deps-edit); any other name is no page.
  if (fileNameProblem(file) && !isProjectFile(file)) notFound();
  const user = await pageUser(`/tools/${encodeURIComponent(file)}`);
  if (!hasRole(user, "developer")) return <Forbidden needs="developer" what="Editing tool files" />;
  return <ToolEditorLoader initialPath={file} />;
}
