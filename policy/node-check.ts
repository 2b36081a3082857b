/**
 * Preloaded by the executable pack's launcher (`node --require`,
 * policy/pack/aicp-guardrails) before policy/analyzer.ts: under a Node.js
 * older than package.json's "engines", prints the one line that says so
 * (client/node-version.ts) and exits 1. The engine shows a plugin's stderr
 * when it exits before printing its port.
 */
import { exitIfNodeTooOld } from "../client/node-version";

exitIfNodeTooOld("aicp-guardrails", "set PULUMI_AICP_NODE to a newer node or put one first on PATH");
