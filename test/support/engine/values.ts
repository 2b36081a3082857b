/**
 * Values as the engine carries them between the program, the state and the
 * provider (stack.ts): unknowns in a preview, secrets marked and encrypted in
 * the checkpoint, ignored properties put back.
 */
type Props = Record<string, unknown>;

const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const secretKey = "4dabf18193072939515e22adb298388d";
const secretMark = "1b47061264138c4ac30d75fd1eb44270";

/** True for a value a preview does not know yet. */
export function isUnknown(value: unknown): boolean {
  return value === unknown;
}

/** Inputs with each ignored property put back to its recorded value (the engine's processIgnoreChanges, top-level paths). */
export function withIgnored(news: Props, olds: Props, ignoreChanges: string[]): Props {
  const out = { ...news };
  for (const key of ignoreChanges) {
    if (key in olds) out[key] = olds[key];
    else delete out[key];
  }
  return out;
}

/**
 * What a preview records of a resource it would create or update, from a
 * provider that does not support preview (the plugin's Configure says so):
 * the checked inputs stand as its outputs (provider_plugin.go Create and
 * Update with req.Preview), with the id of an update; the program reads every
 * other output, the id of a create included, as unknown (the SDKs resolve a
 * missing output as unknown in a preview).
 */
export function previewOutputs(inputs: Props, id?: string): Props {
  const known: Props = id === undefined ? { ...inputs } : { ...inputs, id };
  return new Proxy(known, { get: (target, key) => (typeof key === "string" && !(key in target) ? unknown : target[key as string]) });
}

/** A program input marked secret, as the engine sends it (`pulumi.secret(…)`, YAML's `fn::secret`). */
export function secret(value: unknown): Props {
  return { [secretKey]: secretMark, value };
}

/** `value` with each value marked secret replaced by what `onSecret` makes of the value inside. */
function mapSecrets(value: unknown, onSecret: (inner: unknown) => unknown): unknown {
  if (value !== null && typeof value === "object" && (value as Props)[secretKey] === secretMark) return onSecret((value as Props).value);
  if (Array.isArray(value)) return value.map((v) => mapSecrets(v, onSecret));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSecrets(v, onSecret)]));
  return value;
}

/** A value as the checkpoint holds it: what is marked secret encrypted. */
export function encrypted(value: unknown): unknown {
  return mapSecrets(value, () => ({ [secretKey]: secretMark, ciphertext: "[secret]" }));
}

/** A recorded value without its secret mark (what `pulumi stack output --show-secrets` prints). */
export function plain(value: unknown): unknown {
  return mapSecrets(value, plain);
}
