#!/usr/bin/env python3
"""The OpenAPI import preview of a 500-operation document through a running gateway's REST API, as an admin calls it.

  bench/openapi-preview.py [--base http://127.0.0.1:9080] [--key API_KEY] [--server demo] [--runs 6]

The document is generated here, as OpenApiReaderTest generates it: 250 paths with a GET and a PUT each (500
operations, 190 kB), every operation referring to a shared model whose $refs form a cycle. Each run POSTs it to
/api/openapi-imports on one kept-alive connection and times the answer; the first run after a gateway start is the one
an admin meets first. The key defaults to AMCP_DEMO_API_KEY, as ./quickstart.sh prints it.
"""
import argparse, http.client, json, os, statistics, sys, time, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("--base", default="http://127.0.0.1:9080")
parser.add_argument("--key", default=os.environ.get("AMCP_DEMO_API_KEY", ""))
parser.add_argument("--server", default="demo")
parser.add_argument("--runs", type=int, default=6)
args = parser.parse_args()
if not args.key:
    sys.exit("openapi-preview: give --key or set AMCP_DEMO_API_KEY")

ref = {"$ref": "#/components/schemas/Thing"}
json_body = {"application/json": {"schema": ref}}
id_param = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
paths = {}
for i in range(250):
    paths[f"/things{i}/{{id}}"] = {
        "get": {"operationId": f"getThing{i}", "summary": f"Get thing {i}",
                "parameters": [id_param, {"name": "expand", "in": "query", "schema": {"type": "boolean"}}],
                "responses": {"200": {"description": "ok", "content": json_body}}},
        "put": {"operationId": f"putThing{i}", "parameters": [id_param],
                "requestBody": {"required": True, "content": json_body},
                "responses": {"200": {"description": "ok", "content": json_body}}}}
document = json.dumps({
    "openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
    "paths": paths,
    "components": {"schemas": {
        "Thing": {"type": "object", "required": ["name"], "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "owner": {"$ref": "#/components/schemas/Owner"},
            "tags": {"type": "array", "items": {"type": "string"}}}},
        "Owner": {"type": "object", "properties": {
            "id": {"type": "integer"}, "things": {"type": "array", "items": ref}}}}}})

url = urllib.parse.urlparse(args.base)
connection = http.client.HTTPConnection(url.hostname, url.port or 80)
# The document's own server is not an allowed upstream; the demo API's setting is, as the demo's own import uses it.
body = json.dumps({"server": args.server, "document": document, "base": "${AMCP_UPSTREAM_DEMO}"})
headers = {"Authorization": "Bearer " + args.key, "Content-Type": "application/json"}
print(f"document: {len(document)} bytes, 500 operations; {args.runs} previews on {args.base}", flush=True)
times = []
for run in range(1, args.runs + 1):
    started = time.perf_counter()
    connection.request("POST", "/api/openapi-imports", body, headers)
    response = connection.getresponse()
    answer = response.read()
    ms = (time.perf_counter() - started) * 1000
    if response.status != 200:
        sys.exit(f"run {run}: HTTP {response.status}: {answer[:300]!r}")
    operations = len(json.loads(answer)["operations"])
    if operations != 500:
        sys.exit(f"run {run}: {operations} operations proposed, not 500")
    times.append(ms)
    print(f"run {run}: {operations} operations proposed in {ms:.0f} ms", flush=True)
if len(times) > 1:
    print(f"first {times[0]:.0f} ms; the others: median {statistics.median(times[1:]):.0f} ms, "
          f"{min(times[1:]):.0f}-{max(times[1:]):.0f} ms")
