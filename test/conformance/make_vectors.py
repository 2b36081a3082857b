"""Writes test/fixtures/signature-vectors.json: signed query strings produced by
the platform's published clients themselves.

Both clients sign the QingCloud way (../shared/spec/platform-notes.md §4) but
build the canonical query differently, and nobody here wrote either:
  - coreshub_mcp_server.utils.signature.get_signature (coreshub-mcp-server):
    urlencode(sorted params, safe='/', quote_via=quote, doseq=True), the
    signature percent-encoded twice;
  - qingcloud.qai.connection.QAISignatureAuthHandler.generate_signature
    (qingcloud-sdk): key=value joined without any encoding, the signature
    percent-encoded once.
The vectors pin what they produce for the awkward inputs (a '/' inside a
value, spaces, non-ASCII text, an integer array, booleans, an empty value),
so any signer or verifier of ours can be checked against them without Python.
test/conformance/signature-vectors.test.ts recomputes every vector with
openssl, so the committed file is checked too.

Run with the pinned clients (scripts/pyclients.sh prints the interpreter):
  "$(bash scripts/pyclients.sh)" test/conformance/make_vectors.py
The output is deterministic: running it again rewrites the same file.
"""

import copy
import json
import sys
from importlib import metadata
from pathlib import Path

from coreshub_mcp_server.utils.signature import get_signature
from qingcloud.qai.connection import QAISignatureAuthHandler

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "signature-vectors.json"

# Test keys only (the emulator's, and one with characters a shell would mangle).
KEYS = [
    ("AKIDEMULATOR", "emulator-secret"),
    ("QYACCESSKEYIDEXAMPLE", "SECRETACCESSKEY+/=example$&'\"!"),
]
NS = "usr-abc123"

# (id, method, path, params, features): the features each vector exercises.
CASES = [
    ("list-notebooks-empty-name", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks",
     {"zone": "xb3", "limit": 10, "offset": 0, "name": ""}, ["get", "integers", "empty-value"]),
    ("list-trains-slash-in-value", "GET", f"/aicp/trains/namespaces/{NS}/trains",
     {"zone": "xb3", "image_name": "library/pytorch:2.3-cuda12", "owner": "usr-abc123"}, ["get", "slash-in-value"]),
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
    ("notebook-servers", "GET", f"/aicp/notebooks/namespaces/{NS}/notebooks/nb-egzgnq0bhxq8/servers",
     {"zone": "xb3", "owner": "usr-abc123", "user_id": "usr-abc123", "services": ["ssh", "custom", "node_port"]}, ["get", "string-array"]),
    ("stop-notebooks", "POST", f"/aicp/notebooks/namespaces/{NS}/notebooks/stop",
     {"zone": "xb3"}, ["post"]),
    ("create-notebook-trailing-slash", "POST", f"/aicp/notebooks/namespaces/{NS}/create/",
     {"zone": "hb2"}, ["post", "trailing-slash"]),
    ("set-stop-time-no-params", "POST", f"/aicp/notebooks/namespaces/{NS}/notebooks/set_stop_time",
     {}, ["post", "no-params"]),
    ("update-resource-group", "PUT", "/aicp/resource/resource_group",
     {"zone": "xb3"}, ["put"]),
]


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
                })
    document = {
        "description": "Signed query strings produced by the platform's published Python clients for the inputs listed; "
                       "generated by test/conformance/make_vectors.py, checked by test/conformance/signature-vectors.test.ts. "
                       "Recipe: platform notes section 4.",
        "clients": {name: metadata.version(name) for name in ("coreshub-mcp-server", "qingcloud-sdk")},
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
