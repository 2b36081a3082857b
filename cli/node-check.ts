/**
 * The first import of the `pulumi-aicp` command (cli/index.ts): under a
 * Node.js older than package.json's "engines", prints the one line that says
 * so (client/node-version.ts) and exits 1 before anything else loads.
 */
import { exitIfNodeTooOld } from "../client/node-version";

exitIfNodeTooOld("pulumi-aicp");
