import * as pulumi from "@pulumi/pulumi";
import { notebookKind, notebookSecretParts } from "../client/wire/notebook";
import { autoNameSuffix, ownerMark, seedOutputs } from "./forward";
import { secretPathsOf } from "./secret-paths";
import { NotebookProperties, type NotebookFieldArgs } from "./notebook.generated";
import type { ImageSecret } from "./types";

/**
 * Arguments of {@link Notebook}: every field of its field table
 * (client/wire/notebook-fields.ts), the create-notebook body of the API
 * (platform-api A4.2) in camelCase and the provider's own, as
 * sdk/notebook.generated.ts declares them; the registry credentials also take
 * `passwordFromEnv`.
 *
 * In place: `stopTime`, `autoDeleteTime`, `image`/`imageType`/`customImageSecret`,
 * `desiredState`, `waitForReady`, `readyTimeoutSeconds`, and `replicaSpecs` when
 * it names a sku in `specs` (applied by stop and start). Any other change
 * replaces the notebook.
 */
export type NotebookArgs = Omit<NotebookFieldArgs, "customImageSecret"> & {
  /**
   * Credentials of a custom image registry: `hasAuth`, `username`, and either `password` (kept as a secret
   * input) or `passwordFromEnv`, the name of an environment variable the provider reads where pulumi runs,
   * which keeps the password out of the engine entirely (its `-v=9` logs print secret inputs). Username and
   * password are required when `hasAuth` is true. The state records a keyed digest of the password, never
   * the password.
   */
  customImageSecret?: pulumi.Input<ImageSecret & { passwordFromEnv?: pulumi.Input<string> }>;
};

/** What {@link Notebook.get} needs besides the uuid. */
export interface NotebookLookup {
  /** Namespace of the notebook. Default: `aicp:userId` in lower case. */
  namespace?: pulumi.Input<string>;
}

// Every output, from the kind's description (client/wire/notebook.ts notebookKind).
const outputNames = notebookKind.outputs;

/** Outputs kept secret in the state; env values often hold tokens, so the whole list is secret (an input too). */
const secretOutputs = [...notebookKind.secretOutputs];

/** The parts of the registry credentials that are secret (client/wire/notebook.ts notebookSecretParts). */
const secretParts = notebookSecretParts.customImageSecret ?? [];

/** `value` with each of `parts` that it holds marked secret on its own. */
function withSecretParts<T extends object>(value: T, parts: readonly string[]): T {
  const marked = { ...value };
  for (const part of parts) if (Reflect.get(marked, part) !== undefined) Reflect.set(marked, part, pulumi.secret(Reflect.get(marked, part)));
  return marked;
}

/**
 * A notebook (container instance) on the AICP platform, running jupyter,
 * code_server or rstudio from an image on the resources of `replicaSpecs`. The
 * resource id is the notebook's `uuid`. Create waits until it is Running (or
 * Stopped when `desiredState` says so), failing with the platform's reason.
 * Passwords are never written to the state: the registry password is kept as
 * a secret input only, and server passwords come from getNotebookServers.
 *
 * @example
 * const nb = new aicp.Notebook("research", {
 *   chargeMode: "elastic",
 *   duration: 3600,
 *   image: "jupyter/pytorch:2.3",
 *   imageType: "official",
 *   serverType: "jupyter",
 *   replicaSpecs: { specs: template.rgNodeId, rgId: template.rgId, customGpu: 1 },
 *   stopTime: "2026-12-31T18:00:00Z",
 * });
 * export const url = nb.wsUrl;
 */
export class Notebook extends NotebookProperties {
  /**
   * Reads an existing notebook into the program by its uuid, without managing
   * it: its outputs, read again on every run. Fails, naming the uuid, when the
   * namespace holds no such notebook. To manage an existing notebook, use
   * `adoptId`.
   *
   * @example
   * const shared = aicp.Notebook.get("shared", "nb-0123456789ab");
   * export const sharedStatus = shared.status;
   */
  static get(name: string, id: pulumi.Input<string>, lookup: NotebookLookup = {}, opts?: pulumi.CustomResourceOptions): Notebook {
    return new Notebook(name, { namespace: lookup.namespace } as NotebookArgs, { ...opts, id });
  }

  /** A new notebook, or with `opts.id` (what {@link Notebook.get} does) one read by its uuid. */
  constructor(name: string, args: NotebookArgs, opts?: pulumi.CustomResourceOptions) {
    if (opts?.id !== undefined) {
      // Read by id: the provider's read looks it up (and fails clearly when it is not there); nothing is created.
      super(
        "Notebook",
        name,
        { ...seedOutputs(outputNames), namespace: args?.namespace, readById: true },
        pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }),
      );
      return;
    }
    const { customImageSecret, envs, ...rest } = args;
    super(
      "Notebook",
      name,
      {
        ...seedOutputs(outputNames),
        ...rest,
        // The registry password is secret even when the program passes it in plain
        // text: the parts the table names secret are marked, and the engine then
        // receives the credentials as one secret (test/unit/sdk-secrets.test.ts).
        customImageSecret: customImageSecret === undefined ? undefined : pulumi.output(customImageSecret).apply((s) => s && withSecretParts(s, secretParts)),
        // Env values often hold tokens: the list is a secret input as it is a secret output, the same as through the plugin.
        envs: envs === undefined ? undefined : pulumi.secret(envs),
        logicalName: name,
        autoNameSuffix: autoNameSuffix("Notebook", name, opts?.parent),
        ownerMark: ownerMark("Notebook", name, opts?.parent),
        secretInputs: secretPathsOf(args),
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }),
    );
  }
}
