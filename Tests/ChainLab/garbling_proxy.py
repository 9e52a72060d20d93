"""A JSON-RPC proxy in front of a dev chain that spoils the answers to some methods, for the
chain lab's fault scenarios: every request is forwarded, and the answer to each call of a
listed method is replaced by garbage (a result that is not a quantity), an RPC error, or HTML.
Prints its port, then serves until killed.

    python garbling_proxy.py --upstream http://127.0.0.1:18745 \
        --spoil eth_getTransactionReceipt=garbage --spoil eth_sendRawTransaction=error
"""

import argparse
import json
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--upstream", required=True)
parser.add_argument("--spoil", action="append", default=[], metavar="METHOD=garbage|error|html")
arguments = parser.parse_args()
spoiled = dict(item.split("=", 1) for item in arguments.spoil)


def spoil(call: dict, answer: dict):
    """The answer to `call` as this proxy gives it; None: the whole reply becomes HTML."""
    way = spoiled.get(call.get("method"))
    if way == "garbage":
        return {"jsonrpc": "2.0", "id": call.get("id"), "result": "0xnot-a-number"}
    if way == "error":
        return {"jsonrpc": "2.0", "id": call.get("id"),
                "error": {"code": -32603, "message": "internal error (spoiled by the proxy)"}}
    if way == "html":
        return None
    return answer


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        forwarded = urllib.request.Request(
            arguments.upstream, data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(forwarded, timeout=30) as response:
            answer = json.loads(response.read())
        request = json.loads(body)
        if isinstance(request, list):
            by_id = {item.get("id"): item for item in answer}
            answers = [spoil(call, by_id.get(call.get("id"))) for call in request]
            reply = None if None in answers else answers
        else:
            reply = spoil(request, answer)
        data = b"<html>bad gateway</html>" if reply is None else json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
