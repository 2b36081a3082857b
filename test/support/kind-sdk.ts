/**
 * The TypeScript SDK's file of each kind, for the tests that read its
 * declarations with the compiler (test/unit/kind-descriptions.test.ts,
 * test/unit/declarations.test.ts). Typed by the kinds' registry, so a new
 * kind does not type-check until it is named here.
 */
import type { DescribedKind } from "../../client/wire";

export const sdkFileOf = { Notebook: "sdk/notebook.ts", ResourceGroup: "sdk/resource-group.ts" } as const satisfies Record<DescribedKind, string>;
