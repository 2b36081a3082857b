/**
 * Marks and who owns an object (provider/ownership.ts, plugin/identity.ts,
 * provider/stack-mark.ts), each expectation written out by hand: where a
 * mark is read from and written to, what counts as one, and which claims
 * refuse a write. The digests were computed with `sha256sum` in a shell.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { identityOf, stackMarkKey } from "../../plugin/identity";
import { newStackIdentity } from "../../provider/identity";
import {
  groupMarkLength,
  groupMarkOf,
  isMark,
  notebookMarkOf,
  notebookSentAtOf,
  ownedElsewhere,
  refuseOwnedElsewhere,
  withGroupMark,
  withMarkEnv,
  withoutGroupMark,
  withoutMarkEnv,
} from "../../provider/ownership";
import { configureFrom } from "../../provider/context";
import * as stackMark from "../../provider/stack-mark";

const mark = "0123456789abcdef0123456789abcdef";
const other = "fedcba9876543210fedcba9876543210";

describe("a notebook's mark", () => {
  it("is read from PULUMI_AICP_MARK in a list of envs or its JSON text, and only when it is non-empty text", () => {
    expect(
      notebookMarkOf([
        { name: "A", value: "1" },
        { name: "PULUMI_AICP_MARK", value: mark },
      ]),
    ).toBe(mark);
    expect(notebookMarkOf(`[{"name":"PULUMI_AICP_MARK","value":"${mark}"}]`)).toBe(mark);
    expect(notebookMarkOf([{ name: "PULUMI_AICP_MARK", value: "" }])).toBeUndefined();
    expect(notebookMarkOf([{ name: "PULUMI_AICP_MARK", value: 7 }])).toBeUndefined();
    expect(notebookMarkOf([null, { name: "pulumi_aicp_mark", value: mark }])).toBeUndefined();
    expect(notebookMarkOf("not json")).toBeUndefined();
    expect(notebookMarkOf({ name: "PULUMI_AICP_MARK", value: mark })).toBeUndefined();
    expect(notebookMarkOf(undefined)).toBeUndefined();
  });

  it("is sent after the program's envs, replacing one the program wrote, and left out of what the program sees", () => {
    const envs = [
      { name: "A", value: "1" },
      { name: "PULUMI_AICP_MARK", value: other },
    ];
    expect(withMarkEnv(envs, mark)).toEqual([
      { name: "A", value: "1" },
      { name: "PULUMI_AICP_MARK", value: mark },
    ]);
    expect(withMarkEnv(undefined, mark)).toEqual([{ name: "PULUMI_AICP_MARK", value: mark }]);
    expect(withoutMarkEnv([null, ...envs])).toEqual([null, { name: "A", value: "1" }]);
    expect(withoutMarkEnv("text")).toBe("text");
  });

  it("comes with the create's send time, which the program does not see either", () => {
    const sent = "2026-11-28T10:00:00.000Z";
    const envs = [
      { name: "PULUMI_AICP_CREATE_SENT_AT", value: "2020-01-01T00:00:00Z" },
      { name: "A", value: "1" },
    ];
    const written = withMarkEnv(envs, mark, sent);
    expect(written).toEqual([
      { name: "A", value: "1" },
      { name: "PULUMI_AICP_MARK", value: mark },
      { name: "PULUMI_AICP_CREATE_SENT_AT", value: sent },
    ]);
    expect(notebookSentAtOf(written)).toBe(sent);
    expect(notebookSentAtOf(JSON.stringify(written))).toBe(sent);
    expect(notebookSentAtOf(envs.slice(1))).toBeUndefined();
    expect(withoutMarkEnv(written)).toEqual([{ name: "A", value: "1" }]);
  });
});

describe("a group's mark", () => {
  it("is read from the end of its description, 8 to 64 lower-case hex characters in brackets", () => {
    expect(groupMarkOf(`team GPUs [pulumi-aicp ${mark}]`)).toBe(mark);
    expect(groupMarkOf("[pulumi-aicp 0123abcd]")).toBe("0123abcd");
    expect(groupMarkOf("[pulumi-aicp 0123abc]")).toBeUndefined();
    expect(groupMarkOf(`[pulumi-aicp ${"a".repeat(65)}]`)).toBeUndefined();
    expect(groupMarkOf(`[pulumi-aicp ${mark.toUpperCase()}]`)).toBeUndefined();
    expect(groupMarkOf(`[pulumi-aicp ${mark}] and more`)).toBeUndefined();
    expect(groupMarkOf(42)).toBeUndefined();
    // A list whose text would read as a marked description is not a description.
    expect(groupMarkOf([`[pulumi-aicp ${mark}]`])).toBeUndefined();
  });

  it("is appended after one space, replaces an earlier mark, and stands alone in an empty description", () => {
    expect(withGroupMark("team GPUs", mark)).toBe(`team GPUs [pulumi-aicp ${mark}]`);
    expect(withGroupMark(`team GPUs [pulumi-aicp ${other}]`, mark)).toBe(`team GPUs [pulumi-aicp ${mark}]`);
    // The mark is written after exactly one space: a second space before it is the program's own text.
    expect(withGroupMark(`team GPUs  [pulumi-aicp ${other}]`, mark)).toBe(`team GPUs  [pulumi-aicp ${mark}]`);
    expect(withoutGroupMark(`hello  [pulumi-aicp ${mark}]`)).toBe("hello ");
    expect(withGroupMark(undefined, mark)).toBe(`[pulumi-aicp ${mark}]`);
    expect(withGroupMark("", mark)).toBe(`[pulumi-aicp ${mark}]`);
    expect(withoutGroupMark(`team GPUs [pulumi-aicp ${mark}]`)).toBe("team GPUs");
  });

  it("reads back any description the program wrote (that does not itself end in a mark) exactly as written", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(" ", "\t", "a", "[", "]", "\n") }), (text) => {
        fc.pre(!/\[pulumi-aicp [0-9a-f]{8,64}\]$/.test(text));
        expect(withoutGroupMark(withGroupMark(text, mark))).toBe(text);
        expect(groupMarkOf(withGroupMark(text, mark))).toBe(mark);
      }),
    );
  });

  it("takes 47 characters of the description at most", () => {
    expect(groupMarkLength).toBe(47);
    expect(withGroupMark("x", mark).length - 1).toBeLessThanOrEqual(groupMarkLength);
  });
});

describe("what a mark is", () => {
  it("is 32 lower-case hex characters", () => {
    expect(isMark(mark)).toBe(true);
    expect(isMark(mark.toUpperCase())).toBe(false);
    expect(isMark(mark.slice(1))).toBe(false);
    expect(isMark(`${mark}0`)).toBe(false);
    expect(isMark(`x${mark}`)).toBe(false);
    expect(isMark(undefined)).toBe(false);
    expect(isMark([mark])).toBe(false);
  });
});

describe("ownedElsewhere: who may write an object", () => {
  it("lets a resource write its own object and one without a mark", () => {
    expect(ownedElsewhere("notebook", "nb-1", mark, { ownerMark: mark })).toBeUndefined();
    expect(ownedElsewhere("notebook", "nb-1", undefined, { ownerMark: mark })).toBeUndefined();
  });

  it("refuses another resource's object, and any marked object to a resource that records no mark", () => {
    const refusal = ownedElsewhere("notebook", "nb-1", other, { ownerMark: mark });
    expect(refusal?.code).toBe("AICP_CONFLICT");
    expect(refusal?.message).toContain(`notebook nb-1 carries the mark ${other} of another Pulumi resource`);
    expect(refusal?.message).toContain("Notebook.get");
    expect(ownedElsewhere("notebook", "nb-1", other, {})?.code).toBe("AICP_CONFLICT");
    expect(ownedElsewhere("resource group", "rg-1", other, { ownerMark: 5 })?.message).toContain("adoptId");
    expect(() => refuseOwnedElsewhere("resource group", "rg-1", other, { ownerMark: mark })).toThrow(/resource group rg-1 carries the mark/);
    expect(() => refuseOwnedElsewhere("resource group", "rg-1", mark, { ownerMark: mark })).not.toThrow();
  });

  it("takes an import's mark over the recorded one, and a read by id claims nothing", () => {
    expect(ownedElsewhere("notebook", "nb-1", other, { ownerMark: mark, importAs: other })).toBeUndefined();
    expect(ownedElsewhere("notebook", "nb-1", mark, { ownerMark: mark, importAs: other })?.code).toBe("AICP_CONFLICT");
    expect(ownedElsewhere("notebook", "nb-1", other, { ownerMark: mark, readById: true })).toBeUndefined();
    expect(ownedElsewhere("notebook", "nb-1", other, { ownerMark: mark, readById: "yes" })?.code).toBe("AICP_CONFLICT");
  });
});

describe("the plugin's identity of a resource", () => {
  const urn = "urn:pulumi:dev::proj::aicp:index:Notebook::nb1";

  it("derives name, suffix and mark from the URN and the stack's random id", () => {
    expect(identityOf(urn, "abcd", {})).toEqual({
      logicalName: "nb1",
      // sha256("<urn>\nabcd"), first 7 hex characters
      autoNameSuffix: "dcd8c6e",
      // sha256("abcd\n<urn>"), first 32 hex characters
      ownerMark: "89c0e15b2e656507587734eee124b054",
    });
  });

  it("keeps what was recorded, unless it is empty or not text", () => {
    const olds = { logicalName: "old", autoNameSuffix: "1234567", ownerMark: mark };
    expect(identityOf(urn, "abcd", olds)).toEqual(olds);
    expect(identityOf(urn, "abcd", { logicalName: "", autoNameSuffix: 5, ownerMark: "" })).toEqual(identityOf(urn, "abcd", {}));
  });

  it("keeps its random id under the provider input stackMark, as recorded states hold it", () => {
    expect(stackMarkKey).toBe("stackMark");
  });

  it("makes a new random id of 32 hex characters each time", () => {
    expect(newStackIdentity()).toMatch(/^s2-[0-9a-f]{32}$/);
    expect(newStackIdentity()).not.toBe(newStackIdentity());
  });
});

describe("the stack mark resource", () => {
  it("makes a random value once and keeps the recorded one ever after", async () => {
    // Configured with nothing pinned (the unit project shares modules between files: no earlier file's settings count).
    configureFrom(() => undefined, {});
    const made = (await stackMark.check({}, {})).inputs?.value;
    expect(made).toMatch(/^s2-[0-9a-f]{32}$/);
    expect((await stackMark.check({ value: "kept" }, { value: "new" })).inputs).toEqual({ value: "kept" });
    expect((await stackMark.check({ value: "" }, {})).inputs?.value).toMatch(/^s2-[0-9a-f]{32}$/);
    expect(await stackMark.diff()).toEqual({ changes: false });
    expect(await stackMark.create({ value: "v1" })).toEqual({ id: "v1", outs: { value: "v1" } });
    expect(await stackMark.read("v1", {})).toEqual({ id: "v1", props: { value: "v1" } });
    // An import reads with no recorded properties at all, and a first check has no olds.
    expect(await stackMark.read("v1", undefined as never)).toEqual({ id: "v1", props: { value: "v1" } });
    expect((await stackMark.check(undefined as never, {})).inputs?.value).toMatch(/^s2-[0-9a-f]{32}$/);
    expect(await stackMark.read("v1", { value: "v2" })).toEqual({ id: "v1", props: { value: "v2" } });
    expect(await stackMark.update("v1", {})).toEqual({ outs: { value: "v1" } });
    expect(await stackMark.update("v1", { value: "v2" })).toEqual({ outs: { value: "v2" } });
  });
});
