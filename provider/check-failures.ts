/**
 * A check failure as the engine shows it. The engine prints a failure that
 * names a property as `property <p> value <inputs[p]> has a problem: …`,
 * looking the property up as a top-level key of the inputs: for a path
 * (`podTypes[0]`, `replicaSpecs.customGpuList`) it finds nothing and prints
 * `{<nil>}`; for a top-level key it prints the whole value, however long
 * (pkg/resource/deploy/step_generator.go issueCheckFailures). A failure
 * without a property is printed as `… has a problem: <reason>`, so the reason
 * carries the path and the value the program wrote, cut to a readable length.
 */
import type { CheckFailure } from "./inputs";
import { redact } from "../client/errors";

/** Longest rendering of a value in a message, in characters. */
export const shownValueLength = 80;

/**
 * `failure` for the engine: no property, the reason followed by the value at
 * its path (`, got "train"`). No value is shown where there is none (a
 * missing property), under a top-level key of `hiddenKeys` (secrets: env
 * values, registry credentials), or where the reason already quotes it.
 */
export function engineFailure(failure: CheckFailure, inputs: unknown, hiddenKeys: readonly string[], markedKeys: readonly string[] = []): CheckFailure {
  // What the program marked secret is cut out, in the value shown as in the reason (client/errors.ts redact).
  const shownFailure = withValue(failure, inputs, hiddenKeys);
  return { property: "", reason: redact(withoutMarkedValue(shownFailure.reason, failure.property, inputs, markedKeys)) };
}

/**
 * The reason without the value of its property where the program marked it
 * (under a top-level key of `markedKeys`): a rule's own words may quote it
 * (`cannot take over r9z`), and redact leaves out only values of 4 characters
 * or more; here the value is known, so it goes whatever its length, as a word
 * of its own.
 */
function withoutMarkedValue(reason: string, property: string, inputs: unknown, markedKeys: readonly string[]): string {
  const path = pathOf(property);
  if (path.length === 0 || !markedKeys.includes(String(path[0]))) return reason;
  const value = valueAt(inputs, path);
  if ((typeof value !== "string" && typeof value !== "number") || String(value) === "") return reason;
  const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return reason.replace(new RegExp(`(^|[\\s'"(\`])${escaped}(?=$|[\\s'",.:;)\`])`, "g"), "$1<secret>");
}

function withValue(failure: CheckFailure, inputs: unknown, hiddenKeys: readonly string[]): CheckFailure {
  const path = pathOf(failure.property);
  if (path.length === 0 || hiddenKeys.includes(String(path[0]))) return { property: "", reason: failure.reason };
  const value = valueAt(inputs, path);
  if (value === undefined || (typeof value === "string" && value !== "" && quotes(failure.reason, value))) return { property: "", reason: failure.reason };
  return { property: "", reason: `${failure.reason}, got ${shown(value)}` };
}

/**
 * A value as JSON, cut to `shownValueLength` characters with an ellipsis and
 * its whole length when longer. What the program marked secret is cut out
 * first: cut to length, a secret would no longer be whole, and redact would
 * miss what is left of it.
 */
export function shown(given: unknown): string {
  const value = typeof given === "string" ? redact(given) : given;
  const text = redact(JSON.stringify(value) ?? String(value));
  if (text.length <= shownValueLength) return text;
  const count = (n: number) => n.toLocaleString("en-US");
  if (typeof value === "string") {
    // The opening quote, as many characters as fit, the ellipsis and the closing quote.
    let kept = value.slice(0, shownValueLength - 3);
    while (JSON.stringify(kept).length > shownValueLength - 1) kept = kept.slice(0, -1);
    return `${JSON.stringify(kept).slice(0, -1)}…" (${count(value.length)} characters)`;
  }
  return `${text.slice(0, shownValueLength - 1)}… (${count(text.length)} characters of JSON)`;
}

/** `podTypes[0]`, `replicaSpecs.customGpuList` as keys and indexes; none for a property that is not a path (`(inputs)`). */
function pathOf(property: string): Array<string | number> {
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*|\[\d+\])*$/.test(property)) return [];
  return [...property.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

function valueAt(inputs: unknown, path: ReadonlyArray<string | number>): unknown {
  let at = inputs;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Whether `reason` already names `value` as a word of its own (`autoDeleteTime 2020-01-01T00:00:00Z is in the past`). */
function quotes(reason: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s'"(\`])${escaped}($|[\\s'",.:;)\`])`).test(reason);
}
