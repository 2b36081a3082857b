/**
 * A function's bad arguments are reported before a missing setting, on both
 * fronts: nothing about the platform is needed to say that `limit` must be
 * positive (functions/function.ts: the client is built when first read). In the
 * contract project: each file has its modules to itself, and this one sets the
 * functions' settings and the provider's for the process.
 */
import { describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { resolveSettings } from "../../client/config";
import { functions } from "../../plugin/functions";
import { configureFrom } from "../../provider/context";
import { getResourceTemplates } from "../../sdk";
import { takeSettingsFrom } from "../../sdk/functions/program-client";

const codeOf = (error: unknown) => (error instanceof AicpError ? error.code : String(error));

describe("a function called with a bad argument and no credentials", () => {
  it("TypeScript package: AICP_VALIDATION, not the missing credentials", async () => {
    takeSettingsFrom(() => resolveSettings(() => undefined, {}));
    expect(codeOf(await getResourceTemplates({ limit: -1 }).catch((e: unknown) => e))).toBe("AICP_VALIDATION");
  });

  it("plugin: AICP_VALIDATION, not the missing credentials", async () => {
    configureFrom(() => undefined, { checkable: false });
    expect(codeOf(await functions.getResourceTemplates.call({ limit: -1 } as never).catch((e: unknown) => e))).toBe("AICP_VALIDATION");
  });
});
