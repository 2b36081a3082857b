/** The fault matrix's cases (test/contract/fault-matrix.test.ts), each one fault injected during up or destroy. */
import type { Emulator, FaultSpec } from "../../emulator";
import { emulatorCredentials } from "./emulator";

export interface FaultCase {
  name: string;
  phase: "up" | "destroy";
  faults: FaultSpec[];
  /** What the faulted run must do. */
  outcome: "succeeds" | "fails";
  /** Facts the error must name when the run fails. */
  mentions?: RegExp[];
}

export const faultCases: FaultCase[] = [
  { name: "500 burst on list templates", phase: "up", faults: [{ kind: "http", status: 500, operation: "listTemplates", count: 2 }], outcome: "succeeds" },
  { name: "503 burst on list notebooks", phase: "up", faults: [{ kind: "http", status: 503, operation: "listNotebooks", count: 3 }], outcome: "succeeds" },
  {
    name: "429 + Retry-After on create notebook",
    phase: "up",
    faults: [{ kind: "http", status: 429, retryAfterSeconds: 1, operation: "createNotebook", count: 2 }],
    outcome: "succeeds",
  },
  {
    name: "503 + Retry-After on create group",
    phase: "up",
    faults: [{ kind: "http", status: 503, retryAfterSeconds: 1, operation: "createResourceGroup", count: 1 }],
    outcome: "succeeds",
  },
  {
    name: "latency above the timeout on create notebook",
    phase: "up",
    faults: [{ kind: "latency", latencyMs: 2500, operation: "createNotebook", count: 1 }],
    outcome: "succeeds",
  },
  { name: "malformed bodies on list notebooks", phase: "up", faults: [{ kind: "malformed", operation: "listNotebooks", count: 2 }], outcome: "succeeds" },
  {
    name: "ret_code != 0 on create notebook",
    phase: "up",
    faults: [{ kind: "retCode", retCode: 5001, message: "resources sold out", operation: "createNotebook", count: 1 }],
    outcome: "fails",
    mentions: [
      /createNotebook \(POST \/aicp\/notebooks\/namespaces\/usr-emulator\/create\)/,
      /ret_code 5001/,
      /resources sold out/,
      /request id req-[0-9a-f]+/,
    ],
  },
  {
    name: "dropped connection during create notebook",
    phase: "up",
    faults: [{ kind: "drop", operation: "createNotebook", count: 1 }],
    outcome: "fails",
    // Unknown outcome: the state records the create as unconfirmed; past its window the user checks and clears the record.
    mentions: [/createNotebook \(POST /, /may have processed it/, /records the create as unconfirmed/],
  },
  { name: "503 burst on stop notebooks", phase: "destroy", faults: [{ kind: "http", status: 503, operation: "stopNotebooks", count: 2 }], outcome: "succeeds" },
  { name: "dropped connection on delete group", phase: "destroy", faults: [{ kind: "drop", operation: "deleteResourceGroup", count: 1 }], outcome: "succeeds" },
  {
    name: "latency above the timeout on list notebooks",
    phase: "destroy",
    faults: [{ kind: "latency", latencyMs: 2500, operation: "listNotebooks", count: 1 }],
    outcome: "succeeds",
  },
  {
    name: "ret_code != 0 on set delete time",
    phase: "destroy",
    faults: [{ kind: "retCode", retCode: 4003, message: "notebook is locked", operation: "setDeleteTime", count: 1 }],
    outcome: "fails",
    mentions: [/setDeleteTime \(POST /, /ret_code 4003/, /request id req-/],
  },
];

/** The stack's notebooks and groups as the emulator holds them. */
export function held(emulator: Emulator) {
  const user = emulatorCredentials.userId;
  return {
    notebooks: emulator.listNotebooks().filter((n) => n.namespace === user),
    groups: emulator.listResourceGroups().filter((g) => g.user_id === user),
  };
}

/** Runs an operation, returning the error text if it failed. */
export async function attempt(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return String(error);
  }
}
