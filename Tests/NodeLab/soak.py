#!/usr/bin/env python3
"""Soak: `tender node` paying on its own through its API while it is killed (kill -9) at
random moments and restarted, compressed into a minute or two; then nothing lost, nothing
paid twice:
  * every payment whose bytes the client received is in the node's wallet as pending or
    spent (never cancelled, never missing), and a payee wallet takes every one of them: a
    coin spent in two payments would be refused there as a double spend;
  * after the payments left prepared are cancelled, the node's spendable balance is what it
    started with minus what its wallet says it paid, and the spending limit counts exactly
    the payments not cancelled.
  TENDER=.build/debug/tender python3 Tests/NodeLab/soak.py [--seconds 60] [--keep]
Standard library only."""
import argparse, atexit, json, os, random, shutil, signal, subprocess, sys, tempfile, threading
import time, urllib.error, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=int, default=60)
parser.add_argument("--rate", type=int, default=10, help="payments a second")
parser.add_argument("--keep", action="store_true")
options = parser.parse_args()
tender = os.path.abspath(os.environ.get("TENDER", ".build/debug/tender"))
work = tempfile.mkdtemp(prefix="tender-soak.")
port = 18791
base = f"http://127.0.0.1:{port}"
env = dict(os.environ, TENDER_PASSPHRASE_FILE=os.path.join(work, "passphrase"))
with open(env["TENDER_PASSPHRASE_FILE"], "w") as f:
    f.write("soak passphrase\n")


def cli(*arguments, check=True):
    result = subprocess.run([tender, *arguments], env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"soak: FAILED: tender {' '.join(arguments[:2])}: {result.stderr.strip()}")
    return result


def fail(why):
    print(f"soak: FAILED: {why}", file=sys.stderr)
    log = os.path.join(work, "node.log")
    if os.path.exists(log):
        print("".join(open(log).readlines()[-15:]), file=sys.stderr)
    sys.exit(1)


node_home, payee_home, issuer_home = (os.path.join(work, n) for n in ("node", "payee", "issuer"))
cli("issuer", "init", "--data-dir", issuer_home, "--scrypt-n", "1024")
issuer = cli("issuer", "address", "--data-dir", issuer_home).stdout.strip()
for home in (node_home, payee_home):
    cli("init", "--data-dir", home, "--scrypt-n", "1024")
    cli("trust", "add", issuer, "--data-dir", home)
node_address = cli("address", "--data-dir", node_home).stdout.strip()
payee = cli("address", "--data-dir", payee_home).stdout.strip()
# Notes of 7 and 30: payments of 10 need change, so kills land between change and spend too.
notes = 0
for amount, count in ((30, 200), (7, 200), (30, 200)):
    path = os.path.join(work, f"notes-{notes}.tender")
    cli("issuer", "issue", "--data-dir", issuer_home, "--to", node_address, "--amount", str(amount),
        "--count", str(count), "--out", path)
    cli("receive", path, "--data-dir", node_home)
    notes += amount * count
with open(os.path.join(node_home, "node.toml"), "w") as f:
    f.write(f'[sync]\nenabled = false\n[[limits]]\npayee = "{payee}"\namount = "{notes}"\nperiod = "1d"\n')

node = None
node_lock = threading.Lock()


@atexit.register
def stop_node():
    """However the soak ends (a failure included), no `tender node` of it is left running."""
    if node is not None and node.poll() is None:
        node.kill()
        node.wait()


def start_node():
    global node
    log = open(os.path.join(work, "node.log"), "a")
    node = subprocess.Popen([tender, "node", "--data-dir", node_home, "--listen", f"127.0.0.1:{port}"],
                            env=env, stdout=log, stderr=log)
    for _ in range(1200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).read()
            return
        except Exception:
            time.sleep(0.05)
    fail("the node did not come up")


start_node()
token = open(os.path.join(node_home, "api-token")).read().strip()


def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=body,
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


exported = {}  # request id -> the payment's bytes, as the client received them
answered = {"made": 0, "refused": 0, "lost": 0}
tally_lock = threading.Lock()
deadline = time.monotonic() + options.seconds


def pay_once():
    try:
        status, body = call("POST", "/api/payments", json.dumps({"to": payee, "amount": "10"}).encode())
        request_id = json.loads(body)["payment"]["requestId"]
        status, payment = call("POST", f"/api/payments/{request_id}/export")
        with tally_lock:
            exported[request_id] = payment
            answered["made"] += 1
    except urllib.error.HTTPError as error:
        with tally_lock:
            answered["refused"] += 1
        if error.code not in (403, 409, 422):
            fail(f"unexpected {error.code}: {error.read()[:200]}")
    except Exception:
        with tally_lock:  # the node was killed mid-call: the payment's fate is the wallet's
            answered["lost"] += 1


workers = []


def payer():
    gap = 1 / options.rate
    next_at = time.monotonic()
    while time.monotonic() < deadline:
        next_at += gap
        worker = threading.Thread(target=pay_once, daemon=True)
        worker.start()
        workers.append(worker)
        time.sleep(max(0, next_at - time.monotonic()))


kills = 0
paying = threading.Thread(target=payer)
paying.start()
while time.monotonic() < deadline - 2:
    time.sleep(random.uniform(1.5, 5))
    node.send_signal(signal.SIGKILL)
    node.wait()
    kills += 1
    time.sleep(random.uniform(0, 0.5))
    start_node()
paying.join()
for worker in workers:  # calls still in flight end (answered, or cut by their 10 s timeouts)
    worker.join()
print(f"soak: {options.seconds} s, {kills} kills, {answered['made']} payments exported, "
      f"{answered['lost']} calls cut by a kill, {answered['refused']} refused (busy/limit)")
# Enough to prove something, whatever the machine's speed (a busy one pays less in a minute).
if kills < 3 or answered["made"] < 50:
    fail("too little happened to prove anything")

# The wallet's account of its payments, then the prepared ones cancelled.
status, body = call("GET", "/api/payments")
outgoing = {p["requestId"]: p for p in json.loads(body)["outgoing"]}
for request_id in exported:
    state = outgoing.get(request_id, {}).get("state")
    if state not in ("pending", "spent", "in-doubt"):
        fail(f"payment {request_id} left the node but the wallet says {state}")
for request_id, payment in outgoing.items():
    if payment["state"] == "prepared":
        call("POST", f"/api/payments/{request_id}/cancel")
status, body = call("GET", "/api/payments")
outgoing = json.loads(body)["outgoing"]
paid = sum(int(p["amount"]) for p in outgoing if p["state"] in ("pending", "spent", "in-doubt"))
status, body = call("GET", "/api/balance")
spendable = sum(int(a["spendable"]) + int(a["expiring"]) for a in json.loads(body)["domains"][0]["assets"])
status, body = call("GET", "/api/limits")
used = int(json.loads(body)["limits"][0]["used"])
node.send_signal(signal.SIGTERM)
node.wait(timeout=60)
if spendable != notes - paid:
    fail(f"spendable {spendable} != {notes} - {paid} paid: value lost or made")
if used != paid:
    fail(f"the limit counts {used}, the payments not cancelled are {paid}")

# The payee takes every payment that left: a coin in two of them is a double spend there.
for index, (request_id, payment) in enumerate(sorted(exported.items())):
    path = os.path.join(work, f"payment-{index}.tender")
    with open(path, "wb") as f:
        f.write(payment)
    result = cli("receive", path, "--data-dir", payee_home, check=False)
    if result.returncode != 0:
        fail(f"the payee refused payment {request_id}: {result.stderr.strip()}")
print(f"soak: ok: {len(exported)} payments all taken by the payee, spendable {spendable} = "
      f"{notes} - {paid}, the limit counts {used}")
if not options.keep:
    shutil.rmtree(work)
