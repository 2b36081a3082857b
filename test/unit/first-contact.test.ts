/** The lines of a failed first request (client/first-contact.ts), and which answers say something of the settings; texts written by hand. */
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../client/config";
import { AicpError } from "../../client/errors";
import { definiteAboutSettings, firstContactLine } from "../../client/first-contact";
import { importedEnvVariable } from "../../plugin/import";

const settings = resolveSettings(() => undefined, { AICP_BASE_URL: "https://aicp.example.com", CORESHUB_USER_ID: "usr-a" });
const answer = (status: number, retCode?: number, platformMessage?: string) =>
  new AicpError("AICP_HTTP", `HTTP ${status}`, { status, ...(retCode === undefined ? {} : { retCode }), ...(platformMessage ? { platformMessage } : {}) });

describe("a failed first request", () => {
  it("blames no setting for a platform that failed or is busy", () => {
    expect(firstContactLine(settings, answer(502))).toBe("the platform did not answer normally (HTTP 502): try again later");
    expect(firstContactLine(settings, answer(500, 5000, "internal error"))).toBe(
      "the platform did not answer normally (HTTP 500, ret_code 5000): try again later",
    );
    expect(definiteAboutSettings(settings, answer(502))).toBe(false);
    expect(definiteAboutSettings(settings, answer(429))).toBe(false);
    expect(definiteAboutSettings(settings, answer(200, 5000, "system busy, try again"))).toBe(false);
    expect(definiteAboutSettings(settings, new AicpError("AICP_TIMEOUT", "timed out"))).toBe(false);
  });

  it("takes a refusal, an answer that is not the platform's, or no listener as said of the settings", () => {
    expect(definiteAboutSettings(settings, answer(401, 1102, "signature does not match"))).toBe(true);
    expect(definiteAboutSettings(settings, answer(404))).toBe(true);
    expect(firstContactLine(settings, answer(404))).toBe(
      "https://aicp.example.com does not answer with the platform's envelope (HTTP 404): check aicp:baseUrl (or AICP_BASE_URL)",
    );
    const refused = new AicpError("AICP_NETWORK", "connect failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });
    expect(definiteAboutSettings(settings, refused)).toBe(true);
    const reset = new AicpError("AICP_NETWORK", "socket hang up", { cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }) });
    expect(definiteAboutSettings(settings, reset)).toBe(false);
  });
});

describe("a refusal", () => {
  it("names the user id only when the platform speaks of a namespace or of that id, the keys otherwise", () => {
    expect(firstContactLine(settings, answer(403, 1103, "namespace 'usr-a' does not belong to this access key"))).toBe(
      `user id 'usr-a' refused (HTTP 403, ret_code 1103, "namespace 'usr-a' does not belong to this access key"): set aicp:userId (or CORESHUB_USER_ID) ` +
        "to the user id of the access key's account",
    );
    expect(firstContactLine(settings, answer(403, 1200, "user has no permission"))).toBe(
      `credentials refused (HTTP 403, ret_code 1200, "user has no permission"): check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID ` +
        "and QY_SECRET_ACCESS_KEY)",
    );
  });
});

describe("the variable pulumi import names for an env", () => {
  it("is named for the notebook and the env, upper case, never the env's own name", () => {
    expect(importedEnvVariable("console-notebook", "HF_TOKEN")).toBe("AICP_CONSOLE_NOTEBOOK_HF_TOKEN");
    expect(importedEnvVariable("nb.1", "tz")).toBe("AICP_NB_1_TZ");
  });
});
