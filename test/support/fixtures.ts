/** Inputs the tests share: a valid notebook, which each test then breaks or changes. */
import type { NotebookInputs } from "../../provider/notebook-inputs";

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
