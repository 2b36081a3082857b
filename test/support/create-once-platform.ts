/**
 * The platform held in memory that test/unit/create-once.test.ts runs the create-once path against: a name lookup
 * showing what a test lists, a create that makes, fails or loses its answer, and the small helpers its expectations
 * read with. Kept apart so the test file holds only the cases.
 */
import { expect } from "vitest";
import { AicpError } from "../../client/errors";
import type { CreateTarget } from "../../provider/create-once";

export interface Obj {
  id: string;
  mark?: string;
  status?: string;
  createdAt: number;
  deleting?: boolean;
}

export const minute = 60_000;

/** A platform holding `listed`; its create makes `made` (or throws `fails`); `appears` is listed after the create (an answer lost). */
export function target(mark: string | undefined, listed: Obj[], behaviour: { fails?: AicpError; appears?: Obj } = {}) {
  const sent: string[] = [];
  const removed: string[] = [];
  const t: CreateTarget<Obj> = {
    noun: "notebook",
    place: "namespace usr-1",
    name: "nb",
    mark,
    idOf: (o) => o.id,
    markOf: (o) => o.mark,
    statusOf: (o) => o.status,
    createdAtOf: (o) => o.createdAt,
    goingAway: (o) => o.deleting === true,
    findByName: async () => [...listed],
    send: async () => {
      sent.push("create");
      if (behaviour.appears) listed.push(behaviour.appears);
      if (behaviour.fails) throw behaviour.fails;
      const made = { id: `nb-${sent.length}`, mark, status: "Pending", createdAt: Date.now() };
      listed.push(made);
      return made;
    },
    remove: async (o) => void removed.push(o.id),
    watchMs: 30,
  };
  return { t, sent, removed };
}

/** The message of the error `running` ends with; fails when it succeeds. */
export const refusalOf = (running: Promise<unknown>) =>
  running.then(
    () => expect.fail("expected a refusal"),
    (e: Error) => e.message,
  );

export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export const lost = () => new AicpError("AICP_TIMEOUT", "createNotebook: no answer within 0.5 s.", { outcomeUnknown: true });
