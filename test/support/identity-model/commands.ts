/**
 * The identity model's commands (test/unit/identity-model.test.ts): the pipeline steps fast-check draws a history
 * from (up, destroy, replacements, time passing, a colleague's copy, another stack, a fresh runner), and the
 * convergence checked after it. Apart from the test file, which only runs the histories, so that each step and
 * what it leaves out reads on its own.
 */
import { rmSync } from "node:fs";
import fc from "fast-check";
import { vi } from "vitest";
import { carryRecord, engineCreate, resolveRecord } from "./engine";
import { MARK, OTHER_PLACE, RUNNERS, startOn, type Front, type Outcome, type Runner, type World } from "./world";

type Command = fc.AsyncCommand<World, Runner[]>;

/** Pipeline steps are minutes apart: each command moves the clock (only Date is faked), so creation times and sends differ. */
function nextStep(minutes = 4): void {
  vi.setSystemTime(Date.now() + minutes * 60_000);
}

class Up implements Command {
  constructor(
    readonly runner: number,
    readonly outcome: Outcome,
    readonly lag: number,
    readonly front: Front,
  ) {}
  check = () => true;
  async run(world: World, runners: Runner[]): Promise<void> {
    nextStep();
    const provider = startOn(runners[this.runner]!, this.front);
    if (world.recorded === undefined) await engineCreate(world, provider, this.runner, this.outcome, this.lag);
    else await resolveRecord(world, provider);
    world.check();
  }
  toString = () => `up(runner ${this.runner}, ${this.front}, ${this.outcome}, lag ${this.lag})`;
}

class Destroy implements Command {
  constructor(readonly runner: number) {}
  check = () => true;
  async run(world: World, runners: Runner[]): Promise<void> {
    nextStep();
    await resolveRecord(world, startOn(runners[this.runner]!, "typescript"));
    const r = world.recorded;
    // An unconfirmed create is never reported deleted while it may appear: destroy fails and keeps it.
    if (r && "id" in r) {
      world.remove(r.id);
      world.recorded = undefined;
    }
    world.check();
  }
  toString = () => `destroy(runner ${this.runner})`;
}

/**
 * A replacement: deleteBeforeReplace (every replacement on the TypeScript front, one the provider's diff plans on
 * the plugin) deletes the old object first; a targeted one on the plugin (`up --replace`, deleteBeforeReplace
 * unset) is checked without old inputs, diffed not at all, and created beside the old object.
 */
class Replace implements Command {
  constructor(
    readonly runner: number,
    readonly deleteFirst: boolean,
    readonly front: Front,
  ) {}
  // Left out: a targeted replacement after evidence was lost. A runner killed with a create in flight keeps an
  // unanswered entry; another runner adopts that create's object; no call of the targeted replacement shows the killed
  // runner the record, so its create takes the entry's object, which the engine then deletes. This model found it;
  // docs/identity.md lists it under "Open".
  check = (world: Readonly<World>) => world.recorded !== undefined && "id" in world.recorded && (this.deletesFirst || !world.evidenceLost);
  /** The autonaming pattern makes the engine delete first whatever the resource's options say. */
  get deletesFirst(): boolean {
    return this.deleteFirst || this.front === "autonamed plugin";
  }
  async run(world: World, runners: Runner[]): Promise<void> {
    nextStep();
    const provider = startOn(runners[this.runner]!, this.deletesFirst ? this.front : "plugin");
    const old = (world.recorded as { id: string }).id;
    if (this.deletesFirst) {
      carryRecord(world, provider);
      world.remove(old);
      world.recorded = undefined;
      await engineCreate(world, provider, this.runner, "answered", 0);
    } else {
      world.recorded = undefined;
      await engineCreate(world, provider, this.runner, "answered", 0);
      const made = world.recorded as { id: string } | undefined;
      // A refused create leaves the old object recorded; a created one is followed by the old one's delete.
      if (made === undefined) world.recorded = { id: old };
      else world.remove(old);
    }
    world.check();
  }
  toString = () => `replace(runner ${this.runner}, ${this.deletesFirst ? `${this.front}, delete first` : "plugin, targeted, create first"})`;
}

class Tick implements Command {
  constructor(readonly ticks: number) {}
  check = () => true;
  async run(world: World): Promise<void> {
    // Lists catch up, and time passes: beyond the ten minutes of clock slack a creation time tells a copy from a create.
    nextStep(this.ticks * 10);
    world.tick += this.ticks;
  }
  toString = () => `tick(${this.ticks})`;
}

/**
 * A colleague copies the settings of a notebook of the stack they see listed (its mark among its
 * environment) into a notebook of the same name: a copy is made from an object someone saw.
 */
class Copy implements Command {
  constructor(readonly lag: number) {}
  // Left out while a killed create's unanswered entry is on a runner, and after evidence was lost: another runner may
  // record and delete that create's object without this runner seeing it, and the entry then answers to any marked
  // object made after its send, a copy included (docs/identity.md, "Open", found by this model at seeds 7 and 99).
  check = (world: Readonly<World>) =>
    !world.evidenceLost && world.killedOn.size === 0 && !world.objects.some((o) => o.foreign) && world.listed().some((o) => !o.foreign);
  async run(world: World): Promise<void> {
    nextStep();
    // Made in the console, it is listed as late as any object; its settings state the original's send time.
    const original = world.listed().find((o) => !o.foreign)!;
    world.make(MARK, this.lag, true, original.statedSentAt, original.place);
  }
  toString = () => `colleague copies the mark (lag ${this.lag})`;
}

/**
 * Another stack given this one's pinned identity (`--copy-config-from`) creates the same resource under the
 * same name: the same mark, its own send time, another place. Never excluded: no evidence of this stack's
 * creates, a journal entry included, answers to an object of another place (create-evidence.ts inItsPlace).
 */
class OtherStack implements Command {
  constructor(readonly lag: number) {}
  check = () => true;
  async run(world: World): Promise<void> {
    nextStep();
    world.make(MARK, this.lag, true, Date.now(), OTHER_PLACE);
  }
  toString = () => `another stack with the same pin creates it (lag ${this.lag})`;
}

/** The runner is replaced by a fresh one: an empty journal. */
class FreshRunner implements Command {
  constructor(readonly runner: number) {}
  check = () => true;
  async run(world: World, runners: Runner[]): Promise<void> {
    nextStep();
    const dir = runners[this.runner]!.dir;
    rmSync(dir, { recursive: true, force: true });
    if (world.killedOn.delete(this.runner)) world.evidenceLost = true;
  }
  toString = () => `fresh runner ${this.runner}`;
}

const runner = fc.integer({ min: 0, max: RUNNERS - 1 });
const front = fc.constantFrom<Front>("typescript", "plugin", "autonamed plugin");
export const commands = [
  fc
    .tuple(runner, fc.constantFrom<Outcome>("answered", "answered", "lost", "killed"), fc.constantFrom(0, 1, 3), front)
    .map(([r, o, l, f]) => new Up(r, o, l, f)),
  runner.map((r) => new Destroy(r)),
  fc.tuple(runner, fc.boolean(), front).map(([r, d, f]) => new Replace(r, d, f)),
  fc.constantFrom(1, 3).map((t) => new Tick(t)),
  fc.constantFrom(0, 3).map((lag) => new Copy(lag)),
  fc.constantFrom(0, 3).map((lag) => new OtherStack(lag)),
  runner.map((r) => new FreshRunner(r)),
];

/** After the history: lists catch up, and a later `up` on runner 0 converges, within what the protocol promises. */
export async function converged(world: World, runners: Runner[]): Promise<void> {
  world.tick += 10;
  for (let i = 0; i < 2; i++) await new Up(0, "answered", 0, "typescript").run(world, runners);
  world.check();
  if (world.evidenceLost || world.objects.some((o) => o.foreign)) return;
  const ours = world.live().filter((o) => !o.foreign);
  const r = world.recorded;
  if (!r || !("id" in r)) throw new Error(`after convergence the state records ${JSON.stringify(r)}; live: ${ours.map((o) => o.id).join(", ")}`);
  if (ours.length !== 1) throw new Error(`after convergence ${ours.length} live objects for one resource: ${ours.map((o) => o.id).join(", ")}`);
}
