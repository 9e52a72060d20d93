#!/usr/bin/env bash
# The install side of a Tender point of sale, checked on a machine without systemd as PID 1,
# Bluetooth, camera or printer (CI: a fresh Debian 12 as root):
#  1. the unit (Hardware/systemd/tender-node.service) passes `systemd-analyze verify`; its
#     `systemd-analyze security` exposure is printed;
#  2. Scripts/package-deb.sh packages $TENDER; apt installs the .deb: user and group tender,
#     files, modes, the conffile, the installed unit verified again;
#  3. udev/70-tender.rules, as installed, through `udevadm test` against stand-in camera,
#     printer and Bluetooth adapter devices (a private /sys, /dev and /run in a mount
#     namespace): parsed without a complaint, group tender and 0660 on the device nodes, the
#     adapter tagged for systemd;
#  4. Hardware/dbus/tender.conf, as installed, in a private system-like bus with a stand-in
#     bluetoothd (fake_bluez.py): as user tender, `tender peers` and `tender receive --ble`
#     reach org.bluez and bluetoothd's callbacks reach the node (the payee under the unit's
#     seccomp filters); as nobody, refused (exit 77);
#  5. the node started as the unit would start it: user tender, TENDER_HOME=/var/lib/tender,
#     the passphrase as a credential, the unit's mounts (ProtectSystem=strict, ProtectHome,
#     PrivateTmp, ProcSubset=pid, ...), no capabilities, and the unit's seccomp filters
#     (unit_sandbox.py: SystemCallFilter, MemoryDenyWriteExecute, RestrictAddressFamilies, ...)
#     with a stand-in notify socket: READY=1, /healthz, /api/status with the token from
#     /var/lib/tender/api-token, a request made, WATCHDOG=1, the kiosk launcher (a stand-in
#     browser) opening /pos#token=..., SIGTERM: exit 0 and STOPPING=1;
#  6. apt purges the package: nothing of it left (the test wallet kept in /var/backups, as
#     purge does with any wallet, then removed).
# Not covered here (no systemd as PID 1): the cgroup device policy (DevicePolicy=closed),
# LoadCredential= itself, Restart= and the watchdog; Tests/Hardware/systemd-check.sh does all
# but the device policy under a real systemd, by hand. Installs what it needs with apt, only
# when missing; refuses to run where a tender package or user already exists.
#   TENDER=.build/debug/tender bash Tests/Hardware/hardware-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tender=$(realpath "${TENDER:-.build/debug/tender}")
started=$(date +%s)
step() { printf '\n== %s\n' "$*"; }
fail() {
    echo "hardware tests: FAILED: $*" >&2
    for log in "${work:-/nonexistent}"/*.log; do
        if [ -s "$log" ]; then echo "--- $log" >&2; tail -15 "$log" >&2; fi
    done
    exit 1
}
[ "$(id -u)" = 0 ] || fail "run as root (it installs a package and makes a system user)"
[ -x "$tender" ] || fail "no tender binary at $tender (set TENDER)"
if dpkg-query -W -f='${Status}' tender 2>/dev/null | grep -q installed || getent passwd tender >/dev/null \
    || getent group tender >/dev/null; then
    fail "a tender package, user or group exists on this machine; this test installs and purges its own"
fi

# --- Tools (apt, only what is missing) ---
need=(systemd udev dbus-daemon dbus-bin python3-dbus python3-gi python3-seccomp curl adduser
    binutils util-linux sudo)
bash Scripts/install-packages.sh "${need[@]}" | sed 's/^/hardware tests: /'
# The distribution's Python, which python3-dbus, python3-gi and python3-seccomp belong to.
python=/usr/bin/python3

work=$(mktemp -d /tmp/tender-hw.XXXXXX)
# Sockets and files the sandboxed node must reach live under /run: the unit's PrivateTmp=
# hides /tmp from it.
run=$(mktemp -d /run/tender-hw.XXXXXX)
chmod 0755 "$run"
# Read by user tender, who may not reach the checkout (a home directory, say).
install -m 0644 Tests/Hardware/unit_sandbox.py "$run/"
pids=()
node_pid=""
backups_before=$(ls -d /var/backups/tender-* 2>/dev/null || true)
backups_mode=$(stat -c %a /var/backups 2>/dev/null || true)
cleanup() {
    if [ -n "$node_pid" ]; then kill -9 "$node_pid" 2>/dev/null || true; fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # Anything still running as tender was started here (the user did not exist before):
    # it would keep purge from removing the user.
    if getent passwd tender >/dev/null; then
        for pid in $(ps -u tender -o pid= 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    fi
    wait 2>/dev/null || true
    if dpkg-query -W -f='${Status}' tender 2>/dev/null | grep -q installed; then
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq tender >/dev/null 2>&1 || true
    fi
    for backup in /var/backups/tender-*; do
        [ -d "$backup" ] || continue
        grep -qxF "$backup" <<<"$backups_before" || rm -rf "$backup"
    done
    rm -rf /run/tender
    [ -n "${KEEP:-}" ] || rm -rf "$work"
    rm -rf "$run"
}
trap cleanup EXIT
until_ok() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}
stopped() { ! kill -0 "$1" 2>/dev/null; }
# Waits up to $2 seconds for the command after them to succeed while process $1 runs; on
# failure, says why: the process ended (how), or the time ran out.
until_ok_while() {
    local pid=$1 seconds=$2 status=0
    shift 2
    for _ in $(seq $((seconds * 10))); do
        "$@" >/dev/null 2>&1 && return 0
        if stopped "$pid"; then
            "$@" >/dev/null 2>&1 && return 0
            wait "$pid" || status=$?
            case $status in
                159) why="it was killed by SIGSYS: a system call the unit's SystemCallFilter= refuses" ;;
                *) why="it exited with status $status" ;;
            esac
            return 1
        fi
        sleep 0.1
    done
    why="still not after $seconds s"
    return 1
}
json() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
unit_source=Hardware/systemd/tender-node.service

step "the unit: systemd-analyze verify and security"
# verify wants ExecStart's binary to exist: a copy pointing at \$TENDER until the package is in.
sed "s|/usr/bin/tender|$tender|" "$unit_source" >"$work/tender-node.service"
# Any word about our unit fails; what it says about other units on this machine does not.
verify() {
    systemd-analyze verify "$1" >"$work/verify.log" 2>&1 || fail "systemd-analyze verify $1: $(cat "$work/verify.log")"
    if grep -q "tender" "$work/verify.log"; then fail "systemd-analyze verify $1: $(cat "$work/verify.log")"; fi
    sed 's/^/  (another unit) /' "$work/verify.log"
}
verify "$work/tender-node.service"
echo "verify: clean"
systemd-analyze security --offline=true --no-pager "$work/tender-node.service" >"$work/security.log" 2>&1 \
    || fail "systemd-analyze security: $(tail -3 "$work/security.log")"
grep "Overall exposure level" "$work/security.log" || fail "no exposure level"
grep "^✗" "$work/security.log" | sed 's/  */ /g' || true

step "the package: built from $tender, installed with apt"
# A binary on the toolchain's shared runtime makes a package no Pi can start: refused, named.
status=0
bash Scripts/package-deb.sh --binary "$tender" --out "$work/refused" --compress none \
    >/dev/null 2>"$work/refused.log" || status=$?
[ "$status" = 65 ] || fail "package-deb.sh took a binary on the toolchain's libraries: exit $status"
grep -q "would not start on another machine" "$work/refused.log" ||
    fail "package-deb.sh did not say why: $(cat "$work/refused.log")"
ls "$work"/refused/*.deb >/dev/null 2>&1 && fail "package-deb.sh wrote a package it refused"
echo "refused without --for-this-machine: $(grep -c 'package-deb:   ' "$work/refused.log") libraries of the toolchain named"
bash Scripts/package-deb.sh --binary "$tender" --for-this-machine --out "$work" --compress none \
    2>"$work/package.log" | tee "$work/package.out" || fail "package-deb.sh: $(tail -5 "$work/package.log")"
deb=$(ls "$work"/tender_*.deb)
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$deb" \
    >"$work/apt.log" 2>&1 || fail "apt-get install: $(tail -5 "$work/apt.log")"
dpkg-query -W -f='${Status} ${Version}\n' tender

step "the user, the files and their modes"
IFS=: read -r _ _ uid gid _ home shell < <(getent passwd tender)
[ "$uid" -lt 1000 ] || fail "tender is not a system user (uid $uid)"
[ "$(getent group tender | cut -d: -f3)" = "$gid" ] || fail "tender's primary group is not tender"
[ "$home" = /var/lib/tender ] || fail "tender's home is $home"
[ "$shell" = /usr/sbin/nologin ] || fail "tender's shell is $shell"
if getent group bluetooth >/dev/null; then
    id -nG tender | grep -qw bluetooth || fail "tender is not in the bluetooth group"
fi
check_mode() {  # PATH MODE OWNER:GROUP
    local actual
    actual=$(stat -c '%a %U:%G' "$1" 2>/dev/null) || fail "$1 is missing"
    [ "$actual" = "$2 $3" ] || fail "$1 is $actual, not $2 $3"
    printf '  %-48s %s\n' "$1" "$actual"
}
check_mode /usr/bin/tender 755 root:root
check_mode /lib/systemd/system/tender-node.service 644 root:root
check_mode /lib/udev/rules.d/70-tender.rules 644 root:root
check_mode /usr/share/dbus-1/system.d/tender.conf 644 root:root
check_mode /etc/tender/node.toml 644 root:root
check_mode /usr/libexec/tender/tender-kiosk 755 root:root
check_mode /var/lib/tender 700 tender:tender
dpkg-query -W -f='${Conffiles}\n' tender | grep -q "/etc/tender/node.toml" \
    || fail "node.toml is not a conffile"
cmp -s /lib/systemd/system/tender-node.service "$unit_source" || fail "the installed unit differs"
verify /lib/systemd/system/tender-node.service
echo "  installed unit: verify clean"

step "udev: the installed rules against stand-in devices"
# udevadm test reads /sys and writes /dev and /run/udev: all three private in a mount
# namespace, so no real device or udev database is touched. The rules: ours beside the
# distribution's defaults (50-udev-default gives cameras to group video first) and systemd's
# own (99-systemd), to show the order works out; /etc/udev/rules.d (local rules) left out.
rules=$work/rules
mkdir -p "$rules"
cp /lib/udev/rules.d/70-tender.rules "$rules/"
for distro in 50-udev-default.rules 99-systemd.rules; do
    if [ -f "/lib/udev/rules.d/$distro" ]; then cp "/lib/udev/rules.d/$distro" "$rules/"; fi
done
cat >"$work/udev.sh" <<'EOF'
set -euo pipefail
rules=$1
real_null=$(mktemp -d)
mount --bind /dev "$real_null"
mount -t tmpfs tmpfs /dev
touch /dev/null && mount --bind "$real_null/null" /dev/null
mkdir -p /dev/usb
mknod -m 0600 /dev/video0 c 81 0
mknod -m 0600 /dev/v4l-subdev0 c 81 1
mknod -m 0600 /dev/usb/lp0 c 180 0
mount -t tmpfs tmpfs /run
[ ! -d /etc/udev/rules.d ] || mount -t tmpfs tmpfs /etc/udev/rules.d
mount --bind "$rules" "$(realpath /lib/udev/rules.d)"
mount -t tmpfs tmpfs /sys
# A device: its folder with uevent, the subsystem link, the class link.
device() {  # DEVPATH SUBSYSTEM UEVENT
    mkdir -p "/sys$1" "/sys/class/$2"
    printf '%b' "$3" >"/sys$1/uevent"
    ln -s "/sys/class/$2" "/sys$1/subsystem"
    ln -s "/sys$1" "/sys/class/$2/$(basename "$1")"
}
device /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/video4linux/video0 video4linux \
    'MAJOR=81\nMINOR=0\nDEVNAME=video0\n'
device /devices/platform/camera/video4linux/v4l-subdev0 video4linux \
    'MAJOR=81\nMINOR=1\nDEVNAME=v4l-subdev0\n'
device /devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/usbmisc/lp0 usbmisc \
    'MAJOR=180\nMINOR=0\nDEVNAME=usb/lp0\n'
device /devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/bluetooth/hci0 bluetooth 'DEVTYPE=host\n'
# The checks run on a stand-in sysfs (tmpfs): tell sd-device not to insist on the real one.
export SYSTEMD_DEVICE_VERIFY_SYSFS=0 SYSTEMD_LOG_LEVEL=debug
for name in video0 v4l-subdev0 lp0 hci0; do
    path=$(realpath "/sys/class/"*"/$name")
    echo "### $name"
    udevadm test --action=add "$path" 2>&1
done
echo "### nodes"
stat -c '%n %a %G' /dev/video0 /dev/v4l-subdev0 /dev/usb/lp0
EOF
unshare --mount --propagation private bash "$work/udev.sh" "$rules" >"$work/udev.log" 2>&1 \
    || fail "udevadm test: $(tail -5 "$work/udev.log")"
# Any complaint about our file (an invalid rule, an unknown group or key) fails the test.
if grep -n "70-tender.rules" "$work/udev.log" | grep -iE "invalid|error|unknown|ignor|fail|warn"; then
    fail "udevadm complained about 70-tender.rules"
fi
grep -q "Reading rules file: .*70-tender.rules" "$work/udev.log" || fail "udevadm did not read 70-tender.rules"
section() { sed -n "/^### $1\$/,/^### /p" "$work/udev.log"; }
tgid=$(getent group tender | cut -d: -f3)
section video0 | grep -q "70-tender.rules:[0-9]* GROUP $tgid" || fail "video0: no GROUP tender from our rule"
section lp0 | grep -q "70-tender.rules:[0-9]* GROUP $tgid" || fail "lp0: no GROUP tender from our rule"
section v4l-subdev0 | grep -q "70-tender.rules:[0-9]" && fail "v4l-subdev0 matched a camera rule"
section hci0 | grep -q "^TAGS=.*:systemd:" || fail "hci0: not tagged for systemd"
if [ -f "$rules/99-systemd.rules" ]; then  # the alias a drop-in orders the unit after
    section hci0 | grep -q "^SYSTEMD_ALIAS=/sys/subsystem/bluetooth/devices/hci0" || fail "hci0: no alias"
fi
section hci0 | grep -q "^TENDER_ADAPTER=1" || fail "hci0: not marked as Tender's"
section nodes | grep -qx "/dev/video0 660 tender" || fail "video0 node: $(section nodes)"
section nodes | grep -qx "/dev/usb/lp0 660 tender" || fail "lp0 node: $(section nodes)"
section nodes | grep -q "/dev/v4l-subdev0 .* tender" && fail "a non-camera V4L2 node went to tender"
section nodes | grep "^/dev"
grep -E "70-tender.rules:[0-9]+ (GROUP|MODE)" "$work/udev.log" | sed 's/^/  /'
section hci0 | grep -E "^(TAGS|SYSTEMD_ALIAS|SYSTEMD_WANTS|TENDER_ADAPTER)=" | sed 's/^/  hci0: /'

step "a wallet for the node, its passphrase as a credential"
# As the operator does it (Hardware/README.md): the passphrase in /etc/tender/passphrase
# (root, 0600), which systemd hands to the unit as a credential; here a credentials-like
# directory holds the copy: 0500 and 0400, owned by tender, as systemd makes them.
umask 077
echo "hardware tests passphrase" >/etc/tender/passphrase
umask 022
credentials=$run/credentials/tender-node.service
install -d -m 0500 -o tender -g tender "$credentials"
install -m 0400 -o tender -g tender /etc/tender/passphrase "$credentials/passphrase"
# The unit's user, groups and environment (no capabilities, no new privileges). An array,
# not a function: a background function would be a subshell, and $! not the command's pid.
as_tender=(setpriv --reuid tender --regid tender --init-groups --no-new-privs --bounding-set -all
    --inh-caps -all env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin
    HOME=/var/lib/tender USER=tender LOGNAME=tender TENDER_HOME=/var/lib/tender
    TENDER_PASSPHRASE_FILE="$credentials/passphrase")
"${as_tender[@]}" /usr/bin/tender init --scrypt-n 1024 >"$work/init.log" 2>&1 || fail "tender init as tender"
address=$("${as_tender[@]}" /usr/bin/tender address)
echo "wallet $address in /var/lib/tender"
check_mode /var/lib/tender/wallet-key.json 600 tender:tender

step "D-Bus: the installed policy on a private system-like bus, a stand-in bluetoothd"
# The system bus's default policy (as /usr/share/dbus-1/system.conf: every method call denied
# unless a policy allows it), bluetoothd's right to own org.bluez (as BlueZ's bluetooth.conf),
# and our file; nothing else, so the distribution's own BlueZ policy does not mask ours.
mkdir -p "$run/bus"
cat >"$work/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$run/bus/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
  </policy>
  <policy user="root">
    <allow own="org.bluez"/>
  </policy>
  <include>/usr/share/dbus-1/system.d/tender.conf</include>
</busconfig>
EOF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile --nosyslog --print-address=3 \
    3>"$work/bus.address" 2>"$work/dbus.log" &
pids+=($!)
until_ok 60 test -s "$work/bus.address" || fail "dbus-daemon did not start (the policy does not parse?)"
bus=$(head -1 "$work/bus.address")
echo "bus: $bus"
"$python" Tests/Hardware/fake_bluez.py "$bus" "$work/bluez.log" 2>"$work/fake_bluez.log" &
pids+=($!)
until_ok 60 grep -q "^ready" "$work/bluez.log" || fail "the stand-in bluetoothd did not start"

status=0
"${as_tender[@]}" DBUS_SYSTEM_BUS_ADDRESS="$bus" /usr/bin/tender peers --seconds 1 \
    >"$work/peers.log" 2>&1 || status=$?
[ "$status" = 0 ] || fail "tender peers as tender: exit $status: $(cat "$work/peers.log")"
grep -q "call org.bluez.Adapter1.StartDiscovery from .*(uid $uid)" "$work/bluez.log" \
    || fail "tender's discovery did not reach the stand-in bluetoothd"
echo "tender peers as tender: $(cat "$work/peers.log")"

# Under the unit's seccomp filters too: the node will run this payee service (OPERATIONS.md).
"${as_tender[@]}" DBUS_SYSTEM_BUS_ADDRESS="$bus" "$python" "$run/unit_sandbox.py" \
    /lib/systemd/system/tender-node.service -- /usr/bin/tender receive --ble --amount 250 \
    >"$work/receive.log" 2>&1 &
receive=$!
pids+=("$receive")
until_ok_while "$receive" 120 grep -q "ready: advertising on hci0" "$work/receive.log" \
    || fail "tender receive --ble did not get ready ($why): $(grep -a "error" "$work/receive.log")"
kill -TERM "$receive"
until_ok 60 stopped "$receive" || fail "tender receive --ble did not stop on SIGTERM"
grep -q "callback org.freedesktop.DBus.ObjectManager.GetManagedObjects ok" "$work/bluez.log" \
    || fail "bluetoothd's GATT callback did not reach the node"
grep -q "callback org.freedesktop.DBus.Properties.GetAll ok" "$work/bluez.log" \
    || fail "bluetoothd's advertisement callback did not reach the node"
grep -q "stray call allowed" "$work/bluez.log" && fail "root could call a non-BlueZ interface on the node"
grep -c "stray call refused" "$work/bluez.log" | grep -qv '^0$' || fail "no stray call was tried"
grep -q "unit_sandbox: SystemCallFilter" "$work/receive.log" || fail "the payee ran without the unit's filters"
grep "ready: advertising" "$work/receive.log" | sed 's/^/tender receive --ble as tender, under the unit'"'"'s filters: /'
grep -E "^(callback|stray)" "$work/bluez.log" | sed 's/^/  bluetoothd: /'

status=0
setpriv --reuid nobody --regid nogroup --clear-groups env -i DBUS_SYSTEM_BUS_ADDRESS="$bus" \
    /usr/bin/tender peers --seconds 1 >"$work/nobody.log" 2>&1 || status=$?
[ "$status" = 77 ] || fail "tender peers as nobody: exit $status, not 77: $(cat "$work/nobody.log")"
grep -q "D-Bus policy does not allow" "$work/nobody.log" || fail "nobody's refusal: $(cat "$work/nobody.log")"
echo "tender peers as nobody: exit 77, $(cut -c1-90 "$work/nobody.log")..."

step "the node as the unit starts it"
# The unit's own lines: ExecStart, Environment (its specifiers resolved as systemd would for
# this unit: %S /var/lib, %d the credentials directory).
exec_start=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/tender-node.service)
mapfile -t environment < <(sed -n 's/^Environment=//p' /lib/systemd/system/tender-node.service \
    | sed -e "s|%S|/var/lib|g" -e "s|%d|$credentials|g")
watchdog=$(sed -n 's/^WatchdogSec=\([0-9]*\)s$/\1/p' /lib/systemd/system/tender-node.service)
[ -n "$watchdog" ] || fail "no WatchdogSec= in seconds in the unit"
curl -s -o /dev/null http://127.0.0.1:8737/ && fail "something already listens on 127.0.0.1:8737 (the unit's port)"
# RuntimeDirectory=tender (0750), made by systemd at start.
install -d -m 0750 -o tender -g tender /run/tender
cp /lib/systemd/system/tender-node.service "$run/"
"$python" Tests/NodeLab/notify_listener.py "$run/notify.sock" "$work/notify.log" &
pids+=($!)
until_ok 60 test -S "$run/notify.sock" || fail "no notify socket"
chmod 0666 "$run/notify.sock"
# The mounts, in a private mount namespace, as the unit's settings make them:
#   ProtectSystem=strict   the system directories read-only, but StateDirectory=,
#                          RuntimeDirectory= and the credentials (their own mounts, kept
#                          writable / read-only as systemd does); /dev, /proc, /sys apart
#   ProtectKernelTunables, ProtectControlGroups   /proc/sys and /sys read-only
#   PrivateTmp             fresh /tmp and /var/tmp
#   ProtectHome            /home, /root, /run/user empty and inaccessible
#   ProtectProc=invisible, ProcSubset=pid         /proc with hidepid=invisible,subset=pid
# then user tender with no capabilities and no new privileges (setpriv), then the unit's
# seccomp filters (unit_sandbox.py), then ExecStart. Not emulated: DevicePolicy (cgroup),
# PrivateIPC, ProtectHostname, ProtectClock's device rule, RestrictSUIDSGID.
cat >"$work/unit.sh" <<'EOF'
set -euo pipefail
credentials=$1 run=$2 python=$3
shift 3
for keep in /var/lib/tender /run/tender "$credentials"; do mount --bind "$keep" "$keep"; done
mount -o remount,bind,ro "$credentials"
findmnt -rno TARGET | while read -r target; do
    case $target in
        /var/lib/tender | /run/tender | "$credentials") ;;
        / | /usr | /usr/* | /etc | /etc/* | /var | /var/* | /opt | /opt/* | /boot | /boot/* \
            | /srv | /srv/* | /run | /run/* | /home | /home/* | /root | /root/* | /tmp | /tmp/*)
            mount -o remount,bind,ro "$target" 2>/dev/null || true ;;
    esac
done
touch /var/lib/tender/.rw-check && rm /var/lib/tender/.rw-check
if touch /etc/.tender-ro-check 2>/dev/null; then rm -f /etc/.tender-ro-check; echo "/etc is writable" >&2; exit 1; fi
mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
mount -o remount,bind,ro /sys
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
for home in /home /root /run/user; do
    if [ -d "$home" ]; then mount -t tmpfs -o mode=000,ro tmpfs "$home"; fi
done
mount -t proc -o hidepid=invisible,subset=pid proc /proc
exec setpriv --reuid tender --regid tender --init-groups --no-new-privs --bounding-set -all \
    --inh-caps -all "$python" "$run/unit_sandbox.py" "$run/tender-node.service" -- "$@"
EOF
# shellcheck disable=SC2086 # ExecStart is split into words as systemd splits it
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin HOME=/var/lib/tender USER=tender \
    LOGNAME=tender SHELL=/usr/sbin/nologin INVOCATION_ID=0123456789abcdef0123456789abcdef \
    CREDENTIALS_DIRECTORY="$credentials" STATE_DIRECTORY=/var/lib/tender \
    RUNTIME_DIRECTORY=/run/tender CONFIGURATION_DIRECTORY=/etc/tender \
    NOTIFY_SOCKET="$run/notify.sock" WATCHDOG_USEC=2000000 "${environment[@]}" \
    unshare --mount --propagation private bash "$work/unit.sh" "$credentials" "$run" "$python" \
    $exec_start >"$work/node.log" 2>&1 &
node_pid=$!
# The watchdog is pinged every half WATCHDOG_USEC: 1 s here instead of the unit's
# ${watchdog} s / 2, so a ping shows within the test.
until_ok_while "$node_pid" 120 grep -q "READY=1" "$work/notify.log" \
    || fail "no READY=1 from the node ($why): $(grep -a "error" "$work/node.log")"
grep "unit_sandbox:" "$work/node.log" | sed 's/^/  /'
until_ok 60 curl -sf http://127.0.0.1:8737/healthz || fail "no /healthz on 127.0.0.1:8737"
check_mode /var/lib/tender/api-token 600 tender:tender
token=$(cat /var/lib/tender/api-token)
code=$(curl -s -o "$work/out" -w '%{http_code}' http://127.0.0.1:8737/api/status)
[ "$code" = 401 ] || fail "/api/status without the token: $code"
curl -sf -H "Authorization: Bearer $token" http://127.0.0.1:8737/api/status >"$work/status.json" \
    || fail "/api/status with the token"
[ "$(json '["address"]' <"$work/status.json")" = "$address" ] || fail "status: $(cat "$work/status.json")"
[ "$(json '["sync"]["enabled"]' <"$work/status.json")" = True ] || fail "the sync loop is off"
request=$(curl -sf -H "Authorization: Bearer $token" -X POST -d '{"amount": "250", "memo": "tea"}' \
    http://127.0.0.1:8737/api/requests) || fail "POST /api/requests"
[ "$(echo "$request" | json '["state"]')" = waiting ] || fail "request: $request"
echo "status: address $address, sync enabled; a request: $(echo "$request" | json '["uri"]' | cut -c1-60)..."
code=$(curl -s -o "$work/pos.html" -w '%{http_code}' http://127.0.0.1:8737/pos)
if [ "$code" != 200 ] || ! grep -qi "<html" "$work/pos.html"; then
    fail "GET /pos: $code (the page the kiosk opens)"
fi
until_ok 60 grep -q "WATCHDOG=1" "$work/notify.log" || fail "no WATCHDOG=1"
# The kiosk launcher, with a stand-in browser: it reads the token as tender (sudo), waits for
# the node, and hands Chromium a private page that goes on to /pos#token=...
mkdir -p "$work/kiosk"
cat >"$work/kiosk/chromium" <<EOF
#!/bin/sh
echo "\$@" >"$work/kiosk/args"
for last; do :; done
cat "\${last#file://}" >"$work/kiosk/page"
EOF
chmod 0755 "$work/kiosk/chromium"
PATH="$work/kiosk:$PATH" XDG_RUNTIME_DIR="$work/kiosk" timeout 60 /usr/libexec/tender/tender-kiosk \
    >"$work/kiosk.log" 2>&1 || fail "tender-kiosk: $(cat "$work/kiosk.log")"
grep -q -- "--kiosk --incognito .*file://$work/kiosk/tender-pos.html" "$work/kiosk/args" \
    || fail "kiosk: $(cat "$work/kiosk/args")"
grep -qF "location.replace(\"http://127.0.0.1:8737/pos#token=$token\")" "$work/kiosk/page" \
    || fail "kiosk page: $(cat "$work/kiosk/page")"
[ "$(stat -c %a "$work/kiosk/tender-pos.html")" = 600 ] || fail "the kiosk page is not 0600"
grep -q "$token" "$work/kiosk/args" && fail "the token is on the browser's command line"
echo "kiosk: /pos served; Chromium gets $(cut -c1-30 "$work/kiosk/args")... and a page going on to /pos#token=<the token>"
check_mode /var/lib/tender 700 tender:tender
kill -TERM "$node_pid"
status=0
until_ok 20 stopped "$node_pid" || fail "the node did not stop within 20 s (TimeoutStopSec) of SIGTERM"
wait "$node_pid" || status=$?
node_pid=""
[ "$status" = 0 ] || fail "SIGTERM: exit $status"
until_ok 60 grep -q "STOPPING=1" "$work/notify.log" || fail "no STOPPING=1"
grep -q "Bad system call\|SIGSYS" "$work/node.log" && fail "a system call outside the filter"
echo "SIGTERM: exit 0, notifications: $(sort -u "$work/notify.log" | cut -d= -f1 | paste -sd' ')"
rm -rf /run/tender

step "purge: nothing of the package left"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq tender >"$work/purge.log" 2>&1 \
    || fail "apt-get purge: $(tail -5 "$work/purge.log")"
grep "kept in" "$work/purge.log" | sed 's/^/  /' || true
if dpkg-query -W -f='${Status}' tender 2>/dev/null | grep -q "ok"; then
    fail "dpkg still knows tender: $(dpkg-query -W -f='${Status}' tender)"
fi
for path in /usr/bin/tender /lib/systemd/system/tender-node.service /lib/udev/rules.d/70-tender.rules \
    /usr/share/dbus-1/system.d/tender.conf /etc/tender /var/lib/tender /usr/libexec/tender \
    /usr/share/doc/tender /usr/share/tender; do
    [ ! -e "$path" ] || fail "$path is still there"
done
getent passwd tender >/dev/null && fail "the user tender is still there"
getent group tender >/dev/null && fail "the group tender is still there"
kept=""
for backup in /var/backups/tender-*; do
    if [ -d "$backup" ] && ! grep -qxF "$backup" <<<"$backups_before"; then kept=$backup; fi
done
if [ -z "$kept" ] || [ ! -f "$kept/wallet-key.json" ] || [ ! -f "$kept/passphrase" ]; then
    fail "purge did not keep the wallet and its passphrase in /var/backups"
fi
[ "$(stat -c '%a %U' "$kept")" = "700 root" ] || fail "$kept is $(stat -c '%a %U' "$kept")"
[ "$(stat -c %a /var/backups)" = "${backups_mode:-755}" ] || fail "purge changed /var/backups' mode"
echo "gone: the package, its files, /etc/tender, /var/lib/tender, user and group; wallet kept in $kept (removed by this test)"

echo
echo "hardware tests: passed in $(($(date +%s) - started)) s"
