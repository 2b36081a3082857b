/**
 * A required input the program left out is reported as missing, with what
 * it must be, not as a value of the wrong kind (issue: "Invalid option:
 * expected one of …" did not say chargeMode was missing). No requests.
 */
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../client/config";
import { checkNotebook, type NotebookInputs } from "../../provider/notebook/inputs";
import { validNotebookInputs } from "../support/fixtures";

const settings = resolveSettings((k) => (k === "aicp:userId" ? "usr-abc123" : undefined), {});

function reasons(leftOut: keyof NotebookInputs): Record<string, string> {
  const { [leftOut]: _gone, ...rest } = validNotebookInputs();
  return Object.fromEntries(checkNotebook({}, rest as NotebookInputs, settings).failures.map((f) => [f.property, f.reason]));
}

describe("a required Notebook input left out", () => {
  it("chargeMode: missing, and one of its two values", () => {
    expect(reasons("chargeMode").chargeMode).toBe('chargeMode is missing: set it to one of "elastic"|"monthly"');
  });

  it("image: missing, and what kind of value", () => {
    expect(reasons("image").image).toBe("image is missing: set it to a string");
  });

  it("a value given of the wrong kind still says what it got", () => {
    const { failures } = checkNotebook({}, { ...validNotebookInputs(), chargeMode: "hourly" } as unknown as NotebookInputs, settings);
    expect(failures.find((f) => f.property === "chargeMode")?.reason).toMatch(/^chargeMode Invalid option: expected one of "elastic"\|"monthly"/);
  });
});

describe("a Notebook userId other than the configured user", () => {
  it("is refused in check, naming the property and the configured user", () => {
    const { failures } = checkNotebook({}, { ...validNotebookInputs(), userId: "usr-someone-else" }, settings);
    const reason = failures.find((f) => f.property === "userId")?.reason ?? "";
    expect(reason).toContain("userId 'usr-someone-else' is not the user the provider acts for");
    expect(reason).toContain("aicp:userId 'usr-abc123'");
  });

  it("leaves an existing notebook of that userId alone: nothing is created under it", () => {
    const recorded = { ...validNotebookInputs(), userId: "usr-someone-else" };
    const { failures } = checkNotebook(recorded, { ...validNotebookInputs(), userId: "usr-someone-else" }, settings);
    expect(failures.filter((f) => f.property === "userId")).toEqual([]);
  });

  it("passes when it is the configured user in another case", () => {
    const { failures } = checkNotebook({}, { ...validNotebookInputs(), userId: "USR-ABC123" }, settings);
    expect(failures.filter((f) => f.property === "userId")).toEqual([]);
  });
});
