import * as pulumi from "@pulumi/pulumi";
import { notebookKind } from "../client/wire/notebook";
import { autoNameSuffix, ForwardedResource, ownerMark, seedOutputs } from "./forward";
import type { InputsOf, ImageSecret, NotebookBody, NotebookInfo, NotebookServerSummary, ReplicaSpecs, VolumeSpec } from "./types";

/**
 * Arguments of {@link Notebook}: every field of the create-notebook body of the
 * API (platform-api A4.2) in camelCase, plus how the provider waits.
 *
 * In place: `stopTime`, `autoDeleteTime`, `image`/`imageType`/`customImageSecret`,
 * `desiredState`, `waitForReady`, `readyTimeoutSeconds`, and `replicaSpecs` when
 * it names a sku in `specs` (applied by stop and start). Any other change
 * replaces the notebook.
 */
export type NotebookArgs = InputsOf<Omit<NotebookBody, "name" | "namespace" | "userId" | "service" | "action" | "zone" | "owner" | "customImageSecret">> & {
  /**
   * Credentials of a custom image registry: `hasAuth`, `username`, and either
   * `password` (kept as a secret input) or `passwordFromEnv`, the name of an
   * environment variable the provider reads where pulumi runs. The latter keeps
   * the password out of the engine entirely (its `-v=9` logs print secret
   * inputs). Username and password are required when `hasAuth` is true. In place.
   */
  customImageSecret?: pulumi.Input<ImageSecret & { passwordFromEnv?: pulumi.Input<string> }>;
  /**
   * Instance name. Default: the resource name plus a 7-character suffix derived
   * from this stack's random id, the resource name and its parent (the same on
   * every run, different in every other stack). A name you set must not be held
   * in the namespace by a notebook this resource did not create: the provider
   * adopts only a notebook carrying this resource's mark (env `PULUMI_AICP_MARK`).
   */
  name?: pulumi.Input<string>;
  /** Namespace that owns the notebook. Default: `aicp:userId` in lower case. */
  namespace?: pulumi.Input<string>;
  /** User id. Default: `aicp:userId`. */
  userId?: pulumi.Input<string>;
  /** `Running` (default) or `Stopped`: the provider stops or starts the notebook to match. */
  desiredState?: pulumi.Input<"Running" | "Stopped">;
  /** Wait for the desired state on create and update. Default: true. */
  waitForReady?: pulumi.Input<boolean>;
  /** How long to wait for the desired state, in seconds. Default: 600. */
  readyTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Takes over an existing notebook by its uuid instead of creating one (one
   * made in the console, or one whose state was lost). Preview warns what the
   * take-over will change to match the program; `up` changes it in place and
   * manages it from then on. A difference that needs a replacement, a
   * different name, or a notebook made by another Pulumi resource is refused,
   * with nothing changed. Read only when the resource is created; keep it in
   * the program. (With the provider plugin, `pulumi import` works too; with
   * the package's dynamic resources it does not: see the README.)
   */
  adoptId?: pulumi.Input<string>;
};

/** What {@link Notebook.get} needs besides the uuid. */
export interface NotebookLookup {
  /** Namespace of the notebook. Default: `aicp:userId` in lower case. */
  namespace?: pulumi.Input<string>;
}

// Every output, from the kind's description (client/wire/notebook.ts notebookKind).
const outputNames = notebookKind.outputs;

/** Outputs kept secret in the state; env values often hold tokens, so the whole list is secret. */
const secretOutputs = [...notebookKind.secretOutputs];

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
export class Notebook extends ForwardedResource {
  /** Unique id of the notebook (also the resource id), at most 36 characters. */
  declare readonly uuid: pulumi.Output<string>;
  /** State on the platform: Pending, Running, Stopped, Failed, … */
  declare readonly status: pulumi.Output<string>;
  /** Reason of the last state change, when given. */
  declare readonly reason: pulumi.Output<string | undefined>;
  /** WebSocket service address (path form). */
  declare readonly wsUrl: pulumi.Output<string | undefined>;
  /** Connection information. */
  declare readonly server: pulumi.Output<string | undefined>;
  /**
   * Servers of the notebook (protocol, name, type, url, port, status). Their
   * passwords are not kept in the state: read them with getNotebookServers.
   */
  declare readonly servers: pulumi.Output<NotebookServerSummary[] | undefined>;
  declare readonly podIps: pulumi.Output<unknown[] | undefined>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  /** Accumulated running time in seconds. */
  declare readonly runningTime: pulumi.Output<number | undefined>;
  declare readonly userName: pulumi.Output<string | undefined>;
  declare readonly email: pulumi.Output<string | undefined>;
  declare readonly kuid: pulumi.Output<string | undefined>;
  declare readonly rootUserId: pulumi.Output<string | undefined>;
  declare readonly chargeMode: pulumi.Output<"elastic" | "monthly">;
  declare readonly duration: pulumi.Output<number>;
  declare readonly autoRenew: pulumi.Output<0 | 1 | undefined>;
  declare readonly nextChargeMode: pulumi.Output<string | undefined>;
  declare readonly userId: pulumi.Output<string>;
  declare readonly namespace: pulumi.Output<string>;
  declare readonly image: pulumi.Output<string>;
  declare readonly imageType: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly serverType: pulumi.Output<string>;
  declare readonly envs: pulumi.Output<NotebookInfo["envs"]>;
  declare readonly stopTime: pulumi.Output<string | undefined>;
  declare readonly autoDeleteTime: pulumi.Output<string | undefined>;
  /** Replica specification as the platform returned it. */
  declare readonly replicaSpecs: pulumi.Output<NonNullable<NotebookInfo["replicaSpecs"]> & Partial<ReplicaSpecs>>;
  /** Mounted volumes as the platform returned them. */
  declare readonly volumeSpecs: pulumi.Output<Array<NonNullable<NotebookInfo["volumeSpecs"]>[number] & Partial<VolumeSpec>> | undefined>;
  /** Registry credentials as recorded: `hasAuth`, `username` and a keyed digest of the password (never the password). */
  declare readonly customImageSecret: pulumi.Output<(Omit<ImageSecret, "password"> & { passwordDigest?: string }) | undefined>;
  declare readonly pip: pulumi.Output<string | undefined>;
  declare readonly conda: pulumi.Output<string | undefined>;
  declare readonly apt: pulumi.Output<string | undefined>;
  declare readonly customFirst: pulumi.Output<string | undefined>;
  declare readonly customSecond: pulumi.Output<string | undefined>;
  /**
   * The program's desiredState; after a refresh, the state the platform holds
   * when it differs (`Stopped`, or `Failed`), which the next `up` repairs.
   */
  declare readonly desiredState: pulumi.Output<"Running" | "Stopped" | "Failed" | undefined>;
  declare readonly waitForReady: pulumi.Output<boolean | undefined>;
  declare readonly readyTimeoutSeconds: pulumi.Output<number | undefined>;

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
      super("Notebook", name, { ...seedOutputs(outputNames), namespace: args?.namespace, readById: true }, pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }));
      return;
    }
    const { customImageSecret, ...rest } = args;
    super(
      "Notebook",
      name,
      {
        ...seedOutputs(outputNames),
        ...rest,
        // The registry password is secret even when the program passes it in plain
        // text. It is marked as a secret value of its own, not the whole object: the
        // engine logs an object's fields one by one at high verbosity.
        customImageSecret:
          customImageSecret === undefined
            ? undefined
            : pulumi.output(customImageSecret).apply((s) => s && { ...s, password: s.password === undefined ? undefined : pulumi.secret(s.password) }),
        logicalName: name,
        autoNameSuffix: autoNameSuffix("Notebook", name, opts?.parent),
        ownerMark: ownerMark("Notebook", name, opts?.parent),
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }),
    );
  }
}
