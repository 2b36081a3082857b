/**
 * The create journal (provider/create-journal.ts) on its own: where it
 * lives, what an entry holds, when it is dropped, and which records of the
 * state settle it. Each expectation is written out by hand; the folder is
 * this file's own (test/support/isolated-journal.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  engineAlive,
  forgetCreate,
  journalDir,
  journalFolder,
  noteCreatedId,
  recordCreate,
  sentCreate,
  settledByRecord,
  settledOnReturn,
} from "../../provider/create-journal";

let n = 0xa00;
const newMark = () => (++n).toString(16).padStart(32, "0");
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const day = 86_400_000;

describe("where the journal lives", () => {
  it("is AICP_CREATE_JOURNAL_DIR, else PULUMI_HOME's aicp/create-journal, else ~/.pulumi's", () => {
    expect(journalDir({ AICP_CREATE_JOURNAL_DIR: "/j", PULUMI_HOME: "/p" })).toBe("/j");
    expect(journalDir({ AICP_CREATE_JOURNAL_DIR: "", PULUMI_HOME: "/p" })).toBe(join("/p", "aicp", "create-journal"));
    expect(journalDir({ PULUMI_HOME: "" })).toBe(join(homedir(), ".pulumi", "aicp", "create-journal"));
  });
});

describe("an entry", () => {
  it("is a file named by the mark holding what was sent, readable until forgotten", () => {
    const mark = newMark();
    const entry = { noun: "notebook", name: "nb", sentAt: ago(1000) };
    recordCreate(mark, entry);
    expect(JSON.parse(readFileSync(join(journalFolder(), `${mark}.json`), "utf8"))).toEqual(entry);
    expect(sentCreate(mark)).toEqual(entry);
    forgetCreate(mark);
    expect(existsSync(join(journalFolder(), `${mark}.json`))).toBe(false);
    expect(sentCreate(mark)).toBeUndefined();
  });

  // The folder above the journal is shared with other runs (a mutation run's mutant may write there): a name of this run's own.
  const outsideName = `escape-${process.pid}-${Date.now()}`;

  it("is kept only under a mark: other text writes and reads nothing", () => {
    const outside = join(journalFolder(), "..", `${outsideName}.json`);
    try {
      recordCreate(`../${outsideName}`, { noun: "notebook", name: "nb", sentAt: ago(0) });
      expect(existsSync(outside)).toBe(false);
      expect(sentCreate(`../${outsideName}`)).toBeUndefined();
      expect(sentCreate(undefined)).toBeUndefined();
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it("is forgotten only under a mark: other text deletes nothing, and a missing entry is no error", () => {
    const outside = join(journalFolder(), "..", `keep-${outsideName}.json`);
    writeFileSync(outside, "{}");
    forgetCreate(`../keep-${outsideName}`);
    expect(existsSync(outside)).toBe(true);
    rmSync(outside);
    expect(() => forgetCreate(newMark())).not.toThrow();
  });

  it("is read only under a mark: a file outside the journal is never taken for an entry", () => {
    const outside = join(journalFolder(), "..", `read-${outsideName}.json`);
    writeFileSync(outside, JSON.stringify({ noun: "notebook", name: "nb", sentAt: ago(0) }));
    try {
      expect(sentCreate(`../read-${outsideName}`)).toBeUndefined();
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it("gains no file when no create was recorded under the mark", () => {
    const mark = newMark();
    noteCreatedId(mark, "nb-2");
    expect(existsSync(join(journalFolder(), `${mark}.json`))).toBe(false);
  });

  it("gains the id the create's answer named, once", () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(0) });
    noteCreatedId(mark, "nb-1");
    expect(sentCreate(mark)?.id).toBe("nb-1");
    noteCreatedId(newMark(), "nb-2");
    expect(sentCreate(n.toString(16).padStart(32, "0"))).toBeUndefined();
  });

  it("is dropped when it is a week old or its time cannot be read", () => {
    const week = newMark();
    recordCreate(week, { noun: "notebook", name: "nb", sentAt: ago(7 * day + 60_000) });
    expect(sentCreate(week)).toBeUndefined();
    expect(existsSync(join(journalFolder(), `${week}.json`))).toBe(false);
    const young = newMark();
    recordCreate(young, { noun: "notebook", name: "nb", sentAt: ago(7 * day - 60_000) });
    expect(sentCreate(young)?.name).toBe("nb");
    const garbled = newMark();
    recordCreate(garbled, { noun: "notebook", name: "nb", sentAt: "yesterday" });
    expect(sentCreate(garbled)).toBeUndefined();
  });
});

describe("settledOnReturn (the engine's Create)", () => {
  const entryFor = () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(60_000) });
    return mark;
  };

  it("removes the entry when the create returns its id", async () => {
    const mark = entryFor();
    await expect(settledOnReturn(mark, async () => ({ id: "nb-1" }))).resolves.toEqual({ id: "nb-1" });
    expect(sentCreate(mark)).toBeUndefined();
  });

  it("removes it when the create fails with an id the engine records (partly created, or unconfirmed)", async () => {
    const mark = entryFor();
    const partly = Object.assign(new Error("not ready"), { id: "unconfirmed-create-x" });
    await expect(settledOnReturn(mark, () => Promise.reject(partly))).rejects.toBe(partly);
    expect(sentCreate(mark)).toBeUndefined();
  });

  it("keeps it when the create fails with no id: the engine recorded nothing, and the create may still appear", async () => {
    const mark = entryFor();
    const refused = new Error("name held");
    await expect(settledOnReturn(mark, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(sentCreate(mark)).toBeDefined();
    const blank = Object.assign(new Error("no id"), { id: "" });
    await expect(settledOnReturn(mark, () => Promise.reject(blank))).rejects.toBe(blank);
    expect(sentCreate(mark)).toBeDefined();
    await expect(settledOnReturn(mark, () => Promise.reject(null))).rejects.toBeNull();
    expect(sentCreate(mark)).toBeDefined();
  });
});

describe("settled when the engine cannot receive the answer, or holds the object", () => {
  it("keeps the entry, with its id, when the engine that asked is gone (a killed CLI): the next run adopts by the id", async () => {
    const mark = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(1000), id: "nb-7" });
    await settledOnReturn(
      mark,
      async () => ({ id: "nb-7" }),
      () => false,
    );
    expect(sentCreate(mark)?.id).toBe("nb-7");
  });

  it("settledByRecord removes the resource's entry once a call shows the state recording any object of it, and no other's", () => {
    const mark = newMark();
    const other = newMark();
    recordCreate(mark, { noun: "notebook", name: "nb", sentAt: ago(1000), id: "nb-8" });
    recordCreate(other, { noun: "notebook", name: "nb", sentAt: ago(1000) });
    settledByRecord(mark, "nb-old");
    expect(sentCreate(mark)).toBeUndefined();
    expect(sentCreate(other)).toBeDefined();
    settledByRecord(other, "nb-9");
    expect(sentCreate(other)).toBeUndefined();
  });

  it("this process's engine is alive while the process that started it is its parent", () => {
    expect(engineAlive()).toBe(true);
  });
});

describe("a journal that cannot be read", () => {
  it("answers no entry and warns once, naming the error's code but no path", () => {
    const printed: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void printed.push(line));
    try {
      const unreadable = newMark();
      // A folder where the entry's file should be: reading it fails with EISDIR.
      mkdirSync(join(journalFolder(), `${unreadable}.json`), { recursive: true });
      expect(sentCreate(unreadable)).toBeUndefined();
      expect(sentCreate(unreadable)).toBeUndefined();
      const missing = newMark();
      expect(sentCreate(missing)).toBeUndefined();
      rmSync(join(journalFolder(), `${unreadable}.json`), { recursive: true });
    } finally {
      spy.mockRestore();
    }
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain("the create journal cannot be used (EISDIR)");
    expect(printed[0]).toContain("AICP_CREATE_JOURNAL_DIR");
    expect(printed[0]).not.toContain(journalFolder());
  });
});
