/** Every AicpError is redacted where it is built: signed-URL parameters and every secret the process handled. */
import { describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { resolveSettings } from "../../client/config";
import { resolveImageSecret } from "../../provider/notebook/inputs";

describe("redaction of error messages", () => {
  it("cuts the secret key out of any message once settings were read", () => {
    resolveSettings(() => undefined, { QY_ACCESS_KEY_ID: "AKID", QY_SECRET_ACCESS_KEY: "sk-never-printed-41" });
    const error = new AicpError("AICP_RET_CODE", 'refused: {"secret":"sk-never-printed-41"}', { platformMessage: "echo sk-never-printed-41" });
    expect(error.message).toBe('refused: {"secret":"<secret>"}');
    expect(error.platformMessage).toBe("echo <secret>");
  });

  it("cuts a registry password out, also JSON-escaped and URL-encoded", () => {
    const password = 'p@ss"word/42';
    resolveImageSecret({ hasAuth: true, username: "robot", password });
    const echoed = `body ${JSON.stringify({ password })} url ?password=${encodeURIComponent(password)} raw ${password}`;
    expect(new AicpError("AICP_HTTP", echoed).message).toBe('body {"password":"<secret>"} url ?password=<secret> raw <secret>');
  });

  it("cuts signatures and key ids out of echoed URLs", () => {
    const message = new AicpError("AICP_MALFORMED", "GET /aicp/x?access_key_id=AKID1&limit=1&signature=abc%2Bdef%3D&zone=xb3").message;
    expect(message).toBe("GET /aicp/x?access_key_id=<redacted>&limit=1&signature=<redacted>&zone=xb3");
  });
});
