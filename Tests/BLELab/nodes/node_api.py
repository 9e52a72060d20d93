"""The node's local API on its Unix socket (the lab's VMs have no loopback interface up), from
a lab scenario, stdlib only; for Tests/BLELab/scenarios/pay-node.sh.

    node_api.py DATA_DIR SOCKET wait-bluetooth       until /api/status says the payee is ready
    node_api.py DATA_DIR SOCKET request AMOUNT [S]   POST /api/requests (payable S seconds);
                                                     prints the request id
    node_api.py DATA_DIR SOCKET code ID FILE         the request's code as a PNG
    node_api.py DATA_DIR SOCKET wait-paid ID         until the request's state is "paid"
    node_api.py DATA_DIR SOCKET events FILE          the event stream, appended to FILE
    node_api.py DATA_DIR SOCKET metric NAME          the value of one /metrics series
    node_api.py DATA_DIR SOCKET cashu-at-risk N      until /api/cashu/balance holds N sat at
                                                     risk (taken offline, not swapped yet)
"""

import http.client
import json
import socket
import sys
import time


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def open_call(base, token, path, body=None, timeout=10):
    connection = UnixConnection(base, timeout)
    headers = {"Authorization": "Bearer " + token}
    data = None if body is None else json.dumps(body).encode()
    if data:
        headers["Content-Type"] = "application/json"
    connection.request("POST" if data else "GET", path, body=data, headers=headers)
    answer = connection.getresponse()
    if answer.status >= 300:
        raise OSError("%s %s: HTTP %d %s" % ("POST" if data else "GET", path, answer.status,
                                              answer.read()[:200]))
    return answer


def call(base, token, path, body=None, raw=False):
    content = open_call(base, token, path, body).read()
    return content if raw else json.loads(content)


def until(what, check, seconds=120):
    deadline = time.time() + seconds
    last = None
    while time.time() < deadline:
        try:
            if check():
                return
            last = None
        except OSError as error:
            last = error
        time.sleep(0.5)
    sys.exit("node_api: gave up waiting for %s%s" % (what, " (%s)" % last if last else ""))


def main():
    data_dir, base, command, *rest = sys.argv[1:]
    # The node makes its token file as it starts.
    deadline = time.time() + 60
    while True:
        try:
            token = open(data_dir + "/api-token").read().strip()
            break
        except FileNotFoundError:
            if time.time() > deadline:
                raise
            time.sleep(0.25)
    if command == "wait-bluetooth":
        seen = []

        def ready():
            status = call(base, token, "/api/status")["services"].get("bluetooth", "")
            if not seen or seen[-1] != status:
                seen.append(status)
                print("node_api: bluetooth service:", status, file=sys.stderr)
            return status.startswith("ready")
        until("the Bluetooth payee", ready)
        print(call(base, token, "/api/status")["services"]["bluetooth"])
    elif command == "request":
        body = {"amount": rest[0], "memo": "lab stall"}
        if len(rest) > 1:
            body["expiresIn"] = int(rest[1])
        made = call(base, token, "/api/requests", body)
        print(made["requestId"])
    elif command == "code":
        png = call(base, token, "/api/requests/%s/qr.png" % rest[0], raw=True)
        open(rest[1], "wb").write(png)
    elif command == "wait-paid":
        until("request %s paid" % rest[0],
              lambda: call(base, token, "/api/requests/" + rest[0])["state"] == "paid", 300)
    elif command == "events":
        stream = open_call(base, token, "/api/events", timeout=None)
        with open(rest[0], "a") as out:
            for line in stream:
                out.write(line.decode())
                out.flush()
    elif command == "metric":
        text = call(base, token, "/metrics", raw=True).decode()
        values = [line.split()[-1] for line in text.splitlines() if line.startswith(rest[0] + " ")]
        print(values[0] if values else "absent")
    elif command == "cashu-at-risk":
        def held():
            balances = call(base, token, "/api/cashu/balance")["balances"]
            return sum(int(b["atRisk"]) for b in balances if b["unit"] == "sat") == int(rest[0])
        until("%s sat of Cashu at risk" % rest[0], held, 300)
    else:
        sys.exit("node_api: unknown command " + command)


main()
