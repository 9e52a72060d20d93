#!/usr/bin/env bash
# The unit under a real systemd (252, Debian 12 = Raspberry Pi OS Bookworm), where
# hardware-tests.sh can only emulate it: a minimal Debian 12 booted in a systemd-nspawn
# container, the package built from $TENDER installed in it, then
#  1. the node enabled and booted: active, READY=1 ("serving on ..."), /healthz and
#     /api/status with the token, the watchdog pinged, systemd-analyze security's exposure;
#  2. the sandbox seen from inside a unit with the same [Service] lines: read-only system,
#     writable state directory, no /home, the credential readable, no capabilities, seccomp on;
#  3. kill -9: restarted; systemctl stop: exit 0; no wallet: exit 66 and not restarted; no
#     passphrase file: 243/CREDENTIALS and not restarted.
# Not a CI test (it downloads a Debian base system: about 2 minutes, 300 MB in /var/tmp,
# removed afterwards; TENDER_NSPAWN_CACHE=DIR keeps the base system there for the next run).
# Needs root, a Debian mirror and port 8737 free; installs debootstrap and systemd-container
# with apt when missing. The cgroup device policy is not checked: this machine's container
# does not enforce it.
#   TENDER=.build/debug/tender bash Tests/Hardware/systemd-check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
started=$(date +%s)
step() { printf '\n== %s\n' "$*"; }
fail() { echo "systemd check: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root"
[ -x "$tender" ] || fail "no tender binary at $tender (set TENDER)"
curl -s -o /dev/null http://127.0.0.1:8737/ && fail "something already listens on 127.0.0.1:8737"
bash Scripts/install-packages.sh --quiet debootstrap systemd-container curl

work=$(mktemp -d /var/tmp/tender-systemd.XXXXXX)
root=$work/root
container=""
cleanup() {
    if [ -n "$container" ] && kill -0 "$container" 2>/dev/null; then
        in_container systemctl poweroff >/dev/null 2>&1 || kill "$container" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$container" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$container" 2>/dev/null || true
    fi
    umount "$root/proc" 2>/dev/null || true
    umount "$root/opt/swift" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# The container's PID 1, the nspawn process's only child.
init_pid() { ps -o pid= --ppid "$container" | tr -d ' ' | head -1; }
in_container() { nsenter -t "$(init_pid)" -a "$@"; }
until_ok() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
property() { in_container systemctl show tender-node -p "$1" --value; }
# Predicates for until_ok (its arguments are expanded once, when it is called).
booted() { [ -n "$(init_pid)" ]; }
property_is() { [ "$(property "$1")" = "$2" ]; }
property_is_not() { [ "$(property "$1")" != "$2" ]; }

step "a Debian 12 base system with systemd"
base=${TENDER_NSPAWN_CACHE:-$root}
if [ ! -x "$base/usr/lib/systemd/systemd" ]; then
    debootstrap --variant=minbase \
        --include=systemd,systemd-sysv,dbus,libsecp256k1-1,libqrencode4,libzbar0,libzxing2,libbluetooth3,libsqlite3-0,adduser \
        bookworm "$base" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
        || fail "debootstrap: $(tail -3 "$work/debootstrap.log")"
fi
if [ "$base" != "$root" ]; then cp -a "$base" "$root"; fi
echo "systemd $(chroot "$root" systemctl --version | head -1 | cut -d' ' -f2) in $root"

step "the package from $tender, a wallet, the unit enabled"
bash Scripts/package-deb.sh --binary "$tender" --for-this-machine --out "$work" --compress none 2>/dev/null | tail -1
cp "$work"/tender_*.deb "$root/tmp/tender.deb"
chroot "$root" dpkg -i /tmp/tender.deb >"$work/dpkg.log" 2>&1 || fail "dpkg -i: $(tail -3 "$work/dpkg.log")"
# A debug build loads the toolchain's Swift runtime: the container sees this machine's.
swift_runtime=()
if ldd "$tender" | grep -q "/opt/swift"; then
    mkdir -p "$root/opt/swift"
    mount --bind -o ro /opt/swift "$root/opt/swift"
    swift_runtime=(--bind-ro=/opt/swift)
fi
mount -t proc proc "$root/proc"
chroot "$root" sh -c 'umask 077; echo "systemd check passphrase" >/etc/tender/passphrase
    install -m 0400 -o tender -g tender /etc/tender/passphrase /tmp/passphrase
    setpriv --reuid tender --regid tender --init-groups env TENDER_HOME=/var/lib/tender \
        TENDER_PASSPHRASE_FILE=/tmp/passphrase tender init --scrypt-n 1024 >/dev/null
    rm /tmp/passphrase
    systemctl enable tender-node.service' 2>&1 | sed 's/^/  /'
umount "$root/proc"
if [ ${#swift_runtime[@]} -gt 0 ]; then umount "$root/opt/swift"; fi

step "boot: the node under systemd"
# --keep-unit: no systemd on this machine to give the container a scope of its own.
systemd-nspawn -q -D "$root" -b --register=no --keep-unit --console=passive "${swift_runtime[@]}" \
    >"$work/boot.log" 2>&1 &
container=$!
until_ok 60 booted || fail "the container did not start: $(tail -3 "$work/boot.log")"
until_ok 60 in_container systemctl is-active --quiet tender-node \
    || fail "tender-node is not active: $(in_container systemctl status tender-node --no-pager 2>&1 | tail -5)"
[ "$(property StatusText)" = "serving on 127.0.0.1:8737" ] || fail "status: $(property StatusText)"
until_ok 60 curl -sf http://127.0.0.1:8737/healthz || fail "no /healthz"
token=$(cat "$root/var/lib/tender/api-token")
curl -sf -H "Authorization: Bearer $token" http://127.0.0.1:8737/api/status >"$work/status.json" \
    || fail "/api/status"
echo "active, \"$(property StatusText)\", /api/status: $(cut -c1-60 "$work/status.json")..."
[ "$(property WatchdogUSec)" = 30s ] || fail "WatchdogUSec: $(property WatchdogUSec)"
first=$(property WatchdogTimestampMonotonic)
until_ok 20 property_is_not WatchdogTimestampMonotonic "$first" || fail "no watchdog ping in 20 s"
echo "watchdog pinged (WatchdogSec=30s)"
in_container systemd-analyze security tender-node --no-pager | grep "Overall exposure"

step "the sandbox from inside the unit"
# The unit's own [Service] lines, with a probe for ExecStart and oneshot for notify.
sed -e '/^ExecStart=/d' -e '/^WatchdogSec=/d' -e '/^Restart/d' -e '/^NotifyAccess=/d' \
    -e 's/^Type=notify/Type=oneshot/' "$root/lib/systemd/system/tender-node.service" \
    >"$root/etc/systemd/system/tender-probe.service"
cat >"$root/usr/local/bin/tender-probe" <<'EOF'
#!/bin/sh
touch /etc/probe 2>/dev/null && echo "system: writable" || echo "system: read-only"
touch /var/lib/tender/probe && rm /var/lib/tender/probe && echo "state: writable"
ls /home >/dev/null 2>&1 && echo "home: visible" || echo "home: hidden"
[ "$(head -1 "$CREDENTIALS_DIRECTORY/passphrase")" = "systemd check passphrase" ] && echo "credential: readable"
grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\t' ' '
id -un
EOF
chmod 0755 "$root/usr/local/bin/tender-probe"
sed -i '/^\[Service\]/a ExecStart=/usr/local/bin/tender-probe' "$root/etc/systemd/system/tender-probe.service"
in_container systemctl daemon-reload
in_container systemctl start tender-probe.service || fail "the probe unit failed"
in_container journalctl -u tender-probe --no-pager -o cat | grep -vE "Starting|Finished|Deactivated" >"$work/probe.log"
sed 's/^/  /' "$work/probe.log"
for expect in "system: read-only" "state: writable" "home: hidden" "credential: readable" \
    "CapEff: 0000000000000000" "CapBnd: 0000000000000000" "NoNewPrivs: 1" "Seccomp: 2" "^tender$"; do
    grep -q "$expect" "$work/probe.log" || fail "the probe did not see \"$expect\""
done

step "restart, stop, and the failures a restart cannot fix"
in_container systemctl kill -s KILL tender-node
until_ok 60 property_is NRestarts 1 || fail "not restarted after kill -9"
until_ok 60 in_container systemctl is-active --quiet tender-node || fail "not active again"
echo "kill -9: restarted"
in_container systemctl stop tender-node
[ "$(property ExecMainStatus)" = 0 ] || fail "stop: exit $(property ExecMainStatus)"
echo "stop: exit 0"
in_container sh -c 'mkdir /root/wallet && mv /var/lib/tender/wallet* /root/wallet/'
in_container systemctl start tender-node >/dev/null 2>&1 || true
until_ok 60 property_is ActiveState failed || fail "no wallet: $(property ActiveState)"
[ "$(property ExecMainStatus)" = 66 ] || fail "no wallet: exit $(property ExecMainStatus)"
[ "$(property NRestarts)" = 0 ] || fail "no wallet: restarted"
echo "no wallet: exit 66, not restarted"
in_container sh -c 'mv /root/wallet/* /var/lib/tender/ && mv /etc/tender/passphrase /root/'
in_container systemctl reset-failed tender-node
in_container systemctl start tender-node >/dev/null 2>&1 || true
until_ok 60 property_is ActiveState failed || fail "no passphrase: $(property ActiveState)"
[ "$(property ExecMainStatus)" = 243 ] || fail "no passphrase: exit $(property ExecMainStatus)"
[ "$(property NRestarts)" = 0 ] || fail "no passphrase: restarted"
echo "no passphrase file: 243/CREDENTIALS, not restarted"

echo
echo "systemd check: passed in $(($(date +%s) - started)) s"
