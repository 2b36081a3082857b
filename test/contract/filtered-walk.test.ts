/**
 * A walk of the list filtered by a stack token (client/client.ts
 * walkNotebooks with `name`) says whether its answer is whole: a create's
 * convergence acts on what it leaves out (provider/notebook/listing.ts
 * holdersNow). Against the emulator, with its misbehaviours for the platform
 * on a bad day (docs/platform-api.md B5).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { AicpClient } from "../../client/client";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";

const namespace = emulatorCredentials.userId.toLowerCase();
/** Seeded names are `<prefix>-NNNN`: every one of these holds the token. */
const token = "0a1b2c";

describe("a walk filtered by a stack token", () => {
  let emulator: Emulator;
  let client: AicpClient;
  const walk = () => client.walkNotebooks(namespace, { name: token });

  beforeAll(async () => {
    emulator = await startTestEmulator();
    client = new AicpClient({ baseUrl: emulator.url, zone: emulatorZone, credentials: emulatorCredentials });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });
  /** The stack's notebooks the platform holds that a walk did not show. */
  const missedBy = (shown: Array<{ uuid: string }>) =>
    emulator.listNotebooks().filter((n) => String(n.name).includes(token) && !shown.some((s) => s.uuid === n.uuid));

  beforeEach(() => {
    emulator.clearMisbehaviour();
    emulator.setDialect({});
    for (const n of emulator.listNotebooks()) emulator.deleteNotebook(String(n.uuid));
    emulator.seedNotebooks({ namespace, count: 40, namePrefix: "someone-else" });
  });

  it("shows only the notebooks whose names hold the token: whole in one answer, not in several pages", async () => {
    emulator.seedNotebooks({ namespace, count: 60, namePrefix: `team-${token}` });
    const onePage = await walk();
    expect(onePage.notebooks).toHaveLength(60);
    expect(onePage.whole).toBe(true);
    emulator.seedNotebooks({ namespace, count: 90, namePrefix: `team-${token}` });
    const twoPages = await walk();
    expect(twoPages.notebooks).toHaveLength(150);
    expect(twoPages.whole).toBe(false);
  });

  it("is not whole at 101 when one it showed is removed before the second page, which then comes back empty", async () => {
    emulator.seedNotebooks({ namespace, count: 101, namePrefix: `team-${token}` });
    emulator.misbehave({ shiftPages: "delete", shiftFiltered: true });
    const shifted = await walk();
    expect(shifted.notebooks).toHaveLength(100);
    expect(missedBy(shifted.notebooks)).toHaveLength(1);
    expect(shifted.whole).toBe(false);
  });

  it("is not whole when a notebook it shows is removed between its pages, and the next page starts one later", async () => {
    emulator.seedNotebooks({ namespace, count: 150, namePrefix: `team-${token}` });
    emulator.misbehave({ shiftPages: "delete", shiftFiltered: true });
    const shifted = await walk();
    // It shows the one removed, on its first page, and misses the one that moved onto that page after it was read.
    const listed = new Set(emulator.listNotebooks().map((n) => n.uuid));
    expect(shifted.notebooks).toHaveLength(149);
    expect(missedBy(shifted.notebooks)).toHaveLength(1);
    expect(shifted.notebooks.filter((n) => !listed.has(n.uuid))).toHaveLength(1);
    expect(shifted.whole).toBe(false);
  });

  it("is not whole when the counts claim more or fewer than it holds, or when no page states a total and there are several", async () => {
    emulator.seedNotebooks({ namespace, count: 150, namePrefix: `team-${token}` });
    emulator.misbehave({ claimedCount: 100 });
    expect((await walk()).whole).toBe(false);
    emulator.misbehave({ claimedCount: 1000 });
    expect((await walk()).whole).toBe(false);
    emulator.clearMisbehaviour();
    emulator.setDialect({ counts: "page", totalSum: false });
    const untold = await walk();
    expect(untold.notebooks).toHaveLength(150);
    expect(untold.whole).toBe(false);
  });

  it("is whole in one page shorter than asked for, whatever the counts say", async () => {
    emulator.seedNotebooks({ namespace, count: 30, namePrefix: `team-${token}` });
    emulator.setDialect({ counts: "page", totalSum: false });
    expect(await walk()).toMatchObject({ whole: true });
    expect((await walk()).notebooks).toHaveLength(30);
  });
});
