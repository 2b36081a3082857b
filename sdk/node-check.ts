/**
 * Loaded first by the package (sdk/index.ts) and its dynamic provider
 * (provider/entry.ts): under a Node.js older than package.json's "engines",
 * throws the one line that says so (client/node-version.ts) before any module
 * that would fail on it is loaded.
 */
import { throwIfNodeTooOld } from "../client/node-version";

throwIfNodeTooOld("pulumi-aicp");
