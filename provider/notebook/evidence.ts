/**
 * Whether an answer shows a write the provider just sent.
 * The platform's list may lag behind writes and show the notebook as it was
 * before them, so a wait after a write counts only answers that show it: the
 * notebook's `updated_at` ("last update time", spec 2.2) later than before
 * the write, the new image or size, or a status other than the one before.
 */
import type { Notebook } from "../../client/wire";

/** A write sent to a notebook, and what the platform should then show. */
export interface Written {
  /** The notebook as seen before the write. */
  readonly before: Notebook;
  /** The image the write set, if it set one. */
  readonly image?: string;
  /** The replica spec a start sent (resize), as the wire spells it. */
  readonly spec?: Record<string, unknown>;
  /** The write restarts the notebook on the platform (a new image for one that is not stopped). */
  readonly restarted?: boolean;
  /** A start was sent already (resize): the wait must not send another. */
  readonly started?: boolean;
}

/**
 * Orders two `updated_at` values as the platform wrote them: -1, 0 or 1, or
 * undefined when either is missing or they cannot be compared. Bare values
 * of one shape are compared as text (their zone is unknown, and the platform
 * writes both in the same one); values with a zone as instants.
 */
export function compareWritten(before: unknown, after: unknown): -1 | 0 | 1 | undefined {
  if (typeof before !== "string" || typeof after !== "string") return undefined;
  const [a, b] = [before.trim().replace("T", " "), after.trim().replace("T", " ")];
  if (BARE.test(a) && BARE.test(b)) return a === b ? 0 : a < b ? 1 : -1;
  if (ZONED.test(a) && ZONED.test(b)) {
    const [x, y] = [Date.parse(a.replace(" ", "T")), Date.parse(b.replace(" ", "T"))];
    if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
    return x === y ? 0 : x < y ? 1 : -1;
  }
  return undefined;
}

const BARE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Whether `nb` shows the write: true, false (it is the notebook as before),
 * or undefined when its fields cannot tell (no `updated_at`, nothing else
 * changed): the caller then waits on, bounded by its timeout.
 */
export function shows(written: Written, nb: Notebook): boolean | undefined {
  const { before } = written;
  const imageChanges = written.image !== undefined && before.image !== written.image;
  // Still the old image: whatever moved its update time (an earlier write of the same update), not this write.
  if (imageChanges && typeof nb.image === "string" && nb.image === before.image) return false;
  const order = compareWritten(before.updated_at, nb.updated_at);
  if (order !== undefined && order !== 0) return order === 1;
  // Same second, or no update time: what else the write changed. An image spelt neither way tells nothing by itself.
  if (imageChanges && nb.image === written.image) return true;
  const spec = written.spec && specShown(before, written.spec) === false ? specShown(nb, written.spec) : undefined;
  if (spec !== undefined) return spec;
  if (typeof nb.status === "string" && typeof before.status === "string" && nb.status !== before.status) return true;
  return order === 0 ? false : undefined;
}

/**
 * A predicate for one wait: once an answer showed the write, the later ones
 * of the same wait count too (Pending, then Running), except one from a list
 * further behind: an update time before the write, or back at its value
 * before the write after a later one was seen.
 */
export function evidenceOf(written: Written): (nb: Notebook) => boolean | undefined {
  let seen = false;
  let seenLater = false;
  return (nb) => {
    const order = compareWritten(written.before.updated_at, nb.updated_at);
    if (seen) return !(order === -1 || (order === 0 && seenLater));
    const shown = shows(written, nb);
    seen = shown === true;
    seenLater = seen && order === 1;
    return shown;
  };
}

/** Whether the notebook's listed replica spec carries every sent field it lists; undefined when it lists none of them. */
function specShown(nb: Notebook, sent: Record<string, unknown>): boolean | undefined {
  const listed = nb.replica_specs as Record<string, unknown> | null | undefined;
  if (!listed || typeof listed !== "object") return undefined;
  const keys = Object.keys(sent).filter((k) => sent[k] !== undefined && sent[k] !== null && listed[k] !== undefined && listed[k] !== null);
  if (keys.length === 0) return undefined;
  return keys.every((k) => JSON.stringify(listed[k]) === JSON.stringify(sent[k]));
}

/** What an answer showed, for the error of a wait that never saw the write. */
export function describeSeen(nb: Notebook): string {
  return (
    `status ${JSON.stringify(nb.status)}, image ${JSON.stringify(nb.image)}, updated_at ` +
    `${nb.updated_at === undefined || nb.updated_at === null ? "not sent" : JSON.stringify(nb.updated_at)}`
  );
}
