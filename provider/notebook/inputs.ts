/**
 * Notebook inputs: validation (check), the wire body for create, and diff.
 *
 * Diff rules: stop time, auto-delete time, image (with its type and registry
 * secret), desired state, the wait settings, and replica specs that carry a
 * sku id (applied by stop + start) change in place; any other change replaces
 * the notebook and is named in `replaces`. An optional input the user leaves
 * out is not compared (the platform's value stands), and nested objects are
 * compared only on the fields the user set, so defaults and fields the platform
 * adds never show as changes.
 */
import * as wire from "../../client/wire";
import { snakeToCamel, type Camelized } from "../../client/case";
import type { Settings } from "../../client/config";
import { camelPath, ofDerivedName, resolveMark, resolveName, sameValue, validateAgainst, type CheckFailure } from "../inputs";
import { providerEnvNames } from "../ownership";
import { isRecordedSecret } from "../secrets";
import { AicpError, rememberSecret } from "../../client/errors";
import { instantOf, parseZone, zoneOf } from "../../client/times";
import type { NotebookOutputs } from "./outputs";
import { clearableKeys, sameInstant } from "./times";

type WireBody = wire.CreateNotebookRequest;

/** The create-notebook body fields, in camelCase, as a user writes them. */
type NotebookBody = Camelized<WireBody>;

export interface NotebookInputs extends Partial<NotebookBody> {
  logicalName: string;
  /** Suffix of the auto-name, derived by the SDK (see sdk/forward.ts). */
  autoNameSuffix?: string;
  autoNamed?: boolean;
  /** This resource's mark, derived by the SDK and kept once recorded (see ownership.ts). */
  ownerMark?: string;
  /** `Running` (default) or `Stopped`; `Failed` only as a refresh recorded it, kept by ignoreChanges (the status is then left alone). */
  desiredState?: "Running" | "Stopped" | "Failed";
  waitForReady?: boolean;
  readyTimeoutSeconds?: number;
  /** uuid of an existing notebook to take over at create (see notebook/preview.ts planAdoption). */
  adoptId?: string;
  /** Paths of the arguments the program marked secret, sent by the SDK (sdk/secret-paths.ts) and recorded in the outputs. */
  secretInputs?: string[];
}

/** The provider's defaults, from the kind's description (client/wire/notebook.ts notebookKind). */
export const defaults = wire.notebookKind.defaults;

/**
 * Largest create body the provider sends. The platform documents no limit;
 * gateways commonly refuse bodies over 1 MiB with HTTP 413, and the emulator
 * does (emulator/body.ts), so a larger body is refused in check, before any request.
 */
export const maxBodyBytes = 1024 * 1024;

/** Fields of the create body; everything in NotebookInputs that is not listed here is provider-only. */
export const bodyKeys = Object.keys(wire.createNotebookRequest.shape).map(snakeToCamel);

/** What the state recorded of a notebook, as diff reads it: any field may hold what the platform sent, of any type (platform-api B5). */
export type RecordedNotebook = { readonly [K in keyof NotebookOutputs]?: unknown };

/** Fields the SDK derives for every resource (sdk/forward.ts, sdk/secret-paths.ts), which no program sets. */
const identityFields = ["logicalName", "autoNamed", "autoNameSuffix", "ownerMark", "secretInputs"] as const;

/** The value of property `key` of an inputs or outputs object, by a name known only at run time. */
export const fieldOf = (value: object, key: string): unknown => Reflect.get(value, key);

/** Fields updated in place, from the kind's description (client/wire/notebook.ts notebookKind). */
export const inPlaceKeys = wire.notebookKind.inPlace;

/** Registry credentials as a program gives them: the password, or the name of a variable holding it. */
export type ImageSecretInput = NonNullable<NotebookBody["customImageSecret"]> & { passwordFromEnv?: string };

/**
 * The registry credentials with the password read from the provider process's
 * environment when `passwordFromEnv` names a variable. A password that never
 * passes through the Pulumi engine cannot show up in its verbose logs.
 */
export function resolveImageSecret(secret: ImageSecretInput | undefined): NotebookBody["customImageSecret"] {
  if (!secret || secret.passwordFromEnv === undefined) {
    rememberSecret(secret?.password);
    return secret;
  }
  const { passwordFromEnv, ...rest } = secret;
  rememberSecret(process.env[passwordFromEnv]);
  return { ...rest, password: process.env[passwordFromEnv] };
}

/** An env as a program gives it: its value, or the name of a variable holding it. */
export type EnvInput = { name?: unknown; value?: unknown; valueFromEnv?: unknown };

/**
 * The envs with each value read from the provider process's environment where
 * `valueFromEnv` names a variable (undefined when it is not set: check says
 * so). A value that never passes through the Pulumi engine cannot show up in
 * its verbose logs, nor in the code `pulumi import` writes.
 */
export function resolveEnvs(envs: unknown): unknown {
  if (!Array.isArray(envs)) return envs;
  return envs.map((env: unknown) => {
    if (env === null || typeof env !== "object" || !("valueFromEnv" in env)) return env;
    const { valueFromEnv, ...rest } = env as EnvInput;
    const value = typeof valueFromEnv === "string" ? process.env[valueFromEnv] : undefined;
    rememberSecret(value);
    return { ...rest, value };
  });
}

/** Failures of envs given by `valueFromEnv`: both forms given, or a variable not set where pulumi runs. */
function envSourceFailures(envs: unknown): CheckFailure[] {
  if (!Array.isArray(envs)) return [];
  return envs.flatMap((env: EnvInput, i): CheckFailure[] => {
    if (env === null || typeof env !== "object") return [];
    const property = `envs[${i}]`;
    if (env.valueFromEnv !== undefined && env.value !== undefined) {
      return [{ property, reason: `${property}: value and valueFromEnv are exclusive: give one` }];
    }
    if (env.valueFromEnv === undefined && env.value === undefined) return [{ property, reason: `${property}: give value or valueFromEnv` }];
    if (typeof env.valueFromEnv === "string" && process.env[env.valueFromEnv] === undefined) {
      return [
        {
          property: `${property}.valueFromEnv`,
          reason:
            `${property}.valueFromEnv names ${env.valueFromEnv}, which is not set where pulumi runs (the provider reads the value of env ` +
            `${String(env.name)} from its environment): set it, e.g. from a secret of your pipeline`,
        },
      ];
    }
    return [];
  });
}

/** Extracts the camelCase create body from the inputs. */
export function bodyOf(inputs: NotebookInputs): Record<string, unknown> {
  // null is an output placeholder (notebook/outputs.ts), never a program's value.
  const body = Object.fromEntries(bodyKeys.map((k) => [k, fieldOf(inputs, k)]).filter(([, value]) => value !== undefined && value !== null));
  if (body.envs !== undefined) body.envs = resolveEnvs(body.envs);
  // Env values often hold tokens: a platform error echoing the body must not print them.
  if (Array.isArray(body.envs)) for (const env of body.envs as Array<{ value?: unknown }>) rememberSecret(env?.value);
  if (body.customImageSecret !== undefined) body.customImageSecret = resolveImageSecret(body.customImageSecret as ImageSecretInput);
  return body;
}

/** Validates and normalizes inputs: auto-name, namespace and user id from configuration. */
export function checkNotebook(
  olds: Partial<NotebookInputs>,
  news: NotebookInputs,
  settings: Settings,
  learnedZone?: number,
): { inputs: NotebookInputs; failures: CheckFailure[] } {
  const inputs: NotebookInputs = { ...news, ...resolveName(news, olds), ownerMark: resolveMark(news, olds) };
  if (inputs.ownerMark === undefined) delete inputs.ownerMark;
  // The recorded place, as the mark (its notebooks state it: ownership.ts placeEnvName); a rename or a moved stack derives another.
  if (typeof olds.autoNameSuffix === "string" && olds.autoNameSuffix !== "") inputs.autoNameSuffix = olds.autoNameSuffix;
  const failures: CheckFailure[] = [];
  const configuredUser = settings.userId;
  inputs.userId ??= configuredUser;
  inputs.namespace ??= configuredUser?.toLowerCase();
  // Written out, so a preview after a refresh shows a stop or failure outside Pulumi as `"Stopped" => "Running"`.
  inputs.desiredState ??= defaults.desiredState;
  // The namespace defaults from the user id: with neither, the user id is the one thing to ask for.
  if (!inputs.userId) failures.push({ property: "userId", reason: "userId is required: pass it, or set aicp:userId (env CORESHUB_USER_ID) to default it" });
  else if (!inputs.namespace) {
    failures.push({
      property: "namespace",
      reason: "namespace is required: pass it, or set aicp:userId (env CORESHUB_USER_ID), whose lower case it defaults to",
    });
  }
  // The platform makes a notebook for the keys' own user only: another user fails at create, with advice about the keys.
  // Only where a create follows (a new resource, or a changed userId, which replaces it): an existing one sends nothing under it.
  const creates = Object.keys(olds).length === 0 || olds.userId !== news.userId;
  if (creates && typeof news.userId === "string" && configuredUser && news.userId.toLowerCase() !== configuredUser.toLowerCase()) {
    failures.push({
      property: "userId",
      reason:
        `userId '${news.userId}' is not the user the provider acts for (aicp:userId '${configuredUser}', whose access keys sign the ` +
        "requests): leave userId out to take aicp:userId, or configure that user's keys and id",
    });
  }
  // A state a refresh observed (Failed), kept by ignoreChanges: the program leaves the status to the platform.
  const keptObservation = news.desiredState === "Failed" && olds.desiredState === "Failed";
  const providerFailures: CheckFailure[] = [];
  for (const [key, rule] of Object.entries(wire.providerFields)) {
    const value = fieldOf(news, key);
    if (value === undefined || (key === "desiredState" && keptObservation)) continue;
    const verdict = rule.safeParse(value);
    if (!verdict.success) providerFailures.push({ property: key, reason: `${key} ${verdict.error.issues[0]?.message ?? "is not valid"}` });
  }
  // What is read only at create (adoptId) is reported after the program's own fields.
  const readAtCreate = new Set<string>(wire.notebookKind.readAtCreateOnly);
  failures.push(...providerFailures.filter((f) => !readAtCreate.has(f.property)));
  const secret = news.customImageSecret as ImageSecretInput | undefined;
  if (secret?.passwordFromEnv !== undefined) {
    if (secret.password !== undefined) {
      failures.push({
        property: "customImageSecret.passwordFromEnv",
        reason: "customImageSecret.passwordFromEnv and customImageSecret.password are exclusive: give one",
      });
    } else if (!process.env[secret.passwordFromEnv]) {
      failures.push({
        property: "customImageSecret.passwordFromEnv",
        reason:
          `customImageSecret.passwordFromEnv names ${secret.passwordFromEnv}, which is not set where pulumi runs (the provider reads it from its ` +
          `environment)`,
      });
    }
  }
  for (const key of clearableKeys) {
    const value = news[key];
    // A time kept from an earlier run may have passed since: only a new one is checked.
    const platformZone = settingsZone(settings) ?? learnedZone;
    if (typeof value !== "string" || sameInstant(olds[key], value, platformZone)) continue;
    // A time without a zone in a zone not known yet: past if it is past in the easternmost zone (+14:00), the earliest reading.
    const at = instantOf(value, zoneOf(value) ?? platformZone ?? 14 * 60);
    if (!Number.isNaN(at) && at <= Date.now()) {
      failures.push({
        property: key,
        reason:
          key === "autoDeleteTime"
            ? `autoDeleteTime ${value} is in the past, which would delete the notebook at once: give a future time, or delete it with \`pulumi destroy\` ` +
              `(or by removing the resource)`
            : `stopTime ${value} is in the past, which would stop the notebook at once: give a future time, or set desiredState: "Stopped"`,
      });
    }
  }
  failures.push(...envSourceFailures(news.envs));
  for (const reserved of providerEnvNames) {
    if (Array.isArray(news.envs) && news.envs.some((e) => (e as { name?: unknown })?.name === reserved)) {
      failures.push({ property: "envs", reason: `envs must not set ${reserved}: the provider keeps this resource's create evidence there` });
    }
  }
  failures.push(...providerFailures.filter((f) => readAtCreate.has(f.property)));
  const keptSecret = isRecordedSecret(secret);
  if (keptSecret && !sameValue(olds.customImageSecret, secret)) {
    failures.push({
      property: "customImageSecret.passwordDigest",
      reason: "customImageSecret.passwordDigest is what the provider records: give customImageSecret.password or passwordFromEnv",
    });
  } else if (keptSecret && (news.image !== olds.image || news.imageType !== olds.imageType)) {
    failures.push({
      property: "customImageSecret",
      reason:
        "customImageSecret is kept from the state (ignoreChanges), which holds only a digest of the password, and a new image is sent with the registry " +
        "password: " +
        "give customImageSecret.password or passwordFromEnv in the program for this change",
    });
  }
  const known = new Set<string>([...bodyKeys, ...Object.keys(wire.notebookFields), ...identityFields, "__provider"]);
  for (const key of Object.keys(news)) {
    if (!known.has(key) && fieldOf(news, key) !== undefined) {
      failures.push({ property: key, reason: `${key} is not a Notebook argument` });
    }
  }
  // A missing user id is the one failure of a namespace left to default from it (above).
  const reported = new Set([...failures.map((f) => f.property), ...(inputs.userId || news.namespace ? [] : ["namespace"])]);
  // An env reported for how its value is given is not reported again for the value that is then missing.
  const reportedEnvs = failures.map((f) => /^envs\[\d+\]/.exec(f.property)?.[0]).filter((p) => p !== undefined);
  const { customImageSecret: _kept, ...withoutKeptSecret } = bodyOf(inputs);
  for (const failure of validateAgainst(wire.createNotebookRequest, keptSecret ? withoutKeptSecret : bodyOf(inputs)).failures) {
    if (!reported.has(failure.property) && !reportedEnvs.some((env) => failure.property.startsWith(env)))
      failures.push(ofDerivedName(failure, inputs, news.logicalName));
  }
  const body = bodyOf(inputs);
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > maxBodyBytes) {
    // Named against the field that makes it large, so the engine points at the line to change.
    const [largest, size] = Object.entries(body)
      .map(([key, value]): [string, number] => [key, Buffer.byteLength(JSON.stringify(value) ?? "")])
      .reduce((a, b) => (b[1] > a[1] ? b : a));
    const count = (n: number) => n.toLocaleString("en-US");
    failures.push({
      property: largest,
      reason:
        `the notebook's create request would be ${count(bytes)} bytes, of which ${largest} holds ${count(size)} bytes; at most ${count(maxBodyBytes)} ` +
        `(1 MiB) is sent: move large scripts (pip, conda, apt, customFirst, customSecond, envs) into the image or a volume`,
    });
  }
  return { inputs, failures };
}

/** The configured zone of bare date-times, in minutes east of UTC, if any. */
function settingsZone(settings: Settings): number | undefined {
  return settings.platformTimeZone === undefined ? undefined : parseZone(settings.platformTimeZone);
}

/** The validated wire body for create. */
export function wireBody(inputs: NotebookInputs): wire.CreateNotebookRequest {
  if (isRecordedSecret(inputs.customImageSecret)) {
    throw new AicpError(
      "AICP_VALIDATION",
      "customImageSecret is kept from the state (ignoreChanges), which holds only a digest of the registry password; a create sends the password: " +
        "give customImageSecret.password or passwordFromEnv in the program. Nothing was sent.",
    );
  }
  const result = validateAgainst(wire.createNotebookRequest, bodyOf(inputs));
  if (!result.wire)
    throw new AicpError("AICP_VALIDATION", `invalid notebook inputs; nothing was sent to the platform: ${result.failures.map((f) => f.reason).join("; ")}`);
  return result.wire;
}

export { camelPath };
