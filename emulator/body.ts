/**
 * Request bodies, read only once a request may go on, and at most a limit.
 * A body the emulator does not want (the request was
 * refused first, or it is over the limit) is discarded as it arrives, never
 * kept, and the answer goes out at once on a connection that stays open: a
 * client that sends its whole body before reading gets the answer, not a reset.
 */
import type { IncomingMessage } from "node:http";
import { ApiError } from "./errors";

/**
 * Largest body of an API or admin request: 1 MiB. The largest legitimate body
 * is a notebook create with long pip, conda and apt lists (platform-api A4.2), a few
 * hundred KB at most; growing the catalogue through create template (whose
 * array form is the emulator's own) fits about 5,000 templates in one request.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The 413 for a body over `limit`, the envelope naming the limit. */
export function bodyTooLarge(limit: number): ApiError {
  const mib = limit / (1024 * 1024);
  return new ApiError(
    413,
    413,
    `request body is larger than the limit of ${limit} bytes (${Number.isInteger(mib) ? `${mib} MiB` : `${Math.ceil(limit / 1024)} KiB`})`,
  );
}

/** Logged (as a 400 nobody receives) for a request whose client left before its whole body arrived. */
function clientGone(): ApiError {
  return new ApiError(400, 400, "the client closed the connection before sending its whole body");
}

/** Whether the request announces a body: a Content-Length above 0, or a transfer encoding (its length is known only once read). */
export function announcesBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && Number(length) > 0;
}

/**
 * Reads the body, at most `limit` bytes, and reports the bytes kept through
 * `kept`. A declared length over the limit is refused before a byte is read;
 * a body without one is refused as soon as it passes the limit. Either way the
 * 413 answers at once and the rest of the body is discarded as it arrives.
 */
export function readBody(req: IncomingMessage, limit: number, kept: (bytes: number) => void): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  // node:http drains what nobody reads once the answer is sent, keeping the connection.
  if (declared > limit) return Promise.reject(bodyTooLarge(limit));
  // A request whose connection is already gone would never end: answer it (to nobody) at once.
  if (req.destroyed) return Promise.reject(clientGone());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return; // discarded: the 413 is on its way
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
      kept(size);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(clientGone());
    });
  });
}
