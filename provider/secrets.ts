/**
 * Keeping passwords out of everything the engine handles in plain text.
 *
 * The engine's nodejs dynamic provider does not accept secrets, so every value
 * a provider receives or returns crosses the engine unwrapped, and at `-v=9`
 * the engine logs the fields of objects it marshals. A password therefore
 * never goes into our outputs: the registry password is recorded as a keyed
 * digest (enough to see that it changed), and server passwords are left out
 * (programs read them with getNotebookServers, outside the engine).
 */
import { createHmac } from "node:crypto";

/** What the outputs record of registry credentials: no password, only its digest. */
export interface RecordedImageSecret {
  hasAuth?: boolean;
  username?: string;
  passwordDigest?: string;
}

/** HMAC-SHA256 of the password, keyed so that the digest alone cannot be brute-forced. */
export function passwordDigest(password: string, key: string): string {
  return "hmac-sha256:" + createHmac("sha256", key).update(password).digest("hex");
}

export function recordImageSecret(secret: { hasAuth?: boolean; username?: string; password?: string } | undefined, key: string): RecordedImageSecret | undefined {
  if (!secret) return undefined;
  const { password, ...rest } = secret;
  return password === undefined ? rest : { ...rest, passwordDigest: passwordDigest(password, key) };
}

/** Servers as recorded in outputs: everything but the password (entries that are not objects carry none and stay). */
export function withoutServerPasswords<T extends { password?: unknown }>(servers: T[] | null | undefined): Array<Omit<T, "password">> | undefined {
  return servers?.map((server) => {
    if (server === null || typeof server !== "object") return server;
    const { password: _password, ...rest } = server;
    return rest;
  });
}
