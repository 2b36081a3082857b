/** The Notebook's outputs come from the kind's description (client/wire/notebook.ts notebookOutputs), which the SDK declares exactly. */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notebookOutputs } from "../../client/wire/notebook";
import { declaredOutputs } from "../support/declared-keys";

describe("the Notebook kind", () => {
  it("the SDK class declares exactly the described outputs", () => {
    expect(declaredOutputs(resolve("sdk/notebook.generated.ts"), "NotebookProperties")).toEqual([...notebookOutputs].sort());
  });

  it("leaves out what no program sets, keeps the provider's own fields (spelled here by hand)", () => {
    for (const requestOnly of ["service", "action", "zone", "owner"]) expect(notebookOutputs).not.toContain(requestOnly);
    for (const own of ["uuid", "status", "reason", "servers", "runningTime", "desiredState", "waitForReady", "readyTimeoutSeconds", "customImageSecret"]) {
      expect(notebookOutputs).toContain(own);
    }
  });
});
