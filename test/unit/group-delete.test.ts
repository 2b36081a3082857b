/**
 * The bound of the wait for a deleted group to go (provider/resource-group/delete.ts): the engine's timeout when it gave one, else
 * aicp:deleteTimeoutSeconds.
 */
import { describe, expect, it } from "vitest";
import { configureFrom } from "../../provider/context";
import { deleteTimeoutMs, engineTimeoutKey } from "../../provider/resource-group/delete";

describe("deleteTimeoutMs", () => {
  configureFrom((key) => ({ "aicp:userId": "usr-a", "aicp:deleteTimeoutSeconds": "7" })[key]);

  it("is the engine's timeout of the operation, in ms, when it gave one", () => {
    expect(engineTimeoutKey).toBe("engineTimeoutSeconds");
    expect(deleteTimeoutMs({ engineTimeoutSeconds: 2 })).toBe(2000);
    expect(deleteTimeoutMs({ engineTimeoutSeconds: 0.5 })).toBe(500);
  });

  it("is aicp:deleteTimeoutSeconds when the engine gave none (0, absent, not a number, negative)", () => {
    for (const given of [0, undefined, "soon", -3, Number.POSITIVE_INFINITY])
      expect(deleteTimeoutMs({ engineTimeoutSeconds: given }), String(given)).toBe(7000);
  });
});
