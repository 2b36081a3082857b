/**
 * The platform as it behaves on a bad day, for the reliability suite
 * (docs/platform-api.md B5): answers that lag, omit, shift and exaggerate, none of which a
 * real list operation promises not to do. Unlike faults, these shape answers
 * that otherwise succeed. Every switch is off by default.
 */
import { z } from "zod";
import { randomId } from "./util";
import type { Store } from "./state";
import type { GroupRecord, NotebookRecord } from "./records";

export const misbehaviourSchema = z.strictObject({
  /**
   * The next `answers` list answers (notebooks and resource groups) leave out
   * every item named `name` (one name or several). With `unfiltered`, only
   * answers of a list with no filter count and omit: a whole-namespace list
   * served by a replica that lags, while a lookup by name is answered in full.
   */
  omit: z
    .strictObject({ name: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]), answers: z.int().min(0), unfiltered: z.boolean().optional() })
    .optional(),
  /** A notebook or group is listed (and a group found by id) only this long after its create; 0 lists everything again. */
  listDelayMs: z.int().min(0).optional(),
  /**
   * Another writer acts between the first page of a notebook list and the
   * next: `delete` removes the oldest other notebook of the namespace (the
   * rest shift one place towards the front), `insert` adds one.
   */
  shiftPages: z.enum(["delete", "insert"]).optional(),
  /** shiftPages acts after the first page of a filtered list too, on the notebooks that list shows (a walk of one stack's notebooks). */
  shiftFiltered: z.boolean().optional(),
  /** `counts` (and `total_sum`) claim this many matches on every list answer. */
  claimedCount: z.int().min(0).optional(),
  /** Error answers echo the request's URL (signature included) and body in their message. */
  echoRequests: z.boolean().optional(),
  /**
   * Notebook answers spell a status differently, by the emulator's own word:
   * `{"Running": "running", "Pending": "Starting"}`. The platform names
   * Pending, Running and Failed "etc." (platform-api B2): others exist.
   */
  statusWords: z.record(z.string(), z.string().min(1)).optional(),
  /**
   * For this long after a write to a notebook (stop, start, stop or
   * auto-delete time, image), list answers show it as it was just before that
   * write: a list served by a replica that lags behind the writes.
   */
  staleListMs: z.int().min(0).optional(),
  /**
   * A deleted resource group stays in list answers and in get-by-id answers
   * for this long after its delete was accepted, as on a platform that
   * removes groups in the background. Its owner's delete, update or second
   * delete answers 404 as for a missing group: the platform already holds no
   * such group to change.
   */
  groupLingerMs: z.int().min(0).optional(),
});

export type MisbehaviourSpec = z.infer<typeof misbehaviourSchema>;

/** The switches in force; shared by every request. */
export class Misbehaviour {
  private spec: MisbehaviourSpec = {};
  /** Each notebook as it was before the first write of the current stale window, and when that write came. */
  private beforeWrites = new Map<string, { at: number; record: NotebookRecord }>();
  /** Deleted groups still shown (groupLingerMs), and when their delete was accepted. */
  private deletedGroups = new Map<string, { at: number; record: GroupRecord }>();

  /** Merges switches into the current ones (undefined members are left as they are); throws on invalid ones. */
  set(patch: unknown): MisbehaviourSpec {
    const result = misbehaviourSchema.safeParse(patch);
    if (!result.success) throw new Error(`invalid misbehaviour: ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
    this.spec = { ...this.spec, ...result.data };
    return this.get();
  }

  get(): MisbehaviourSpec {
    return structuredClone(this.spec);
  }

  clear(): void {
    this.spec = {};
    this.beforeWrites.clear();
    this.deletedGroups.clear();
  }

  /** Called once a group's delete was accepted: keeps showing it for groupLingerMs. */
  afterGroupDelete(group: GroupRecord, now: number): void {
    if ((this.spec.groupLingerMs ?? 0) > 0) this.deletedGroups.set(group.rg_id, { at: now, record: structuredClone(group) });
  }

  /** Deleted groups of `userId` that answers still show at `now` (those past the window are forgotten). */
  lingeringGroups(userId: string, now: number): GroupRecord[] {
    const shown: GroupRecord[] = [];
    for (const [rgId, { at, record }] of this.deletedGroups) {
      if (now - at >= (this.spec.groupLingerMs ?? 0)) this.deletedGroups.delete(rgId);
      else if (record.user_id === userId) shown.push(record);
    }
    return shown;
  }

  /** Called before a write to `nb`: keeps how it looked, for lists that lag (staleListMs). */
  beforeWrite(nb: NotebookRecord, now: number): void {
    const staleMs = this.spec.staleListMs ?? 0;
    const kept = this.beforeWrites.get(nb.uuid);
    if (staleMs <= 0 || (kept && now - kept.at < staleMs)) return;
    this.beforeWrites.set(nb.uuid, { at: now, record: structuredClone(nb) });
  }

  /** The notebook a list answer shows at `now`, and the time its computed status is taken at. */
  asListed(nb: NotebookRecord, now: number): { record: NotebookRecord; at: number } {
    const kept = this.beforeWrites.get(nb.uuid);
    return kept && now - kept.at < (this.spec.staleListMs ?? 0) ? kept : { record: nb, at: now };
  }

  /** Whether a record created at createdMs is listed at `now`. */
  listed(createdMs: number, now: number): boolean {
    return createdMs + (this.spec.listDelayMs ?? 0) <= now;
  }

  /** The items one list answer shows: not yet listed ones and omitted ones left out (spending one omitted answer). */
  shown<T>(items: T[], now: number, nameOf: (item: T) => string, createdMsOf: (item: T) => number, filtered = false): T[] {
    const visible = items.filter((item) => this.listed(createdMsOf(item), now));
    const omit = this.spec.omit;
    if (!omit || omit.answers <= 0 || (omit.unfiltered && filtered)) return visible;
    const omitted = new Set(typeof omit.name === "string" ? [omit.name] : omit.name);
    if (!visible.some((item) => omitted.has(nameOf(item)))) return visible;
    omit.answers--;
    return visible.filter((item) => !omitted.has(nameOf(item)));
  }

  /**
   * After a notebook list answered its first page: another writer's change, if asked for. Of the whole namespace (no
   * filter), or with shiftFiltered of a filtered list too, among the notebooks it shows (`matching`).
   */
  afterFirstPage(store: Store, namespace: string, offset: number, now: number, filtered: boolean, matching: readonly NotebookRecord[]): void {
    if (offset !== 0 || (filtered && !this.spec.shiftFiltered) || !this.spec.shiftPages) return;
    // Another user's notebooks: the seeded ones (emulator/seed.ts), never one a test's program made.
    const others = (filtered ? matching : store.data.notebooks).filter(
      (n) => n.namespace === namespace && !n.name.startsWith("shift-") && !n.envs.some((e) => e.name === "PULUMI_AICP_MARK"),
    );
    if (this.spec.shiftPages === "delete") {
      const oldest = [...others].sort((a, b) => a.created_ms - b.created_ms)[0];
      if (oldest) store.mutate((d) => (d.notebooks = d.notebooks.filter((n) => n !== oldest)));
      return;
    }
    const template = others[0];
    if (template)
      store.mutate((d) =>
        d.notebooks.unshift({ ...structuredClone(template), uuid: randomId("nb-"), name: `shift-${randomId("")}`, created_ms: now - 365 * 86_400_000 }),
      );
  }

  /** The status word a notebook answer carries for the emulator's `status`. */
  statusWord(status: string): string {
    return this.spec.statusWords?.[status] ?? status;
  }

  /** The `counts` and `total_sum` a list answer claims. */
  claimed(counts: number, totalSum: number | undefined): { counts: number; totalSum: number | undefined } {
    const c = this.spec.claimedCount;
    return c === undefined ? { counts, totalSum } : { counts: c, totalSum: totalSum === undefined ? undefined : c };
  }

  /** An error message, with the request echoed when asked for. */
  echo(message: string, rawUrl: string, body: Buffer): string {
    return this.spec.echoRequests ? `${message} (request ${rawUrl} with body ${body.toString("utf8")})` : message;
  }
}
