"""A JSON-RPC "node" that answers wrongly, one way per path, for Tests/EVMTests
(MalformedAnswerTests). Prints its port, then serves until killed.

    python bad_node.py
"""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def answer(path, request):
    rid = request.get("id") if isinstance(request, dict) else None
    ok = {"jsonrpc": "2.0", "id": rid}
    if path == "/not-json":
        return 200, b"<html>hello</html>"
    if path == "/status-502":
        return 502, b"bad gateway"
    if path == "/slow":
        time.sleep(120)  # past every test's deadline: only a timeout ends the call
        return 200, json.dumps(dict(ok, result="0x1")).encode()
    if path == "/wrong-id":
        return 200, json.dumps(dict(ok, id=987654, result="0x1")).encode()
    if path == "/no-result":
        return 200, json.dumps(ok).encode()
    if path == "/wrong-version":
        return 200, json.dumps(dict(ok, jsonrpc="1.0", result="0x1")).encode()
    if path == "/leading-zero":
        return 200, json.dumps(dict(ok, result="0x01")).encode()
    if path == "/not-hex":
        return 200, json.dumps(dict(ok, result="0xzz")).encode()
    if path == "/number":
        return 200, json.dumps(dict(ok, result=31337)).encode()
    if path == "/short-hash":
        receipt = {
            "transactionHash": "0x" + "11" * 32, "status": "0x1", "blockNumber": "0x5",
            "blockHash": "0x" + "22" * 31, "gasUsed": "0x5208", "effectiveGasPrice": "0x1",
            "contractAddress": None, "logs": [],
        }
        return 200, json.dumps(dict(ok, result=receipt)).encode()
    if path == "/stale-receipt":  # a receipt whose block is not the canonical one at its height
        method = request["method"]
        if method == "eth_getTransactionReceipt":
            receipt = {
                "transactionHash": request["params"][0], "status": "0x1", "blockNumber": "0x5",
                "blockHash": "0x" + "22" * 32, "gasUsed": "0x5208", "effectiveGasPrice": "0x1",
                "contractAddress": None, "logs": [],
            }
            return 200, json.dumps(dict(ok, result=receipt)).encode()
        if method == "eth_getBlockByNumber":
            block = {
                "number": "0x5", "hash": "0x" + "33" * 32, "parentHash": "0x" + "44" * 32,
                "timestamp": "0x1", "gasLimit": "0x1c9c380", "gasUsed": "0x0", "baseFeePerGas": "0x7",
            }
            return 200, json.dumps(dict(ok, result=block)).encode()
        return 200, json.dumps(dict(ok, result="0x9")).encode()
    if path == "/batch-missing":
        return 200, json.dumps([dict(ok, id=request[0]["id"], result="0x1")]).encode()
    if path == "/huge":
        return 200, json.dumps(dict(ok, result="0x" + "ab" * 200_000)).encode()
    return 404, b"unknown path"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        calls = request if isinstance(request, list) else [request]
        if any(type(call.get("id")) is not int for call in calls):  # ids are sent as integers
            status, body = 400, b"request id is not an integer"
        else:
            status, body = answer(self.path, request)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)

server.serve_forever()
