/**
 * The identity model's engine (test/unit/identity-model.test.ts): the provider's create path as the engine calls
 * it, and the calls that carry or resolve the state's record. Apart from the world (world.ts) and the commands
 * (commands.ts): these are the model's calls into the create path, the part to read when the provider's lifecycle
 * (provider/index.ts) changes.
 */
import { MARK, NAME, PLACE, type Outcome, type PlatformObject, type Process, type World } from "./world";

/** The create path as the engine calls it (provider/index.ts lifecycle), for one Create with `outcome`. */
function createTarget(world: World, runner: Process, outcome: Outcome, lag: number) {
  const target = {
    noun: "notebook",
    place: "namespace usr-1",
    name: NAME,
    mark: MARK,
    idOf: (o: PlatformObject) => o.id,
    markOf: (o: PlatformObject) => o.mark,
    statusOf: () => "Running",
    createdAtOf: (o: PlatformObject) => o.createdAt,
    statedSentAtOf: (o: PlatformObject) => (o.statedSentAt === undefined ? undefined : new Date(o.statedSentAt).toISOString()),
    stackPlace: PLACE,
    statedStackPlaceOf: (o: PlatformObject) => o.place,
    findByName: async () => world.listed().filter((o) => o.name === NAME),
    send: (sentAt: string) => {
      const made = world.make(MARK, lag, false, Date.parse(sentAt));
      if (outcome === "killed") return new Promise<PlatformObject>(() => undefined);
      // A lost answer, as the client raises it: the request may have been carried out.
      if (outcome === "lost") return Promise.reject(new runner.errors.AicpError("AICP_TIMEOUT", "createNotebook: no answer", { outcomeUnknown: true }));
      return Promise.resolve(made);
    },
    remove: async () => undefined,
    watchMs: 0,
  };
  return target;
}

/** One Create call of the engine: the state records what it returns; a killed one returns nothing. */
export async function engineCreate(world: World, runner: Process, index: number, outcome: Outcome, lag: number): Promise<void> {
  if (world.killedOn.size > 0 && !world.killedOn.has(index)) world.evidenceLost = true;
  const { once, journal } = runner;
  const target = createTarget(world, runner, outcome, lag);
  const create = async () => {
    try {
      const made = await once.createOnce(target);
      if (made.adopted) return made;
      // Convergence, as notebook/index.ts keepFirstMade does once its notebook is Running: the first made is kept, the others removed.
      const others = await once.otherCreates(target, made.object);
      for (const other of others?.remove ?? []) world.remove(other.id);
      return others ? { object: others.keep, adopted: true } : made;
    } catch (error) {
      // As the kinds do: an unconfirmed create leaves as a partly created resource with its provisional id.
      if (error instanceof once.UnconfirmedCreate) throw Object.assign(new Error(error.message), { id: error.provisionalId, sentAt: error.sentAt });
      throw error;
    }
  };
  if (outcome === "killed") {
    // Killed before the call returns to the engine: whatever the create path did on disk stays, the engine
    // records nothing, and nothing settles (settledOnReturn runs only when the call returns). A request
    // that left never answers.
    void create().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    world.killedOn.add(index);
    return;
  }
  const call = journal.settledOnReturn(MARK, create);
  try {
    const { object } = await call;
    world.recorded = { id: object.id };
    world.killedOn.clear();
  } catch (error) {
    const e = error as { id?: string; sentAt?: string };
    if (e.id) {
      world.recorded = { provisional: e.id, createSentAt: e.sentAt! };
      world.killedOn.clear();
    }
  }
}

/** A call of the engine that carries the state's record (diff, read, delete), as the engine boundary sees it (provider/index.ts lifecycle). */
export function carryRecord(world: World, runner: Process): void {
  const r = world.recorded;
  if (r && "id" in r) runner.journal.settledByRecord(MARK, r.id);
}

/** An unconfirmed record resolved by the mark (read, update), as notebook/index.ts resolves it. */
export async function resolveRecord(world: World, runner: Process): Promise<void> {
  carryRecord(world, runner);
  const r = world.recorded;
  if (!r || !("provisional" in r)) return;
  const resolved = await runner.once.resolveProvisional(createTarget(world, runner, "answered", 0), r.createSentAt, 0);
  if ("found" in resolved) world.recorded = { id: resolved.found.id };
}
