/** Inputs the tests share: a valid notebook, which each test then breaks or changes. */
import type { NotebookInputs } from "../../provider/notebook/inputs";

export function validNotebookInputs(extra: Partial<NotebookInputs> = {}): NotebookInputs {
  return {
    logicalName: "research",
    chargeMode: "elastic",
    duration: 3600,
    image: "jupyter:1",
    imageType: "official",
    serverType: "jupyter",
    replicaSpecs: { specs: "sku-1", customGpu: 1 },
    ...extra,
  } as NotebookInputs;
}

/** The smallest GPU template the account sees, as the README's first example picks it. */
export function smallestGpuTemplate(r: {
  templates: Array<{ gpu?: number | null; rgId?: string | null; rgNodeId?: string | null; gpuName?: string | null; tmpId?: number | null }>;
}) {
  const smallest = r.templates.filter((t) => (t.gpu ?? 0) >= 1).sort((a, b) => (a.gpu ?? 0) - (b.gpu ?? 0))[0];
  if (!smallest?.rgNodeId || !smallest.rgId) throw new Error("no GPU template is visible to this account");
  return { rgNodeId: smallest.rgNodeId, rgId: smallest.rgId, gpuName: smallest.gpuName ?? "", tmpId: smallest.tmpId ?? undefined };
}
