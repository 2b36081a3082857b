/**
 * vitest setup file of the in-process projects: each test file gets a create
 * journal of its own (provider/create-journal.ts), so an entry one file leaves
 * (a create it sent and never recorded) never reaches another file or a later run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.AICP_CREATE_JOURNAL_DIR = mkdtempSync(join(tmpdir(), "aicp-journal-"));
