/** A signed client for the emulator's own tests: a public client's signing, the /aicp prefix and zone xb3 unless told otherwise. */
import type { Emulator } from "../../emulator";
import { type PyValue, type SignedRequest, type SignedResponse, signedRequest } from "../support/signed-request";

/** The zone the public clients send by default (platform-api B4). */
export const ZONE = "xb3";
/** The default key's namespace. */
export const NS = "usr-emulator";

/** Query values as the signer takes them. */
export type Query = Record<string, PyValue | PyValue[] | null | undefined>;

/** A request relative to the prefix; `zone` is added unless the query sets it (undefined leaves it out). */
export type Call = Omit<SignedRequest, "query"> & { query?: Query };

/** get/post/send helpers bound to one emulator and prefix. */
export function client(emu: Emulator, prefix = "/aicp") {
  const send = (req: Call): Promise<SignedResponse> => signedRequest(emu.url, { ...req, path: prefix + req.path, query: { zone: ZONE, ...req.query } });
  return {
    send,
    get: (path: string, query?: Query, extra: Partial<Call> = {}) => send({ method: "GET", path, query, ...extra }),
    post: (path: string, body: unknown, method = "POST", extra: Partial<Call> = {}) => send({ method, path, body, ...extra }),
  };
}

/** Calls the emulator's admin API (unsigned); the answer's JSON is loosely typed, as tests read arbitrary fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function admin(emu: Emulator, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${emu.url}/__emulator${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}
