"""Drives the platform's two published Python clients against an emulator.

The clients are real code nobody here wrote (platform-api B6 in
docs/platform-api.md part B): the operator's SDK
``qingcloud-sdk`` (module ``qingcloud.qai``, class ``QAIConnection``) and the
MCP server ``coreshub-mcp-server`` (tool classes with an async
``execute_tool(arguments)``). They run UNCHANGED: only their base URL, keys,
user id and zone are set, the way a user would set them (the SDK's constructor
arguments; the MCP server's settings object and its QY_ACCESS_KEY_ID,
QY_SECRET_ACCESS_KEY and CORESHUB_USER_ID variables). To report what went over
the wire, ``requests.Session.send`` is wrapped to record each request and
response; the wrapper passes everything through untouched.

Prints one JSON object per call on stdout (nothing else goes to stdout):
``client``, ``call``, ``variant``, ``expect`` ("success"; "failure" for a call
that cannot work on any server; "observed" for one that is reported only),
``request`` (method, path, query with the signature redacted, body), ``http_status``,
``envelope`` (the body is the platform envelope: ret_code, message, data,
counts, meta), ``ret_code``, ``message``, ``items`` (length of ``data`` when it
is a list), ``counts``, ``uuids``/``names`` (of the items), ``server_types``,
and ``body`` (the raw answer) whenever the call did not succeed.

In scope, driven here:
  MCP server (coreshub_mcp_server 0.3.0)
    get_container_info        list notebooks: no name filter, then a name
                              filter, both with offset/limit
    get_ssh_info              GET .../notebooks/{uuid}/servers with the
                              tool's default services (ssh, custom, node_port)
    get_distributed_training  list training jobs with start_at/end_at as
                              "YYYY-MM-DD HH:MM:SS"
  Operator SDK (qingcloud-sdk 1.2.16, QAIConnection)
    get_trains                the user's namespace with every other parameter
                              at its default; then reverse=False, a status
                              list, an endpoints list, start_at/end_at as
                              datetimes, name and owner
    get_trains (namespace ALL) the SDK's literal default namespace: reported,
                              not judged (an operator's all-namespaces view
                              that no public document describes)
    send_request POST         a stop-notebooks call through the SDK's generic
                              sender. It signs "POST" but sends a GET with a
                              JSON body (qingcloud/qai/connection.py), so no
                              server can serve it: a server that routes on the
                              method finds no GET route for .../stop, and one
                              that verified "GET" would not match the
                              signature. Reported with expect "failure".

Out of scope, not driven:
  get_user_info          GET /aicp/user/workgroups: user work groups, an
                         account API outside the five operations and the
                         documented extras the provider uses.
  trains_metrics         training metrics (/trains/metrics?resource_ids=...):
                         not among the operations the provider uses; the
                         spec's metrics operation is the notebook disk one.
  training logs          get_distributed_training_detail_log
                         (/trains/.../endpoints/{endpoint}/logs): log search,
                         not modelled by the provider or the emulator.
  inference services, imaas, epfs file systems (the MCP server's other
                         plugins): other products of the platform.
  resource-group listing and sharing of the SDK: not in the installed
                         1.2.16 module (its QAIConnection has only the three
                         calls above), though platform-api B6 mention them.

Usage (every option also has an environment fallback, shown in --help):
  python published_clients.py --url http://127.0.0.1:PORT --access-key AK \
      --secret-key SK --user-id usr-x --zone xb3 --notebook-uuid nb-... \
      --notebook-name NAME --train-name NAME
"""

import argparse
import asyncio
import contextlib
import datetime
import io
import json
import os
import re
import sys
from importlib import metadata
from urllib.parse import urlsplit

ENVELOPE_KEYS = ("ret_code", "message", "data", "counts", "meta")
BODY_LIMIT = 4000


def parse_args():
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", default=env("AICP_BASE_URL"), help="emulator base URL (env AICP_BASE_URL)")
    parser.add_argument("--access-key", default=env("QY_ACCESS_KEY_ID"), help="access key id (env QY_ACCESS_KEY_ID)")
    parser.add_argument("--secret-key", default=env("QY_SECRET_ACCESS_KEY"), help="secret key (env QY_SECRET_ACCESS_KEY)")
    parser.add_argument("--user-id", default=env("CORESHUB_USER_ID"), help="user id; the namespace is it in lower case (env CORESHUB_USER_ID)")
    parser.add_argument("--zone", default=env("AICP_ZONE", "xb3"), help="zone sent by both clients (env AICP_ZONE, default xb3)")
    parser.add_argument("--notebook-uuid", default=env("AICP_CONFORMANCE_NOTEBOOK_UUID"), help="a notebook of the user (env AICP_CONFORMANCE_NOTEBOOK_UUID)")
    parser.add_argument("--notebook-name", default=env("AICP_CONFORMANCE_NOTEBOOK_NAME"), help="its name, for the name filter (env AICP_CONFORMANCE_NOTEBOOK_NAME)")
    parser.add_argument("--train-name", default=env("AICP_CONFORMANCE_TRAIN_NAME"), help="a training job of the user (env AICP_CONFORMANCE_TRAIN_NAME)")
    args = parser.parse_args()
    missing = [name for name in ("url", "access_key", "secret_key", "user_id", "notebook_uuid", "notebook_name", "train_name") if not getattr(args, name)]
    if missing:
        parser.error("missing: " + ", ".join("--" + m.replace("_", "-") for m in missing))
    return args


ARGS = parse_args()

# The MCP server reads its keys and user id from the environment when its
# settings module is first imported (coreshub_mcp_server/settings.py), so they
# are set before any import of it.
os.environ["QY_ACCESS_KEY_ID"] = ARGS.access_key
os.environ["QY_SECRET_ACCESS_KEY"] = ARGS.secret_key
os.environ["CORESHUB_USER_ID"] = ARGS.user_id

import requests  # noqa: E402  (the clients' own HTTP library)
from coreshub_mcp_server.settings import Settings, settings  # noqa: E402
from coreshub_mcp_server.plugins.container_notebooks import GetContainerInfoTool, GetSSHInfoTool  # noqa: E402
from coreshub_mcp_server.plugins.distributed_training import GetDistributedTrainingTool  # noqa: E402
from coreshub_mcp_server.base_plugin import BaseTool  # noqa: E402
from qingcloud.qai.connection import QAIConnection  # noqa: E402

# The base URL is a class attribute of the settings; the keys were read from the
# environment above, and are set again in case the module was imported earlier.
Settings.base_url = ARGS.url.rstrip("/")
settings.access_key = ARGS.access_key
settings.secret_key = ARGS.secret_key
settings.user_id = ARGS.user_id

MCP = "coreshub-mcp-server " + metadata.version("coreshub-mcp-server")
SDK = "qingcloud-sdk " + metadata.version("qingcloud-sdk")

# ---- observing the wire ---------------------------------------------------

EXCHANGES = []
_original_send = requests.sessions.Session.send


def _observing_send(self, request, **kwargs):
    record = {"method": request.method, "url": request.url, "body": request.body}
    EXCHANGES.append(record)
    try:
        response = _original_send(self, request, **kwargs)
    except Exception as error:
        record["error"] = repr(error)
        raise
    record["status"] = response.status_code
    record["text"] = response.text
    return response


requests.sessions.Session.send = _observing_send


def redact(query):
    # A signed URL stays valid (platform-api B4): never print a signature.
    return re.sub(r"(^|&)signature=[^&]*", r"\1signature=<redacted>", query)


# ---- one call ---------------------------------------------------------------


def envelope_of(text):
    """The JSON object that starts at or after the first line break, else None."""
    if text is None:
        return None
    for start in (0, text.find("\n") + 1 if "\n" in text else -1):
        if start < 0:
            continue
        chunk = text[start:].lstrip()
        if not chunk.startswith("{"):
            continue
        try:
            value, _ = json.JSONDecoder().raw_decode(chunk)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def run(client, call, variant, expect, action, parse_from_output):
    """Runs one client call with stdout captured (the SDK prints every GET URL)."""
    EXCHANGES.clear()
    output, error, printed = None, None, io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            output = action()
    except Exception as e:  # the client itself failed: reported, not raised
        error = f"{type(e).__name__}: {e}"
    exchange = EXCHANGES[-1] if EXCHANGES else {}
    result = {"client": client, "call": call, "variant": variant, "expect": expect}
    if exchange:
        parts = urlsplit(exchange["url"])
        body = exchange.get("body")
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        result["request"] = {"method": exchange["method"], "path": parts.path, "query": redact(parts.query), "body": body}
        result["requests_sent"] = len(EXCHANGES)
    result["http_status"] = exchange.get("status")
    if error is not None:
        result["client_error"] = error
    if exchange.get("error"):
        result["transport_error"] = exchange["error"]

    # What the client made of the answer: the MCP tools wrap the JSON in text
    # ("容器实例信息:\n<json>"), the SDK returns the raw text.
    text = parse_from_output(output) if output is not None else None
    env = envelope_of(text)
    result["envelope"] = env is not None and all(k in env for k in ENVELOPE_KEYS)
    if text is not None and not result["envelope"]:
        result["client_output"] = text[:300]
    if result["envelope"]:
        data = env.get("data")
        result["ret_code"] = env.get("ret_code")
        result["message"] = env.get("message")
        result["counts"] = env.get("counts")
        if "total_sum" in env:
            result["total_sum"] = env["total_sum"]
        result["data_type"] = "array" if isinstance(data, list) else "object" if isinstance(data, dict) else type(data).__name__
        if isinstance(data, list):
            result["items"] = len(data)
            rows = [row for row in data if isinstance(row, dict)]
            result["uuids"] = [row.get("uuid") for row in rows if "uuid" in row]
            result["names"] = [row.get("name") for row in rows if "name" in row]
            result["server_types"] = [row.get("server_type") for row in rows if "server_type" in row]
    succeeded = result["http_status"] == 200 and result["envelope"] and result.get("ret_code") == 0
    if not succeeded:
        raw = exchange.get("text")
        result["body"] = raw[:BODY_LIMIT] if isinstance(raw, str) else None
    print(json.dumps(result, ensure_ascii=False), flush=True)


def tool_text(contents):
    return "\n".join(getattr(c, "text", str(c)) for c in contents)


def mcp(tool, arguments):
    return lambda: asyncio.run(tool().execute_tool(arguments))


# ---- the calls --------------------------------------------------------------


def main():
    ns = ARGS.user_id.lower()
    zone = ARGS.zone

    run(MCP, "get_container_info", "without name filter, offset 0, limit 10", "success",
        mcp(GetContainerInfoTool, {"zone": zone, "offset": 0, "limit": 10}), tool_text)
    run(MCP, "get_container_info", "name filter, offset 0, limit 10", "success",
        mcp(GetContainerInfoTool, {"zone": zone, "offset": 0, "limit": 10, "name": ARGS.notebook_name}), tool_text)
    run(MCP, "get_ssh_info", "default services, owner and user_id", "success",
        mcp(GetSSHInfoTool, {"zone": zone, "uuid": ARGS.notebook_uuid}), tool_text)
    # The tool's own helper makes its default times (local time); a window of a
    # day either side holds the job whatever zone the server reads them in.
    run(MCP, "get_distributed_training", "start_at/end_at a day either side of now", "success",
        mcp(GetDistributedTrainingTool, {
            "zone": zone,
            "start_at": BaseTool.get_formatted_time(offset_days=-1),
            "end_at": BaseTool.get_formatted_time(offset_days=1),
            "limit": 10,
            "offset": 0,
        }), tool_text)

    conn = QAIConnection(ARGS.access_key, ARGS.secret_key, zone, urlsplit(ARGS.url).hostname,
                         urlsplit(ARGS.url).port or 80, protocol=urlsplit(ARGS.url).scheme or "http")
    now = datetime.datetime.now().replace(microsecond=0)
    run(SDK, "get_trains", "user's namespace, other parameters at their defaults", "success",
        lambda: conn.get_trains(namespace=ns), lambda text: text)
    run(SDK, "get_trains", "reverse=False, status list, endpoints list, start_at/end_at datetimes, name, owner", "success",
        lambda: conn.get_trains(namespace=ns, reverse=False, status=["Running", "Pending"], endpoints=["pytorchjobs", "tfjobs"],
                                start_at=now - datetime.timedelta(days=1), end_at=now + datetime.timedelta(days=1),
                                name=ARGS.train_name, owner=ARGS.user_id), lambda text: text)
    run(SDK, "get_trains", "the SDK's literal defaults (namespace ALL)", "observed",
        lambda: conn.get_trains(), lambda text: text)
    run(SDK, "send_request", "POST stop notebooks (sent as GET with a JSON body)", "failure",
        lambda: conn.send_request(url=f"/aicp/notebooks/namespaces/{ns}/notebooks/stop", method="POST",
                                  params={"zone": zone}, body={"uuids": [ARGS.notebook_uuid], "save_image": False}),
        lambda text: text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
