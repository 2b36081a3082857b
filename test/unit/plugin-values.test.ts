/** The plugin's own small decisions: secrets on and off the wire, and the identity it adds to a resource's inputs. */
import { describe, expect, it } from "vitest";
import { identityOf } from "../../plugin/identity";
import { newStackIdentity } from "../../provider/identity";
import { holdsSecret, reveal, secret, unknownValue, withSecrets } from "../../plugin/values";

// The engine's marks, written out here from Pulumi's rpc marshalling, not imported from the code under test.
const secretMark = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

describe("secrets on the wire", () => {
  it("takes the engine's secret marks off at any depth, and leaves an unknown value as it is", () => {
    const wire = {
      envs: [{ name: "T", value: { ...secretMark, value: "s" } }],
      image: { ...secretMark, value: { ...secretMark, value: "x" } },
      later: unknownValue,
    };
    expect(reveal(wire)).toEqual({ envs: [{ name: "T", value: "s" }], image: "x", later: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" });
  });

  it("finds a secret at any depth, and only a marked one (a string that merely contains the mark's text is none)", () => {
    expect(holdsSecret({ ...secretMark, value: "s" })).toBe(true);
    expect(holdsSecret([{ name: "T", value: { ...secretMark, value: "s" } }])).toBe(true);
    expect(holdsSecret({ a: { b: [1, { ...secretMark, value: null }] } })).toBe(true);
    expect(holdsSecret({ note: "1b47061264138c4ac30d75fd1eb44270", image: "x" })).toBe(false);
    expect(holdsSecret(null)).toBe(false);
  });

  it("marks the named properties that hold something, and only those", () => {
    expect(withSecrets({ servers: [1], envs: null, image: "i" }, ["servers", "envs", "absent"])).toEqual({
      servers: { ...secretMark, value: [1] },
      envs: null,
      image: "i",
    });
    expect(secret("p")).toEqual({ ...secretMark, value: "p" });
  });
});

describe("the identity a resource gets", () => {
  const urn = "urn:pulumi:ci::proj::aicp:index:Notebook::research";

  it("is the same on every run of a stack, and differs in another stack and for another resource", () => {
    const mark = newStackIdentity();
    const first = identityOf(urn, mark, {});
    expect(identityOf(urn, mark, {})).toEqual(first);
    expect(first.logicalName).toBe("research");
    expect(first.autoNameSuffix).toMatch(/^[0-9a-f]{6}-[0-9a-f]{7}$/);
    expect(first.ownerMark).toMatch(/^[0-9a-f]{32}$/);
    const elsewhere = identityOf(urn, newStackIdentity(), {});
    expect(elsewhere.ownerMark).not.toBe(first.ownerMark);
    expect(elsewhere.autoNameSuffix).not.toBe(first.autoNameSuffix);
    expect(identityOf(urn.replace("research", "other"), mark, {}).ownerMark).not.toBe(first.ownerMark);
  });

  it("keeps what was recorded, so a renamed or moved resource (or one from the dynamic provider) keeps its name and mark", () => {
    const recorded = { logicalName: "old", autoNameSuffix: "abc1234", ownerMark: "f".repeat(32) };
    expect(identityOf(urn, newStackIdentity(), recorded)).toEqual(recorded);
  });
});
