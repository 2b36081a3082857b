/**
 * Independent oracles for signature tests: HMAC-SHA256 and MD5 computed by
 * openssl and md5sum in a shell, so neither Node's crypto nor any code of the
 * project is on both sides of a comparison. A machine without them fails the
 * test with a message saying how to get them.
 */
import { execFileSync } from "node:child_process";

function shell(script: string, env: Record<string, string>): string {
  try {
    return execFileSync("sh", ["-c", script], { env: { ...process.env, ...env }, encoding: "utf8" });
  } catch (error) {
    throw new Error(`this test needs openssl and md5sum on PATH (Debian: apt-get install openssl coreutils): ${(error as Error).message}`);
  }
}

/** Base64(HMAC-SHA256(secret, text)) by openssl. */
export function opensslHmacBase64(secret: string, text: string): string {
  return shell('printf "%s" "$TEXT" | openssl dgst -sha256 -hmac "$KEY" -binary | base64', { TEXT: text, KEY: secret }).trim();
}

/** Hex MD5 of text by md5sum. */
export function md5sumHex(text: string): string {
  return shell('printf "%s" "$TEXT" | md5sum', { TEXT: text }).split(" ")[0]!;
}
