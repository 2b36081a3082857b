/**
 * The guardrails' own policy runtime: runs the pack's CrossGuard policies
 * (policies.ts) on the resources the engine sends, as @pulumi/policy's
 * server does, without loading @pulumi/policy's server or @pulumi/pulumi
 * (about a second of every preview's start, bench/README.md). What it
 * keeps of that server's behaviour, so both ways of running the pack report
 * the same: a policy's level is its configuration's, else its own, else the
 * pack's; `disabled` runs nothing; a violation's message is the policy's
 * description, a line break, and the rule's message; an input a preview does
 * not know yet, read by a policy, turns that policy's result into an
 * advisory "can't run … during preview"; secrets are read as their values;
 * a violation reported as an object keeps its own level (the GPU-hour
 * summary's advisory, whatever the engine's `all` key sets).
 *
 * What it adds: a string the engine sent as a secret is shown as `[secret]`
 * in every message (@pulumi/policy's server cannot, since it hands policies
 * plain values and keeps no record of which were secrets).
 */
import type { Policies, Policy, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { shownInputs } from "./rules";

// @pulumi/policy's light module (no @pulumi/pulumi): the same unknown-checking view of inputs its server gives policies.
const { unknownCheckingProxy, UnknownValueError } = require("@pulumi/policy/proxy") as {
  unknownCheckingProxy<T>(value: T): T;
  UnknownValueError: new () => Error;
};

export type EnforcementLevel = "advisory" | "mandatory" | "disabled" | "remediate";

/** One violation, as the engine prints it. */
export interface Violation {
  policyName: string;
  policyPackName: string;
  policyPackVersion: string;
  description: string;
  message: string;
  enforcementLevel: Exclude<EnforcementLevel, "disabled" | "remediate">;
  urn?: string;
}

/** A resource as the engine describes it: its inputs (Analyze) or outputs (AnalyzeStack), plain JSON from the wire. */
export interface AnalyzedResource {
  type: string;
  name: string;
  urn: string;
  properties: Record<string, unknown>;
}

/** The configuration of one policy the engine sends (from `--policy-pack-config`): its level and its settings. */
export type PolicyConfig = { enforcementLevel?: EnforcementLevel } & Record<string, unknown>;

// The engine's wire form of a secret (sdk/proto/resource.proto: a special signature and the value).
const signatureKey = "4dabf18193072939515e22adb298388d";
const secretSignature = "1b47061264138c4ac30d75fd1eb44270";

/** The value with every secret replaced by what it holds: policies read secrets as plain values. */
export function withSecretsRead(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSecretsRead);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[signatureKey] === secretSignature) return withSecretsRead(record.value);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, withSecretsRead(item)]));
}

/**
 * The strings inside the secrets of the `inputs` of `properties` (the wire
 * form), longest first: what a message must not show. Only the inputs a
 * message may show count (rules.ts shownInputs): a secret elsewhere (an env,
 * another resource's kubeconfig) never reaches a message, and hiding its
 * text would hide the same text where it means something else.
 */
export function secretStrings(properties: Record<string, unknown>, inputs: readonly string[] = shownInputs): string[] {
  const found = new Set<string>();
  const walk = (item: unknown, secret: boolean): void => {
    if (typeof item === "string") {
      if (secret && item !== "") found.add(item);
    } else if (Array.isArray(item)) {
      item.forEach((element) => walk(element, secret));
    } else if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      if (record[signatureKey] === secretSignature) walk(record.value, true);
      else Object.values(record).forEach((element) => walk(element, secret));
    }
  };
  for (const input of inputs) walk(properties[input], false);
  return [...found].sort((a, b) => b.length - a.length);
}

/** A character that continues a word: a secret next to one is part of something longer, not the value a message shows. */
const wordCharacter = /[\w-]/;

/**
 * `message` with each of `secrets` shown as `[secret]`: quoted as the rules
 * quote values, or standing alone (not part of a longer word, so a secret
 * "custom" leaves "customGpu" as it is). Plain text search: a secret of any
 * size or content is only text.
 */
export function hideSecrets(message: string, secrets: string[]): string {
  let text = message;
  for (const secret of secrets) {
    text = text.split(JSON.stringify(secret)).join("[secret]");
    let shown = "";
    let from = 0;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
      if (wordCharacter.test(text[at - 1] ?? "") || wordCharacter.test(text[at + secret.length] ?? "")) continue;
      shown += `${text.slice(from, at)}[secret]`;
      from = at + secret.length;
    }
    text = shown + text.slice(from);
  }
  return text;
}

/** A violation a policy reports as an object (@pulumi/policy's server takes one too): its message and level replace the policy's. */
export interface ReportedViolation {
  message?: string;
  description?: string;
  enforcementLevel?: Violation["enforcementLevel"];
  urn?: string;
}

const isResourcePolicy = (policy: Policy): policy is ResourceValidationPolicy => "validateResource" in policy && policy.validateResource !== undefined;
export const isStackPolicy = (policy: Policy): policy is StackValidationPolicy => "validateStack" in policy && policy.validateStack !== undefined;

export class PolicyRuntime {
  private config: Record<string, PolicyConfig> = {};

  constructor(
    readonly policies: Policies,
    readonly packName: string,
    readonly packVersion: string,
    readonly packLevel: EnforcementLevel = "mandatory",
  ) {}

  /** Takes the engine's configuration of each policy (Configure); a policy it does not name keeps its defaults. */
  configure(config: Record<string, PolicyConfig>): void {
    this.config = config;
  }

  /** The level a policy runs at now. */
  levelOf(policy: Policy): EnforcementLevel {
    return this.config[policy.name]?.enforcementLevel ?? policy.enforcementLevel ?? this.packLevel;
  }

  /** The resource policies' violations for one resource's inputs. */
  async analyzeResource(resource: AnalyzedResource): Promise<Violation[]> {
    const found: Violation[] = [];
    const props = unknownCheckingProxy(withSecretsRead(resource.properties) as Record<string, unknown>);
    const secrets = secretStrings(resource.properties);
    for (const policy of this.policies.filter(isResourcePolicy)) {
      await this.run(policy, found, secrets, (report) => {
        const args = { type: resource.type, name: resource.name, urn: resource.urn, props, getConfig: this.settingsOf(policy) };
        const validations = [policy.validateResource ?? []].flat();
        return Promise.all(validations.map((validate) => validate(args as never, report)));
      });
    }
    return found;
  }

  /** The stack policies' violations for the stack's resources. */
  async analyzeStack(resources: AnalyzedResource[]): Promise<Violation[]> {
    const found: Violation[] = [];
    const viewed = resources.map((r) => ({
      type: r.type,
      name: r.name,
      urn: r.urn,
      props: unknownCheckingProxy(withSecretsRead(r.properties) as Record<string, unknown>),
    }));
    const secrets = [...new Set(resources.flatMap((r) => secretStrings(r.properties)))].sort((a, b) => b.length - a.length);
    for (const policy of this.policies.filter(isStackPolicy)) {
      await this.run(policy, found, secrets, (report) => {
        return policy.validateStack!({ resources: viewed, getConfig: this.settingsOf(policy) } as never, report);
      });
    }
    return found;
  }

  /** Runs one policy at its level, adding what it reports to `found`, with `secrets` hidden. */
  private async run(
    policy: Policy,
    found: Violation[],
    secrets: string[],
    validate: (report: (message?: string | ReportedViolation, urn?: string) => void) => unknown,
  ): Promise<void> {
    const configured = this.levelOf(policy);
    if (configured === "disabled") return;
    const enforcementLevel = configured === "remediate" ? "mandatory" : configured;
    const violation = (message: string, level: Violation["enforcementLevel"], urn?: string, description = policy.description): Violation => ({
      policyName: policy.name,
      policyPackName: this.packName,
      policyPackVersion: this.packVersion,
      description,
      message: hideSecrets(message, secrets),
      enforcementLevel: level,
      ...(urn ? { urn } : {}),
    });
    const report = (message?: string | ReportedViolation, urn?: string) => {
      if (typeof message === "object") {
        // As @pulumi/policy's server reads it: the object's message as it is, without the policy's description before it.
        const description = message.description || policy.description;
        found.push(violation(message.message || description, message.enforcementLevel || enforcementLevel, message.urn, description));
      } else {
        found.push(violation(message ? `${policy.description}\n${message}` : policy.description, enforcementLevel, urn));
      }
    };
    try {
      await validate(report);
    } catch (error) {
      if (!(error instanceof UnknownValueError)) {
        const failure = `policy '${policy.name}' of ${this.packName}@v${this.packVersion} failed: ${(error as Error).stack ?? String(error)}`;
        throw new Error(hideSecrets(failure, secrets));
      }
      const from = `policy '${policy.name}' from policy pack '${this.packName}@v${this.packVersion}'`;
      found.push(violation(`can't run ${from} during preview: ${error.message}`, "advisory"));
    }
  }

  /** A policy's settings from the configuration, without its level (getConfig). */
  private settingsOf(policy: Policy) {
    return <T>(): T => {
      const { enforcementLevel: _level, ...settings } = this.config[policy.name] ?? {};
      return settings as T;
    };
  }
}
