/**
 * The emulator's state and its persistence. With a state file, the state is
 * loaded at start and rewritten after every mutation (temp file + rename, so a
 * crash never leaves half a file behind).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { seedCatalogue } from "./catalogue";
import type { StateData } from "./records";
import { storedMs } from "./times";

/** Holds the state; every change goes through `mutate` so it is persisted. */
export class Store {
  readonly data: StateData;

  constructor(
    private readonly stateFile: string | undefined,
    userIds: readonly string[],
  ) {
    const loaded = stateFile && existsSync(stateFile) ? load(stateFile) : undefined;
    if (loaded) {
      this.data = loaded;
      // Keyed users may differ from the run that wrote the file: the catalogue stays visible to them.
      for (const t of this.data.templates) {
        if (t.seeded) t.show_user = [...new Set([...t.show_user, ...userIds])];
      }
    } else {
      const seed = seedCatalogue(userIds);
      this.data = { version: 1, nextRecordId: 1, jobs: [], notebooks: [], ...seed };
      this.save();
    }
  }

  /** Runs `change` and persists the result. */
  mutate<T>(change: (data: StateData) => T): T {
    const result = change(this.data);
    this.save();
    return result;
  }

  /** Next id of a replica or volume spec record. */
  nextRecordId(): number {
    return this.data.nextRecordId++;
  }

  /**
   * Removes notebooks whose auto-delete time has come (stored times are UTC;
   * the request's value was read in the dialect's zone when it was stored).
   * Called lazily before every request and admin read.
   */
  purgeExpired(now: number): number {
    const keep = this.data.notebooks.filter((nb) => {
      if (!nb.auto_delete_time) return true;
      const at = storedMs(nb.auto_delete_time);
      return Number.isNaN(at) || at > now;
    });
    const removed = this.data.notebooks.length - keep.length;
    if (removed > 0) this.mutate((d) => (d.notebooks = keep));
    return removed;
  }

  private save(): void {
    if (!this.stateFile) return;
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.stateFile);
  }
}

function load(file: string): StateData {
  const text = readFileSync(file, "utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`emulator state file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const data = parsed as Partial<StateData>;
  if (data?.version !== 1 || !Array.isArray(data.templates) || !Array.isArray(data.groups)) {
    throw new Error(`emulator state file ${file} is not an emulator state (version 1)`);
  }
  return { nextRecordId: 1, nextTemplateId: 1, notebooks: [], jobs: [], ...data } as StateData;
}
