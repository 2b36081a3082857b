/** The AICP wire schemas: the single source of truth for every request and response field. */
export * from "./common";
export * from "./notebook";
export * from "./resource-group";
export * from "./template";
export * from "./training";
export * from "./monitoring";

import type { KindDescription } from "./kind";
import { notebookKind } from "./notebook";
import { resourceGroupKind } from "./resource-group";

export type { DeclaredField, DeclaredOutput, KindDeclaration, KindDescription } from "./kind";

/** Each resource kind a program declares, with its one description (provider/kinds.ts names the kinds; provider/index.ts checks they agree). */
export const kindDescriptions = { Notebook: notebookKind, ResourceGroup: resourceGroupKind } as const satisfies Record<string, KindDescription>;

/** The name of a kind a program declares (`Notebook`, `ResourceGroup`). */
export type DescribedKind = keyof typeof kindDescriptions;
