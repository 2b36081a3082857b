/**
 * plugin/autonaming.ts by hand: which settings tell the plugin that the engine deletes first on every
 * replacement (a name with no random part: its step_generator.go), and the names they give.
 */
import { describe, expect, it } from "vitest";
import { engineDeletesFirst, namedBy } from "../../plugin/autonaming";

describe("the stack's autonaming setting, as one Check receives it", () => {
  it("says the engine deletes first only where the name cannot hold a random part", () => {
    expect(engineDeletesFirst(undefined, "nb")).toBe(false);
    expect(engineDeletesFirst({ proposedName: "nb", mode: "propose" }, "nb")).toBe(true);
    expect(engineDeletesFirst({ proposedName: "nb", mode: "enforce" }, "nb")).toBe(true);
    expect(engineDeletesFirst({ proposedName: "", mode: "disable" }, "nb")).toBe(true);
    // `${name}-${hex(4)}`, `${stack}-${name}`: the plugin cannot tell a random part from a fixed one.
    expect(engineDeletesFirst({ proposedName: "nb-1f2e", mode: "propose" }, "nb")).toBe(false);
    expect(engineDeletesFirst({ proposedName: "ci-nb", mode: "enforce" }, "nb")).toBe(false);
  });

  it("gives an enforced name to a resource that sets none and has no recorded auto-name; disable asks for one", () => {
    expect(namedBy({ proposedName: "ci-nb", mode: "enforce" }, {}, {})).toEqual({ name: "ci-nb" });
    expect(namedBy({ proposedName: "ci-nb", mode: "enforce" }, { name: "mine" }, {})).toBeUndefined();
    expect(namedBy({ proposedName: "ci-nb", mode: "enforce" }, {}, { autoNamed: true })).toBeUndefined();
    expect(namedBy({ proposedName: "ci-nb", mode: "propose" }, {}, {})).toBeUndefined();
    expect(namedBy({ proposedName: "", mode: "disable" }, {}, {})).toEqual({ problem: expect.stringContaining("name is required") });
    expect(namedBy({ proposedName: "", mode: "disable" }, { name: "mine" }, {})).toBeUndefined();
    expect(namedBy(undefined, {}, {})).toBeUndefined();
  });
});
