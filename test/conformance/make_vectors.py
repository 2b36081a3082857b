"""Writes test/fixtures/signature-vectors.json: requests signed by the
platform's published Python clients themselves, exactly as they go on the wire.
It is the repository's only signature fixture, and this script is how it is made.

Both clients sign the QingCloud way (docs/platform-api.md B4, B6)
but build the canonical query differently, and nobody here wrote either:
  - coreshub_mcp_server.utils.signature.get_signature (coreshub-mcp-server
    0.3.0, client "coreshub-mcp-server"): urlencode(sorted params, safe='/',
    quote_via=quote, doseq=True), the signature quote_plus-ed twice;
  - qingcloud.qai.connection.QAISignatureAuthHandler.generate_signature
    (qingcloud-sdk 1.2.16, client "qingcloud-sdk"): key=value joined without
    any encoding, the signature quote_plus-ed once.
Both add access_key_id to the parameters themselves and sign with the MD5 of
the empty string, whatever the body.

Each vector holds the inputs (method, path, params, keys), what the signing
function returned (`signed_query`), and `url`: the path and query of
`requests.Request(method, url).prepare().url` for the URL the client builds,
f"{base}{path}?{signed_query}" - both clients hand exactly that string to
`requests`, which re-quotes it: the SDK's raw join goes out with a space as
%20 and non-ASCII text as UTF-8 %XX, while ':' and '/' stay as they are; the
MCP server's already-quoted query passes through unchanged. `url` is therefore
what a server receives.

The vectors pin what the clients produce for the awkward inputs (a '/' inside
a value, spaces, non-ASCII text, integer arrays whose text and numeric orders
differ, booleans, an empty value, no parameters, writes, a trailing slash), so
any signer or verifier of ours can be checked against them without Python.
Namespaced paths use usr-emulator, the namespace of the emulator's default key
(AKIDEMULATOR / emulator-secret), so every vector can be replayed against the
emulator; the second key has characters a shell would mangle in its secret.
Its consumers:
  - test/conformance/signature-vectors.test.ts recomputes every vector with
    openssl (so the committed file is checked too);
  - test/unit/emulator-signature.test.ts has the emulator's verifier accept
    each `url` and report the client's form;
  - test/unit/emulator-signed-request.test.ts has the test signer
    (test/support/signed-request.ts) rebuild each `url` byte for byte;
  - test/emulator/public-clients.test.ts sends each `url` to a running emulator.

Run with the pinned clients (scripts/pyclients.sh prints the interpreter):
  "$(bash scripts/pyclients.sh)" test/conformance/make_vectors.py
The output is deterministic: running it again rewrites the same file.
"""

import copy
import json
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

import requests
from coreshub_mcp_server.utils.signature import get_signature
from qingcloud.qai.connection import QAISignatureAuthHandler

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "signature-vectors.json"

# Test keys only (the emulator's, and one with characters a shell would mangle).
KEYS = [
    ("AKIDEMULATOR", "emulator-secret"),
    ("QYACCESSKEYIDEXAMPLE", "SECRETACCESSKEY+/=example$&'\"!"),
]
# The emulator's default key acts for usr-emulator; its namespace is the user id in lower case.
NS = "usr-emulator"
# Any base will do: only the path and query of the prepared URL are kept.
BASE = "http://aicp.example"

# (id, method, path, params, features): the features each vector exercises.
CASES = [
    ("list-notebooks-empty-name", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks",
     {"zone": "xb3", "limit": 10, "offset": 0, "name": ""}, ["get", "integers", "empty-value"]),
    ("list-trains-slash-in-value", "GET", f"/aicp/trains/namespaces/{NS}/trains",
     {"zone": "xb3", "image_name": "library/pytorch:2.3-cuda12", "owner": NS}, ["get", "slash-in-value"]),
    ("list-trains-spaces", "GET", f"/aicp/trains/namespaces/{NS}/trains",
     {"zone": "hb2", "start_at": "2025-04-08 08:30:07", "end_at": "2025-04-09 08:30:07", "limit": 10, "offset": 0}, ["get", "spaces"]),
    ("list-notebooks-unicode", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks",
     {"zone": "xb2", "name": "训练 任务-α"}, ["get", "unicode", "spaces"]),
    ("list-templates-integer-array", "GET", "/aicp/resource/template",
     {"zone": "xb3", "template_ids": [1001, 999], "spec_type": ["vgpu", "common"]}, ["get", "integer-array", "string-array"]),
    ("list-notebooks-booleans", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks",
     {"zone": "xb3", "reverse": True, "order_by": "created_at", "status": ["Running", "Pending"]}, ["get", "boolean-true", "string-array"]),
    ("list-trains-boolean-false", "GET", f"/aicp/trains/namespaces/{NS}/trains",
     {"zone": "xb3", "reverse": False, "endpoints": ["tfjobs", "pytorchjobs"]}, ["get", "boolean-false", "string-array"]),
    ("list-trains-dates", "GET", f"/aicp/trains/namespaces/{NS}/trains",
     {"zone": "xb3", "start_at": "2030-01-01 00:00:00", "end_at": "2030-01-08 00:00:00", "limit": 10, "offset": 0}, ["get", "spaces", "integers"]),
    ("list-trains-all-namespaces", "GET", "/aicp/trains/namespaces/ALL/trains",
     {"namespace": "ALL", "zone": "xb3", "name": "", "image_name": "", "reverse": False, "offset": 0, "limit": 100,
      "start_at": "2030-01-01 00:00:00", "status": ["Running", "Pending"]},
     ["get", "empty-value", "boolean-false", "spaces", "string-array", "integers"]),
    ("list-templates-slash-space", "GET", "/aicp/resource/template",
     {"zone": "xb3", "template_ids": [1001, 999], "gpu_name": "a/b c"}, ["get", "integer-array", "slash-in-value", "spaces"]),
    ("list-templates-numeric-order", "GET", "/aicp/resource/template",
     {"zone": "xb3", "template_ids": [1001, 999, 20], "gpu_name": "a/b c", "reverse": True},
     ["get", "integer-array", "slash-in-value", "spaces", "boolean-true"]),
    # The MCP server's call (notebook access info); the notebook does not exist on the emulator.
    ("notebook-servers", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks/nb-abc123def456/servers",
     {"zone": "xb3", "owner": NS, "user_id": NS, "services": ["ssh", "custom", "node_port"]}, ["get", "string-array"]),
    ("stop-notebooks", "POST", f"/aicp/notebooks/namespaces/{NS}/notebooks/stop",
     {"zone": "xb3"}, ["post"]),
    ("create-notebook-trailing-slash", "POST", f"/aicp/notebooks/namespaces/{NS}/create/",
     {"zone": "hb2"}, ["post", "trailing-slash"]),
    ("set-stop-time-no-params", "POST", f"/aicp/notebooks/namespaces/{NS}/notebooks/set_stop_time",
     {}, ["post", "no-params"]),
    ("update-resource-group", "PUT", "/aicp/resource/resource_group",
     {"zone": "xb3"}, ["put"]),
]


def prepared(method, path, signed_query):
    """The path and query of the URL `requests` sends for the URL a client built."""
    url = urlsplit(requests.Request(method, f"{BASE}{path}?{signed_query}").prepare().url)
    return f"{url.path}?{url.query}"


def main():
    vectors = []
    for key_index, (ak, sk) in enumerate(KEYS):
        for case_id, method, path, params, features in CASES:
            # Both signers add access_key_id to the dict they are given: each gets its own copy.
            mcp = get_signature(method=method, url=path, ak=ak, sk=sk, params=copy.deepcopy(params))
            sdk = QAISignatureAuthHandler.generate_signature(method=method, url=path, ak=ak, sk=sk, params=copy.deepcopy(params))
            for client, function, signed in (
                ("coreshub-mcp-server", "coreshub_mcp_server.utils.signature.get_signature", mcp),
                ("qingcloud-sdk", "qingcloud.qai.connection.QAISignatureAuthHandler.generate_signature", sdk),
            ):
                vectors.append({
                    "id": f"{case_id}/key{key_index + 1}/{client}",
                    "client": client,
                    "function": function,
                    "features": features,
                    "method": method,
                    "path": path,
                    "params": params,
                    "access_key_id": ak,
                    "secret_access_key": sk,
                    "signed_query": signed,
                    "url": prepared(method, path, signed),
                })
    document = {
        "description": "Requests signed by the platform's published Python clients for the inputs listed: signed_query is what "
                       "the client's signing function returned, url the path and query of the URL requests prepares from "
                       "base + path + '?' + signed_query (what both clients send, so what a server receives). "
                       "Generated by test/conformance/make_vectors.py (its header explains each field and lists the tests "
                       "that read this file); recomputed with openssl by test/conformance/signature-vectors.test.ts. "
                       "Recipe: docs/platform-api.md B4.",
        "clients": {name: metadata.version(name) for name in ("coreshub-mcp-server", "qingcloud-sdk")},
        "url_prepared_by": {"requests": metadata.version("requests")},
        "conventions": {
            "coreshub-mcp-server": "canonical query = urlencode(sorted(params + access_key_id), safe='/', quote_via=quote, doseq=True), "
                                   "arrays sorted, booleans True/False; string to sign = METHOD\\npath with trailing /\\ncanonical\\nmd5(''); "
                                   "signature = quote_plus(quote_plus(base64(hmac_sha256(secret, string to sign))))",
            "qingcloud-sdk": "canonical query = '&'.join(key=str(value)) of sorted(params + access_key_id), arrays sorted and repeated, no encoding; "
                             "string to sign as above; signature = quote_plus(base64(hmac_sha256(secret, string to sign)))",
        },
        "vectors": vectors,
    }
    OUT.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"{len(vectors)} vectors written to {OUT.relative_to(OUT.parents[2])}", file=sys.stderr)


if __name__ == "__main__":
    main()
