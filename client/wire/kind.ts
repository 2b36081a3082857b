/**
 * What every resource kind's one description gives its readers: the SDK
 * class (its outputs and secrets), check and diff (how each change applies,
 * and the defaults), docs/resources.md's tables (test/unit/kind-descriptions.test.ts
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

/**
 * How a change of a field applies: by the platform write named (in place;
 * `Write` is the kind's writes), `record` for a provider setting that sends
 * nothing, `replace` for a new object, and `createOnly` for what is read only
 * when the resource is created.
 */
export type FieldChange<Write extends string> = Write | "record" | "replace" | "createOnly";

/**
 * One field of a kind's table, the same for every kind (notebook-fields.ts,
 * resource-group.ts): where it travels, its rule, how a change applies, its
 * default, its secrecy and its documents. Everything the kind's readers need
 * of a field derives from this.
 */
export interface FieldDescription<Write extends string, Wire extends string = string> {
  /** The create request's field it travels as; absent for the provider's own fields. */
  readonly wire?: Wire;
  /** Its name in the body of the in-place write that changes it, where that is not `wire`. */
  readonly writeAs?: string;
  /** The rule a program's value meets, where the kind's create request does not give it (the provider's own fields). */
  readonly schema?: z.ZodType;
  /** The program's form, where it differs from the request's (the provider reads it before sending): what the plugin's schema declares. */
  readonly program?: z.ZodType;
  /** The program's form to the request's, and back, where the two differ. */
  readonly encode?: (value: never) => unknown;
  readonly decode?: (value: unknown) => unknown;
  readonly change: FieldChange<Write>;
  /** For a conditional in-place change: the condition (the change replaces the object otherwise). */
  readonly inPlaceWhen?: string;
  /** What the provider takes when the program leaves the field out. */
  readonly default?: unknown;
  /** A field the request requires that a program may leave out: the provider fills it (from configuration, or an auto-name). */
  readonly filled?: true;
  /** Kept secret in the state. */
  readonly secret?: boolean;
  /** Parts of an object field that are secret wherever the value goes (a password inside credentials). */
  readonly secretParts?: readonly string[];
  /** What the field is, for the SDK's and the schema's documentation. */
  readonly doc: string;
  /** What the output records, where that is not the program's value as given (the platform's form, a digest). */
  readonly outputDoc?: string;
}
