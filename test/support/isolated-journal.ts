/**
 * vitest setup file of the in-process projects: each test file gets a create
 * journal of its own (provider/create-journal.ts), so an entry one file leaves
 * (a create it sent and never recorded) never reaches another file or a later run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "aicp-journal-"));
process.env.AICP_CREATE_JOURNAL_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
