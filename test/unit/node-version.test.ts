/**
 * The minimum Node.js and the line an entry point says under an older one
 * (client/node-version.ts); under a real Node 20, test/e2e/node-version.test.ts.
 */
import { describe, expect, it } from "vitest";
import { minimumNode, nodeTooOld, olderThan } from "../../client/node-version";

describe("the minimum Node.js", () => {
  it("is package.json's engines.node, 22.19", () => {
    expect(minimumNode()).toBe("22.19");
  });

  it.each([
    ["v20.20.2", true],
    ["v21.9.0", true],
    ["v22.18.9", true],
    ["22.19.0", false],
    ["v22.23.3", false],
    ["v24.0.0", false],
    ["v100.0.0", false],
  ])("%s older than 22.19: %s", (version, older) => {
    expect(olderThan(version, "22.19")).toBe(older);
  });

  it("one line naming the Node needed, the one found and where, then the advice", () => {
    expect(nodeTooOld("pulumi-aicp", "", "v20.20.2", "/opt/node20/bin/node")).toBe(
      "pulumi-aicp needs Node.js 22.19 or newer; this is Node.js v20.20.2 (/opt/node20/bin/node)",
    );
    expect(nodeTooOld("pulumi-resource-aicp", "set PULUMI_AICP_NODE to a newer node", "v18.0.0", "/usr/bin/node")).toBe(
      "pulumi-resource-aicp needs Node.js 22.19 or newer; this is Node.js v18.0.0 (/usr/bin/node); set PULUMI_AICP_NODE to a newer node",
    );
    expect(nodeTooOld("pulumi-aicp", "", "v22.19.0", "/usr/bin/node")).toBeUndefined();
  });
});
