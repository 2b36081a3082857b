/**
 * What every resource kind's one description gives its readers: the SDK
 * class (its outputs and secrets), check and diff (how each change applies,
 * and the defaults), the README's tables (test/unit/kind-descriptions.test.ts
 * compares them), and next the provider plugin's schema. Each kind derives
 * these lists from its wire schemas (notebook.ts, resource-group.ts).
 */
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
}
