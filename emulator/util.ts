/** Small helpers shared by the emulator's modules: ids and deterministic pseudo-randomness. */
import { createHash, randomBytes } from "node:crypto";

const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

/** `prefix` + `length` random lowercase alphanumerics, the platform's id style (e.g. nb-egzgnq0bhxq8). */
export function randomId(prefix: string, length = 12): string {
  const bytes = randomBytes(length);
  let out = prefix;
  // 252 = 7 * 36: values above would bias the alphabet, so they are re-drawn.
  for (let i = 0; i < length; i++) {
    let b = bytes[i]!;
    while (b >= 252) b = randomBytes(1)[0]!;
    out += ALNUM[b % 36];
  }
  return out;
}

/** A fresh request id: "req-" + 16 hex. */
export function requestId(): string {
  return "req-" + randomBytes(8).toString("hex");
}

/** A stable 32-bit number derived from text, so generated details do not change between reads. */
export function stableHash(text: string): number {
  return createHash("md5").update(text).digest().readUInt32BE(0);
}

/** A stable private IPv4 address derived from text, inside 10.0.0.0/8. */
export function stableIp(text: string, first = 10): string {
  const h = stableHash(text);
  return `${first}.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfd) + 2}`;
}

/** A UUID-formatted string derived from text (kuid, GPU ids). */
export function stableUuid(text: string): string {
  const hex = createHash("md5").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
