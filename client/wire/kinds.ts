/** The resource kinds' descriptions, by the kind's name (provider/kinds.ts names the kinds; index.ts checks they agree). */
import type { KindDescription } from "./kind";
import { notebookKind } from "./notebook";
import { resourceGroupKind } from "./resource-group";

export type { KindDescription } from "./kind";

/** Each kind a program declares, with its one description. */
export const kindDescriptions = { Notebook: notebookKind, ResourceGroup: resourceGroupKind } as const satisfies Record<string, KindDescription>;

/** The name of a kind a program declares (`Notebook`, `ResourceGroup`). */
export type DescribedKind = keyof typeof kindDescriptions;
