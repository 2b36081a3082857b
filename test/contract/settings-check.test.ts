/**
 * The check of the settings against the platform (docs/configuration.md),
 * in-process against the emulator over HTTP, as the engine drives the dynamic
 * provider: configure, then check of a valid resource. A wrong key, zone,
 * base URL or user id fails with one line naming the setting, with nothing
 * written; a good configuration costs one read per provider process; bad
 * input is still reported before any request; aicp:skipCredentialsValidation
 * costs no read. Each expected line is written out here by hand. The same
 * through the real engine's preview: test/e2e/settings-preview.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { configure, forKind } from "../../provider/index";
import { configureFrom, currentSettings } from "../../provider/context";
import { emulatorCredentials, emulatorSettings, startTestEmulator } from "../support/emulator";

/** An auto-named group: its check looks nothing up, so any request is the settings' check. */
const group = { logicalName: "pool", skuId: "sku-1", podTypes: ["job"] };

/** Configures the dynamic provider as the engine would, with the stack's config, then checks `inputs`; the error's message, if any. */
async function configureWith(source: (key: string) => string | undefined, inputs: Record<string, unknown> = group): Promise<string | undefined> {
  try {
    await configure({ config: { get: source } } as never);
    const result = await forKind("ResourceGroup").check({} as never, inputs as never);
    return result.failures?.map((f) => f.reason).join("; ");
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the settings are checked against the platform", () => {
  let emulator: Emulator;
  const apiRequests = () => emulator.requests().filter((r) => r.operation !== "admin");
  /** How every failure ends: the read that found it, and the way around the check. */
  const found = (requestId: string | undefined) =>
    `. Found by listNotebooks, request id ${requestId}, the one read that checks the settings; set aicp:skipCredentialsValidation ` +
    `(or AICP_SKIP_CREDENTIALS_VALIDATION) to true to skip it, e.g. for an offline preview.`;

  beforeAll(async () => {
    emulator = await startTestEmulator({
      credentials: [emulatorCredentials, { accessKeyId: "AKIDOTHER", secretAccessKey: "other-secret", userId: "usr-other" }],
    });
  });
  afterAll(() => emulator?.close());
  beforeEach(() => emulator.clearRequests());

  it("a working configuration costs one read, once per process", async () => {
    expect(await configureWith(emulatorSettings(emulator))).toBeUndefined();
    // The engine configures once per resource kind with the same settings.
    expect(await configureWith(emulatorSettings(emulator))).toBeUndefined();
    expect(apiRequests().map((r) => `${r.method} ${r.operation} ${r.status}`)).toEqual(["GET listNotebooks 200"]);
  });

  it("a wrong secret key fails configure with one line naming the keys, and every later call with it", async () => {
    const message = await configureWith(emulatorSettings(emulator, { "aicp:secretAccessKey": "not-the-secret" }));
    const requestId = apiRequests()[0]?.requestId;
    expect(message).toBe(
      `AICP_CONFIG: credentials refused (HTTP 401, ret_code 1102, "signature does not match: check the secret access key and sign METHOD, the path with ` +
        `a trailing slash, the sorted query and the MD5 line exactly as sent"): check aicp:accessKeyId and aicp:secretAccessKey (or QY_ACCESS_KEY_ID and ` +
        `QY_SECRET_ACCESS_KEY)${found(requestId)}`,
    );
    expect(message).not.toContain("not-the-secret");
    expect(() => currentSettings()).toThrow(message!);
    expect(apiRequests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a wrong zone names aicp:zone", async () => {
    const message = await configureWith(emulatorSettings(emulator, { "aicp:zone": "zz9" }));
    expect(message).toBe(
      `AICP_CONFIG: zone 'zz9' refused (HTTP 400, "zone 'zz9' is unknown; known zones: xb3, xb2, hb2, hd1"): set aicp:zone (or AICP_ZONE) to your ` +
        `account's zone (the public clients use xb3, xb2 and hb2)${found(apiRequests()[0]?.requestId)}`,
    );
  });

  it("a user id of another account names aicp:userId", async () => {
    const message = await configureWith(emulatorSettings(emulator, { "aicp:userId": "usr-other" }));
    expect(message).toBe(
      `AICP_CONFIG: user id 'usr-other' refused (HTTP 403, ret_code 1103, "namespace 'usr-other' does not belong to this access key; its namespace is ` +
        `'usr-emulator'"): set aicp:userId (or CORESHUB_USER_ID) to the user id of the access key's account${found(apiRequests()[0]?.requestId)}`,
    );
  });

  it("an unreachable base URL names aicp:baseUrl", async () => {
    const message = await configureWith(emulatorSettings(emulator, { "aicp:baseUrl": "http://127.0.0.1:9", "aicp:requestTimeoutSeconds": "2" }));
    expect(message).toBe(
      `AICP_CONFIG: cannot reach http://127.0.0.1:9: ECONNREFUSED; check aicp:baseUrl (or AICP_BASE_URL) and the network${found("(none returned)")}`,
    );
  });

  it("a base URL that is not the platform names aicp:baseUrl", async () => {
    // A web server that is not the platform: it answers every path with a page of HTML.
    const { createServer } = await import("node:http");
    const server = createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<html>not found</html>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const message = await configureWith(emulatorSettings(emulator, { "aicp:baseUrl": url, "aicp:pathPrefix": "/aicp" }));
      expect(message).toBe(
        `AICP_CONFIG: ${url} does not answer with the platform's envelope (HTTP 404): check aicp:baseUrl (or AICP_BASE_URL)${found("(none returned)")}`,
      );
    } finally {
      server.close();
    }
  });

  it("aicp:skipCredentialsValidation sends nothing, and its environment variable does too", async () => {
    expect(await configureWith(emulatorSettings(emulator, { "aicp:secretAccessKey": "wrong", "aicp:skipCredentialsValidation": "true" }))).toBeUndefined();
    process.env.AICP_SKIP_CREDENTIALS_VALIDATION = "true";
    try {
      expect(await configureWith(emulatorSettings(emulator, { "aicp:zone": "zz9" }))).toBeUndefined();
    } finally {
      delete process.env.AICP_SKIP_CREDENTIALS_VALIDATION;
    }
    expect(apiRequests()).toEqual([]);
  });

  it("bad input is reported before any request, the settings' read included", async () => {
    expect(await configureWith(emulatorSettings(emulator, { "aicp:secretAccessKey": "wrong" }), { ...group, podTypes: ["train"] })).toBe(
      `podTypes[0] Invalid option: expected one of "infer"|"instance"|"job", got "train"`,
    );
    expect(apiRequests()).toEqual([]);
  });

  it("an answer that says nothing of the settings (a busy platform) lets the operation go on, and a later one checks again", async () => {
    emulator.addFault({ kind: "retCode", operation: "listNotebooks", count: 1, retCode: 5000, message: "system busy, try again" });
    try {
      expect(await configureWith(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "7" }))).toBeUndefined();
      expect(await configureWith(emulatorSettings(emulator, { "aicp:requestTimeoutSeconds": "7" }))).toBeUndefined();
    } finally {
      emulator.clearFaults();
    }
    expect(apiRequests().map((r) => `${r.operation} ${r.retCode}`)).toEqual(["listNotebooks 5000", "listNotebooks 0"]);
  });

  it("a setting not known yet (a preview) sends nothing: neither the settings' read nor a pinned name's lookup", async () => {
    configureFrom(emulatorSettings(emulator, { "aicp:secretAccessKey": "not-known-yet" }), { checkable: false });
    const pinned = { ...group, name: "pinned-pool" };
    expect(await forKind("ResourceGroup").check({} as never, pinned as never)).toMatchObject({ inputs: { name: "pinned-pool" } });
    expect(apiRequests()).toEqual([]);
  });

  it("a skip value that is not a boolean is refused before any request", async () => {
    expect(await configureWith(emulatorSettings(emulator, { "aicp:skipCredentialsValidation": "yes" }))).toBe(
      `AICP_CONFIG: aicp:skipCredentialsValidation (or AICP_SKIP_CREDENTIALS_VALIDATION) must be "true" or "false", got 'yes'`,
    );
    expect(apiRequests()).toEqual([]);
  });
});
