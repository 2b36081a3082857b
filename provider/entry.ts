/**
 * What `require("pulumi-aicp/provider")` loads (package.json "exports"): the
 * Node.js version check first (sdk/node-check.ts: `pulumi refresh` and
 * `destroy` load the dynamic provider without the program), then the
 * lifecycles of provider/index.ts.
 */
import "../sdk/node-check";
export * from "./index";
