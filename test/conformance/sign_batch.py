"""Signs a batch of requests with the MCP server's own signer, unchanged:
coreshub_mcp_server.utils.signature.get_signature (coreshub-mcp-server 0.3.0,
installed by scripts/pyclients.sh). Reads a JSON list of
{"method", "path", "params", "ak", "sk"} on stdin and prints a JSON list of
{"canonical", "signature"}: the query the client signs (everything before
"&signature=") and the base64 signature, unquoted from the client's double
quote_plus. test/conformance/signature-property.test.ts is its consumer.
"""

import json
import sys
from urllib.parse import unquote_plus

from coreshub_mcp_server.utils.signature import get_signature


def main():
    out = []
    for request in json.load(sys.stdin):
        signed = get_signature(method=request["method"], url=request["path"], ak=request["ak"], sk=request["sk"], params=request["params"])
        canonical, _, signature = signed.rpartition("&signature=")
        out.append({"canonical": canonical, "signature": unquote_plus(unquote_plus(signature))})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
