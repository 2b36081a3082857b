/**
 * A resource's customTimeouts, which the engine sends with each create,
 * update and delete (seconds; 0 where the program set none). They bound the
 * wait for a notebook's state in that one operation: the lifecycle is given
 * them as its wait limit (readyTimeoutSeconds), and what it answers carries
 * the program's own value again, so nothing of them reaches the state. A kind
 * without a wait limit of its own (a resource group, whose delete waits for
 * the group to stop being listed) is given the timeout beside its properties
 * (provider/resource-group/delete.ts engineTimeoutKey), taken out again of what it answers.
 */
import { kindDescriptions, type DescribedKind as Kind, type KindDescription } from "../client/wire";
import { engineTimeoutKey } from "../provider/resource-group/delete";

/** The input that limits a kind's waits. */
const waitLimit = "readyTimeoutSeconds";

/** An operation's properties with its timeout applied, and how to give back what the program set. */
export interface Bound {
  readonly props: Record<string, unknown>;
  /** `outs` with the wait limit the program set (or the kind's default). */
  recorded(outs: Record<string, unknown>): Record<string, unknown>;
}

/** The properties an operation of `kind` is given under the engine's timeout of `timeoutSeconds` (0: none set). */
export function boundedBy(kind: Kind, props: Record<string, unknown>, timeoutSeconds: number): Bound {
  const described = kindDescriptions[kind] as KindDescription;
  if (!(timeoutSeconds > 0)) return { props, recorded: (outs) => outs };
  if (!described.inPlace.includes(waitLimit)) {
    return {
      props: { ...props, [engineTimeoutKey]: timeoutSeconds },
      recorded: (outs) => Object.fromEntries(Object.entries(outs).filter(([key]) => key !== engineTimeoutKey)),
    };
  }
  // What the outputs hold without a timeout: the program's value, else the kind's default (every output is recorded).
  const own = props[waitLimit] ?? described.defaults[waitLimit];
  return {
    props: { ...props, [waitLimit]: Math.max(1, Math.ceil(timeoutSeconds)) },
    recorded: (outs) => ({ ...outs, [waitLimit]: own }),
  };
}
