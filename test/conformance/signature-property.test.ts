/**
 * Property: for any parameters, our signer (client/signature.ts) builds the
 * canonical query and the signature the MCP server's own signer builds
 * (coreshub_mcp_server.utils.signature.get_signature, run unchanged by
 * test/conformance/sign_batch.py). fast-check makes the requests; all of them
 * go to Python in one batch, so the oracle costs one process.
 *
 * Parameter values are what the client puts in a query: text (any Unicode,
 * '/', spaces, '&', '=' and '%' included), integers, and lists of either.
 * Booleans are left out: Python writes True where we write true (see the note
 * of this test's commit and CONTRIBUTING.md, "Mutation testing").
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signedQueryString, type QueryValue } from "../../client/signature";

const PYTHON = process.env.AICP_PYCLIENTS_PYTHON;
const MISSING_PYTHON =
  "AICP_PYCLIENTS_PYTHON is not set: the published Python clients are not installed. Run `bash scripts/pyclients.sh` and export " +
  "AICP_PYCLIENTS_PYTHON=<the path it prints>, or run the suite through `npm test`, whose bootstrap does both.";

interface Request {
  method: string;
  path: string;
  params: Record<string, QueryValue>;
  ak: string;
  sk: string;
}

const text = fc.string({ unit: "binary", maxLength: 12 });
const wireText = fc.oneof(text, fc.constantFrom("a/b c", "x&y=z", "100%", "训练 任务-α", "😀", "\uff01", ""));
const integer = fc.oneof(fc.integer(), fc.integer({ min: 0, max: 2000 }));
const value: fc.Arbitrary<QueryValue> = fc.oneof(wireText, integer, fc.array(wireText, { maxLength: 4 }), fc.array(integer, { maxLength: 4 }));
const name = fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), text).filter((k) => !["", "__proto__", "access_key_id", "signature"].includes(k));
const request: fc.Arbitrary<Request> = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE"),
  path: fc.constantFrom("/aicp/notebooks/namespaces/usr-x/notebooks", "/aicp/resource/resource_group/", "/aicp/trains/namespaces/ALL/trains"),
  params: fc.dictionary(name, value, { maxKeys: 6 }),
  ak: fc.stringMatching(/^[A-Z0-9]{1,20}$/),
  sk: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }),
});

/** The MCP server's canonical query and signature for each request, in one Python process. */
function theirs(requests: Request[]): Array<{ canonical: string; signature: string }> {
  const out = execFileSync(PYTHON!, [join(__dirname, "sign_batch.py")], { input: JSON.stringify(requests), maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  return JSON.parse(out.toString("utf8")) as Array<{ canonical: string; signature: string }>;
}

function ours(r: Request): { canonical: string; signature: string } {
  const signed = signedQueryString({ method: r.method, path: r.path, query: r.params, body: "", bodyHash: "empty", accessKeyId: r.ak, secretAccessKey: r.sk });
  const at = signed.lastIndexOf("&signature=");
  return { canonical: signed.slice(0, at), signature: decodeURIComponent(signed.slice(at + "&signature=".length)) };
}

describe("the canonical query and signature, against the MCP server's signer", () => {
  it("are the same for 500 random parameter sets", () => {
    expect(PYTHON, MISSING_PYTHON).toBeTruthy();
    // A new seed each run; a failure names it, and AICP_PROPERTY_SEED=<seed> replays it.
    const seed = Number(process.env.AICP_PROPERTY_SEED ?? Date.now() % 2 ** 31);
    const requests = fc.sample(request, { numRuns: 500, seed });
    const expected = theirs(requests);
    const mismatches = requests
      .map((r, i) => ({ request: r, ours: ours(r), theirs: expected[i] }))
      .filter((m) => m.ours.canonical !== m.theirs!.canonical || m.ours.signature !== m.theirs!.signature);
    expect(mismatches.slice(0, 3), `${mismatches.length} of ${requests.length} differ (seed ${seed})`).toEqual([]);
  });
});
