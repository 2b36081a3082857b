/**
 * Checks every API route shares, after the signature: the `zone` common
 * parameter (platform-api B4) and tenancy, i.e. a key acts only in its own
 * namespace, the account's user id in lower case (platform-api B1).
 */
import { ApiError } from "./errors";
import type { Credential } from "./signature";
import type { Dialect } from "./types";

/** ret_code of a request acting for another account: its namespace, or its user id in a body. */
export const NAMESPACE_FORBIDDEN = 1103;

/**
 * Checks `zone` in the query: required or optional as the dialect says, and a
 * known zone in both modes. Throws a 400 ApiError.
 */
export function checkZone(query: Record<string, string | string[]>, dialect: Dialect, zones: readonly string[]): void {
  const zone = query.zone;
  if (zone === undefined || zone === "") {
    if (dialect.zone === "required") throw new ApiError(400, 400, "zone is required");
    return;
  }
  if (Array.isArray(zone)) throw new ApiError(400, 400, "zone is given more than once");
  if (!zones.includes(zone)) throw new ApiError(400, 400, `zone '${zone}' is unknown; known zones: ${zones.join(", ")}`);
}

/**
 * The namespace of a namespace-scoped route must be the caller's own. The
 * operator's SDK lists training jobs under namespace `ALL` (its default), read
 * here as the caller's own on reads. Rewrites `params.namespace` to the
 * caller's namespace; throws a 403 ApiError for any other namespace.
 */
export function checkNamespace(params: Record<string, string>, credential: Credential, method: string): void {
  const requested = params.namespace;
  if (requested === undefined) return;
  const own = credential.userId.toLowerCase();
  if (requested === own) return;
  if (requested === "ALL" && method === "GET") {
    params.namespace = own;
    return;
  }
  throw new ApiError(403, NAMESPACE_FORBIDDEN, `namespace '${requested}' does not belong to this access key; its namespace is '${own}'`);
}

/**
 * A body's user id (a notebook's `user_id`, platform-api A4.2) must be the caller's:
 * a key creates nothing in another account's name, even in its own namespace.
 * Compared in any case, since the namespace is the id in lower case (platform-api
 * B1) and a client may derive one from the other. Throws a 403 ApiError.
 */
export function checkOwnUser(userId: string, credential: Credential, field: string): void {
  if (userId.toLowerCase() === credential.userId.toLowerCase()) return;
  throw new ApiError(403, NAMESPACE_FORBIDDEN, `${field} '${userId}' is not the user of this access key; its user is '${credential.userId}'`);
}
