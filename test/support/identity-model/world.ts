/**
 * The world of the identity model (test/unit/identity-model.test.ts): the runners and their provider processes,
 * the platform held in memory, and the stack's state with the invariants checked after every command. Kept apart
 * from the engine's calls and the commands so each reads on its own; it imports nothing of the code under test
 * but its types.
 */
type CreateOnceModule = typeof import("../../../provider/create-once");
type JournalModule = typeof import("../../../provider/create-journal");

/** A provider process of one front: its modules, loaded with its runner's journal folder in the environment. */
export interface Process {
  once: CreateOnceModule;
  journal: JournalModule;
  errors: typeof import("../../../client/errors");
}

/**
 * The fronts differ in what the engine shows a process before a create (create-journal.ts seesEveryRecord):
 * the TypeScript SDK deletes before every replacement; on the plugin a targeted replacement is created beside
 * the recorded object after a check without old inputs, unless the stack's autonaming pattern has no random
 * part (the plugin's check then calls deletesFirst, plugin/autonaming.ts, and the engine deletes first).
 */
export type Front = "typescript" | "plugin" | "autonamed plugin";

/** One runner: its journal folder, and a provider process of each front. */
export interface Runner {
  dir: string;
  typescript: Process;
  plugin: Process;
  "autonamed plugin": Process;
}

/** The provider process of `front` on `runner`, for one engine run (a command): it remembers nothing of an earlier run but the journal. */
export function startOn(runner: Runner, front: Front): Process {
  const provider = runner[front];
  provider.journal.newEngineRun();
  // What the plugin's check of the resource says, before any create of this engine run.
  if (front === "autonamed plugin") provider.journal.deletesFirst(MARK);
  return provider;
}

export const RUNNERS = 2;
export const MARK = "ab".repeat(16);
export const NAME = "research-5e771ed";
/** This resource's place in its stack (ownership.ts placeEnvName), and another stack's that shares the pinned identity. */
export const PLACE = "5e771ed";
export const OTHER_PLACE = "0c0ffee";

export interface PlatformObject {
  id: string;
  mark: string;
  name: string;
  createdAt: number;
  /** The model tick from which lists show it. */
  listedFrom: number;
  deleted: boolean;
  /** Made by a colleague (a copy of the mark), never the stack's. */
  foreign: boolean;
  /** The send time its settings state (a notebook's env, written by the create; a copy states the original's). */
  statedSentAt?: number;
  /** The place in its stack it states (a copy states the original's; another stack's create its own). */
  place: string;
}

/** What a Create's request does on the platform, and what reaches the provider. */
export type Outcome = "answered" | "lost" | "killed";

/** The shared state of the stack (one backend), the platform, and what the model knows. */
export class World {
  tick = 0;
  objects: PlatformObject[] = [];
  /** The state's record of the resource: an id, or an unconfirmed create. */
  recorded: { id: string } | { provisional: string; createSentAt: string } | undefined;
  /** A runner killed with a create in flight whose object the state does not record. */
  killedOn = new Set<number>();
  /** A create was sent where another runner held the only evidence of an earlier one (docs/identity.md, "Open"). */
  evidenceLost = false;
  private next = 0;

  make(mark: string, lag: number, foreign: boolean, statedSentAt: number | undefined, place = PLACE): PlatformObject {
    const object = {
      id: `nb-${++this.next}`,
      mark,
      name: NAME,
      createdAt: Date.now(),
      listedFrom: this.tick + lag,
      deleted: false,
      foreign,
      statedSentAt,
      place,
    };
    this.objects.push(object);
    return object;
  }

  listed(): PlatformObject[] {
    return this.objects.filter((o) => !o.deleted && o.listedFrom <= this.tick);
  }

  live(): PlatformObject[] {
    return this.objects.filter((o) => !o.deleted);
  }

  byId(id: string): PlatformObject | undefined {
    return this.objects.find((o) => o.id === id);
  }

  /** The engine deletes what the state records; a colleague's object is never ours to delete. */
  remove(id: string): void {
    const object = this.byId(id);
    if (!object) throw new Error(`the engine deleted ${id}, which the platform never held`);
    if (object.foreign) throw new Error(`a colleague's ${id} was deleted`);
    object.deleted = true;
  }

  check(): void {
    for (const o of this.objects) if (o.foreign && o.deleted) throw new Error(`a colleague's ${o.id} was deleted`);
    const r = this.recorded;
    if (r && "id" in r) {
      const object = this.byId(r.id);
      if (!object || object.deleted) throw new Error(`the state records ${r.id}, which is deleted`);
      if (object.foreign) throw new Error(`the state records a colleague's ${r.id}`);
    }
  }
}
