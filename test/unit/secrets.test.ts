/**
 * What the provider keeps of passwords (provider/secrets.ts) and what error
 * messages keep of secrets (client/errors.ts redact), with expectations
 * written out by hand; the digests were computed with Python's hashlib
 * (scrypt n=16384 r=8 p=1, and HMAC-SHA256), never by the code under test.
 */
import { describe, expect, it } from "vitest";
import { AicpError, redact, rememberSecret } from "../../client/errors";
import { isRecordedSecret, matchesDigest, passwordDigest, recordImageSecret, sameRecordedSecret, withoutServerPasswords } from "../../provider/secrets";

/** hashlib.scrypt(b"hunter2", salt=b"00ff", n=16384, r=8, p=1, dklen=32) */
const scryptOfHunter2 = "scrypt:00ff:d07b2b72b7ad9adaa6d4c7aef76394b96dc41d6f03bdde9e962f7be07f9b56c4";
/** hmac.new(b"legacy-key", b"hunter2", sha256) */
const legacyOfHunter2 = "hmac-sha256:1ff819c9540ddb7e351dd6280229bf32afbe82b10d80c8b4b8e68187961ef29f";

describe("password digests", () => {
  it("are scrypt of the password with the salt written beside it, a new salt each time", () => {
    expect(passwordDigest("hunter2", "00ff")).toBe(scryptOfHunter2);
    expect(passwordDigest("hunter2")).toMatch(/^scrypt:[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(passwordDigest("hunter2")).not.toBe(passwordDigest("hunter2"));
  });

  it("match their password only, and read the HMAC digests of earlier versions with the key they were made with", () => {
    expect(matchesDigest("hunter2", scryptOfHunter2, "")).toBe(true);
    expect(matchesDigest("hunter3", scryptOfHunter2, "")).toBe(false);
    expect(matchesDigest("hunter2", legacyOfHunter2, "legacy-key")).toBe(true);
    expect(matchesDigest("hunter2", legacyOfHunter2, "another-key")).toBe(false);
    expect(matchesDigest("hunter2", scryptOfHunter2.replace("scrypt:", "scrypt:x"), "")).toBe(false);
    expect(matchesDigest("hunter2", undefined, "")).toBe(false);
    // Malformed records are no match, never an error: text around a digest, a digest in a list.
    expect(matchesDigest("hunter2", `x${scryptOfHunter2}`, "")).toBe(false);
    expect(matchesDigest("hunter2", `${scryptOfHunter2}0`, "")).toBe(false);
    expect(matchesDigest("hunter2", [scryptOfHunter2], "")).toBe(false);
  });

  it("replace the password in what is recorded; credentials without one are recorded as they are", () => {
    const recorded = recordImageSecret({ hasAuth: true, username: "robot", password: "hunter2" });
    expect(Object.keys(recorded!).sort()).toEqual(["hasAuth", "passwordDigest", "username"]);
    expect(matchesDigest("hunter2", recorded!.passwordDigest, "")).toBe(true);
    expect(recordImageSecret({ hasAuth: false, username: "robot" })).toEqual({ hasAuth: false, username: "robot" });
    expect(recordImageSecret(undefined)).toBeUndefined();
  });

  it("tell recorded credentials (a digest, no password) from a program's", () => {
    expect(isRecordedSecret({ passwordDigest: scryptOfHunter2 })).toBe(true);
    expect(isRecordedSecret({ passwordDigest: scryptOfHunter2, password: "hunter2" })).toBe(false);
    expect(isRecordedSecret({ passwordDigest: scryptOfHunter2, passwordFromEnv: "PW" })).toBe(false);
    expect(isRecordedSecret({ password: "hunter2" })).toBe(false);
    expect(isRecordedSecret(null)).toBe(false);
    expect(isRecordedSecret("text")).toBe(false);
  });
});

describe("sameRecordedSecret", () => {
  const recorded = { hasAuth: true, username: "robot", passwordDigest: scryptOfHunter2 };

  it("compares the password with its digest and everything else as it is", () => {
    expect(sameRecordedSecret(recorded, { hasAuth: true, username: "robot", password: "hunter2" }, "")).toBe(true);
    expect(sameRecordedSecret(recorded, { hasAuth: true, username: "robot", password: "hunter3" }, "")).toBe(false);
    expect(sameRecordedSecret(recorded, { hasAuth: true, username: "other", password: "hunter2" }, "")).toBe(false);
    expect(sameRecordedSecret(recorded, { hasAuth: true, username: "robot" }, "")).toBe(false);
    expect(sameRecordedSecret({ hasAuth: true, username: "robot" }, { hasAuth: true, username: "robot" }, "")).toBe(true);
  });

  it("takes credentials kept from the state as they are, and absent on both sides as the same", () => {
    expect(sameRecordedSecret(recorded, { ...recorded }, "")).toBe(true);
    expect(sameRecordedSecret(recorded, { ...recorded, username: "other" } as never, "")).toBe(false);
    expect(sameRecordedSecret(undefined, undefined, "")).toBe(true);
    expect(sameRecordedSecret(null, undefined, "")).toBe(true);
    expect(sameRecordedSecret(undefined, { username: "robot" }, "")).toBe(false);
    expect(sameRecordedSecret(recorded, undefined, "")).toBe(false);
    expect(sameRecordedSecret(null, { username: "robot" }, "")).toBe(false);
  });
});

describe("server passwords", () => {
  it("are left out of every server, other fields and entries that are not objects kept", () => {
    expect(withoutServerPasswords([{ server_name: "ssh", password: "pw", port: 22 }, null as never])).toEqual([{ server_name: "ssh", port: 22 }, null]);
    expect(withoutServerPasswords(["text" as never])).toEqual(["text"]);
    expect(withoutServerPasswords(undefined)).toBeUndefined();
    expect(withoutServerPasswords(null)).toBeUndefined();
  });
});

describe("redact", () => {
  it("cuts signature and access_key_id values out of URLs, in any case, up to the next separator", () => {
    expect(redact("GET /x?SIGNATURE=abc%3D&Access_Key_Id=AK1 next")).toBe("GET /x?SIGNATURE=<redacted>&Access_Key_Id=<redacted> next");
    expect(redact(`"signature=abc" 'access_key_id=AK' <signature=s>`)).toBe(`"signature=<redacted>" 'access_key_id=<redacted>' <signature=<redacted>>`);
    expect(redact("mysignature=abc")).toBe("mysignature=abc");
  });

  it("cuts a remembered secret of 4 characters or more, in raw, JSON and URL forms, everywhere it occurs", () => {
    rememberSecret("k3y");
    rememberSecret(12345);
    expect(redact("k3y 12345")).toBe("k3y 12345");
    rememberSecret('a"b/c d');
    expect(redact('a"b/c d, "a\\"b/c d", a%22b%2Fc%20d, a"b/c d')).toBe('<secret>, "<secret>", <secret>, <secret>');
    rememberSecret("pw-9");
    expect(new AicpError("AICP_HTTP", "echo pw-9", { platformMessage: "pw-9!" })).toMatchObject({ message: "echo <secret>", platformMessage: "<secret>!" });
    expect(new AicpError("AICP_HTTP", "no platform message").platformMessage).toBeUndefined();
  });
});
