/**
 * What every resource kind's one description gives its readers: the SDK
 * class (its outputs and secrets), check and diff (how each change applies,
 * and the defaults), the README's tables (test/unit/kind-descriptions.test.ts
 * compares them), and the provider plugin's schema (plugin/schema-build.ts,
 * from `declaration`). Each kind derives these from its field table and wire
 * schemas (notebook-fields.ts, notebook.ts, resource-group.ts).
 */
import type { z } from "zod";

/** A field as the provider plugin's schema declares it. */
export interface DeclaredField {
  /** Its rule, in the program's form (or the answer's, for an output); snake_case keys of nested objects are camel-cased in the schema. */
  readonly schema: z.ZodType;
  /** What it is. */
  readonly doc?: string;
  /** A program must give it; for a function's result, every answer holds it. */
  readonly required?: boolean;
}

/** An output as the schema declares it: its own rule, or (without one) the input it echoes. */
export type DeclaredOutput = Omit<DeclaredField, "schema" | "required"> & { readonly schema?: z.ZodType };

/** What a kind declares to the provider plugin's schema (plugin/schema-build.ts). */
export interface KindDeclaration {
  /** What a resource of the kind is. */
  readonly doc: string;
  /** Every field a program sets. */
  readonly inputs: Readonly<Record<string, DeclaredField>>;
  /** Every output (`outputs` of the description), each with its documentation. */
  readonly outputs: Readonly<Record<string, DeclaredOutput>>;
}

export interface KindDescription {
  /** Program fields whose change updates the resource in place. */
  readonly inPlace: readonly string[];
  /** Program fields whose change is in place under the condition given, and replaces the resource otherwise. */
  readonly inPlaceWhen: Readonly<Record<string, string>>;
  /** Program fields whose change replaces the resource. */
  readonly replace: readonly string[];
  /** Program fields read only when the resource is created (a take-over): neither recorded nor compared after. */
  readonly readAtCreateOnly: readonly string[];
  /** What the provider takes for a field the program leaves out, where that is a fixed value. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Every output a resource of the kind records, camelCase; the SDK class declares exactly these. */
  readonly outputs: readonly string[];
  /** Outputs kept secret in the state. */
  readonly secretOutputs: readonly string[];
  /** Each input and output with its rule and documentation, for the provider plugin's schema. */
  readonly declaration: KindDeclaration;
}
