/**
 * The errors of a create that is partly made or unconfirmed (provider/create-errors.ts): the messages and fields
 * the engine records and a user reads. Apart from create-once.test.ts, whose cases run the create path itself.
 */
import { describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { partlyCreated, pastWindow, stillUnconfirmed } from "../../provider/create-errors";

describe("the errors of a create that is partly made or unconfirmed", () => {
  it("lead with the cause's code once, and carry the id and properties the engine records", () => {
    const error = partlyCreated("notebook", new AicpError("AICP_WAIT", "not Running after 60 s"), "nb-1", { name: "nb" });
    expect(error).toMatchObject({
      message: "AICP_WAIT: notebook nb-1: not Running after 60 s",
      id: "nb-1",
      properties: { name: "nb" },
      reasons: ["AICP_WAIT: not Running after 60 s"],
    });
    expect(partlyCreated("notebook", new AicpError("AICP_WAIT", "AICP_WAIT: late"), "nb-1", {}).message).toBe("notebook nb-1: AICP_WAIT: late");
    expect(partlyCreated("notebook", "plain", "nb-1", {}).message).toBe("notebook nb-1: plain");
  });

  it("are waits that name the create and when it may still appear", () => {
    const still = stillUnconfirmed("notebook", "namespace usr-1", { name: "nb", createSentAt: "T0" }, "T1");
    expect(still).toMatchObject({ code: "AICP_WAIT" });
    expect(still.message).toContain("the create of notebook 'nb' sent at T0 is still unconfirmed");
    expect(still.message).toContain("(until T1)");
    const past = pastWindow("notebook", "namespace usr-1", "unconfirmed-create-x", { name: "nb", createSentAt: "T0" }, "T1");
    expect(past).toMatchObject({ code: "AICP_WAIT" });
    expect(past.message).toContain("(recorded as unconfirmed-create-x) has not been listed in namespace usr-1, and its window ended at T1");
    expect(past.message).toContain("`pulumi state delete <URN>`");
  });
});
