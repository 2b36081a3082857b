/**
 * The errors a notebook's lifecycle raises beside its results: a notebook
 * made or taken over but not ready (the engine records it with its id), a
 * create still unconfirmed or past its window (create-once.ts), a notebook
 * deleted outside Pulumi, and the platform's refusals of a start or a size.
 */
import type * as wire from "../../client/wire";
import { AicpError } from "../../client/errors";
import { partlyCreated, pastWindow, stillUnconfirmed } from "../create-errors";
import { NotebookFailed } from "./wait";
import type { NotebookOutputs } from "./outputs";

/** The notebook as the platform last listed it, when `error` ended a wait or a start on a failure. */
export function lastSeen(error: unknown): wire.Notebook | undefined {
  return error instanceof NotebookFailed || error instanceof StartRefused ? error.notebook : undefined;
}

/** The error of an operation on a notebook whose create is still unconfirmed. */
export function notebookUnconfirmed(props: Partial<NotebookOutputs>, until: string, unproven?: string): AicpError {
  return stillUnconfirmed("notebook", `namespace ${String(props.namespace)}`, props, until, unproven);
}

/** The error of an operation on a notebook whose unconfirmed create's window has passed without it. */
export function notebookPastWindow(id: string, props: Partial<NotebookOutputs>, until: string, unproven?: string): AicpError {
  return pastWindow("notebook", `namespace ${String(props.namespace)}`, id, props, until, unproven);
}

/** A notebook created (or adopted) but not ready: the engine records it with this id. */
export function partlyCreatedNotebook(error: unknown, id: string, properties: Partial<NotebookOutputs> & { __provider?: string }): Error {
  return partlyCreated("notebook", error, id, properties);
}

/** The error of an update whose notebook was deleted outside Pulumi. */
export function goneOutOfBand(uuid: string, namespace: string, cause?: AicpError): AicpError {
  return new AicpError(
    "AICP_WAIT",
    `notebook ${uuid} no longer exists in namespace ${namespace} (deleted outside Pulumi); run \`pulumi refresh\` to drop it from the state, then \`pulumi ` +
      `up\` to create it again.`,
    cause ? { ...cause, cause } : {},
  );
}

/**
 * The platform will not start a Failed notebook. One that never ran holds no
 * work and is replaced by the next `up` (notebook/preview.ts diff); one that ran may
 * hold work on its disk, so only the user replaces it.
 */
export class StartRefused extends AicpError {
  constructor(
    readonly notebook: wire.Notebook,
    refusal: AicpError,
  ) {
    super(
      refusal.code,
      `the platform refused to start Failed notebook ${notebook.uuid} (${notebook.reason ?? "no reason given"}): ${refusal.message}. ` +
        "If that reason is passing (capacity, quota), run `pulumi up` again later; it starts the notebook again. " +
        "The provider replaces a Failed notebook on its own only when the platform says it never ran; this one may hold work on its disk. " +
        "Replacing it yourself (`pulumi up --replace <URN>`; `pulumi stack --show-urns` lists the URN) deletes that disk.",
      { ...refusal, cause: refusal },
    );
  }
}

/** The platform refused a new size; the notebook was put back on its old one. */
export class ResizeRefused extends AicpError {
  constructor(uuid: string, refusal: AicpError, restarted: boolean) {
    super(
      refusal.code,
      `the platform refused the new size of notebook ${uuid}: ${refusal.message}. ` +
        `${restarted ? "It was started again on its previous size" : "It keeps its previous size and is stopped"}, which the state records; ` +
        "change replicaSpecs to a size the platform accepts (or back) and run `pulumi up`.",
      { ...refusal, cause: refusal },
    );
  }
}
