#!/bin/bash
# PID 1 of both BLE lab guests (Hardware/ble-lab/run.sh boots them; ble_role=A or B on the
# kernel command line). Brings the Bluetooth stack up once, then runs the halves of the
# scenarios the host lists in /mnt/lab/ctl (scenario.1, scenario.2, ...) one after the other,
# and performs the faults the scenarios ask for (/mnt/lab/requests/<role>/) in the background.
#
#   VM A: btvirt (the air; its first controller is A's hci0 through /dev/vhci), air.py relaying
#         btvirt's second controller to the serial port ttyS1 that leads to VM B.
#   VM B: btattach makes the controller behind ttyS1 its hci0.
#   Both: dbus-daemon, and bluetoothd -n -d started for each scenario's clean state (and
#         again whenever it dies unasked).
#
# Handshake per scenario I (files in /mnt/lab/ctl): both agents make Bluetooth clean and write
# I.<role>.clean (its seconds); once both are clean, A starts peripheral() and writes I.ready
# when its output has READY (or I.ready-failed); B then runs central() and writes I.B.rc; A
# stops its node and writes I.A.rc (0 when it was still running or had exited 0); each copies
# its logs and writes I.<role>.done. A PID 1 must not exit, so no `set -e` here.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
role=$(sed -n 's/.*ble_role=\([AB]\).*/\1/p' /proc/cmdline)
share=/mnt/lab
run=/run/ble-lab
guest_dir=$(dirname "$(readlink -f "$0")")

# In software emulation every program started costs 0.1-0.2 s of the VM's one CPU, so the
# loops below use bash's own clock ($EPOCHREALTIME) and a sleep that starts nothing: a read
# with a timeout on a pipe nobody writes to (fd 9, opened once /run is mounted).
snooze() { read -r -t "$1" -u 9 || :; }
# How often a loop looks at a file on the 9p share: each look costs about 6 ms of the VM's
# emulated CPU (measured: two loops at 20 looks a second kept a third of a host core busy in
# an idle VM), so 5 a second, where a local file is looked at 10 or 20 times a second.
share_poll=0.2
micros() { local r=$EPOCHREALTIME; echo $((${r%.*} * 1000000 + 10#${r#*.})); }
micros_into() { local r=$EPOCHREALTIME; printf -v "$1" '%d' $((${r%.*} * 1000000 + 10#${r#*.})); }
stamp() { local r=$EPOCHREALTIME; printf '%(%H:%M:%S)T.%.3s' "${r%.*}" "${r#*.}"; }
say() {
    local r=$EPOCHREALTIME line
    printf -v line 'ble-lab %s %(%H:%M:%S)T.%.3s: %s' "$role" "${r%.*}" "${r#*.}" "$*"
    echo "$line" >>"$share/agent-$role.log"
    echo "$line" >/dev/console
}
now() { micros; }
elapsed() { # elapsed START_MICROS: seconds since, two decimals
    local d=$(($(micros) - $1))
    printf '%d.%02d' $((d / 1000000)) $((d % 1000000 / 10000))
}

mount_everything() {
    mount -t tmpfs tmpfs /run
    mkdir -p /run/dbus "$run" /lib/modules "$share"
    mkfifo "$run/snooze"
    exec 9<>"$run/snooze"
    # devtmpfs lacks these links (udev makes them); bash's <(...) and scripts need them.
    ln -sf /proc/self/fd /dev/fd
    ln -sf /proc/self/fd/0 /dev/stdin
    ln -sf /proc/self/fd/1 /dev/stdout
    ln -sf /proc/self/fd/2 /dev/stderr
    mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none lab "$share"
    . "$share/boot.env"
    mount --bind "$KERNEL_DIR/lib/modules" /lib/modules
    # Bluetooth's remembered devices must not come from the host's disk.
    mkdir -p /var/lib/bluetooth
    mount -t tmpfs tmpfs /var/lib/bluetooth
}

sync_clock() {
    # The guest clock starts from the RTC (whole seconds). Take the host's time from the
    # modification time the host's file system gives a file we create in the share, so both
    # VMs and the host log on one time base. Starting a program takes a tenth of a second
    # here, so the time spent between reading the host's clock and `date` setting ours is
    # measured and added. The residual is logged by check_clock.
    local probe=$share/ctl/.clock-$role before after host start lag now target
    micros_into before
    : >"$probe"
    micros_into after
    host=$(stat -c %.6Y "$probe")
    host=$((${host%.*} * 1000000 + 10#${host#*.}))
    micros_into start
    lag=$(date +%s%6N)
    lag=$((lag - start))
    micros_into now
    target=$((host + now - (before + after) / 2 + lag))
    date -s "@$((target / 1000000)).$(printf '%06d' $((target % 1000000)))" >/dev/null
    rm -f "$probe"
}

check_clock() { # how far this clock is from the host's, by another probe file
    local probe=$share/ctl/.clock-$role before after host
    micros_into before
    : >"$probe"
    micros_into after
    host=$(stat -c %.6Y "$probe")
    host=$((${host%.*} * 1000000 + 10#${host#*.}))
    rm -f "$probe"
    echo "$(((before + after) / 2 - host)) µs"
}

wait_for() { # wait_for SECONDS FILE: poll for a file the other side writes
    local limit=$((EPOCHSECONDS + $1))
    until [ -e "$2" ]; do
        [ $EPOCHSECONDS -lt $limit ] || return 1
        snooze $share_poll
    done
}

# ---- the air and the controllers ----------------------------------------------------------
start_air() { # VM A
    modprobe hci_vhci
    rm -f /tmp/bt-server-*
    # -l1: one local controller (hci0 here); -L: LE only; -s: serve more on unix sockets.
    btvirt -l1 -L -s >"$share/btvirt.log" 2>&1 &
    wait_for 10 /tmp/bt-server-le || say "btvirt did not serve its LE socket"
    BLE_LAB_AIR_REPORTS=$AIR_REPORTS python3 "$guest_dir/air.py" relay /tmp/bt-server-le /dev/ttyS1 \
        "$run/air.ctl" >>"$share/air.log" 2>&1 &
    echo $! >"$run/air.pid"
    wait_for 10 "$run/air.ctl" || say "the air relay did not start"
    : >"$share/ctl/air.ready"
}

attach_air() { # VM B
    modprobe hci_uart
    wait_for 120 "$share/ctl/air.ready" || say "VM A never said the air was ready"
    # H4 over the serial port; no flow control lines on this wire.
    btattach -B /dev/ttyS1 -P h4 -N >"$share/btattach.log" 2>&1 &
}

# ---- bluetoothd ---------------------------------------------------------------------------
bluetoothd_log=$run/bluetoothd.log

adapter_property() { # adapter_property NAME: prints e.g. "boolean true", fails without adapter
    dbus-send --system --print-reply=literal --reply-timeout=2000 --dest=org.bluez /org/bluez/hci0 \
        org.freedesktop.DBus.Properties.Get string:org.bluez.Adapter1 "string:$1" 2>/dev/null
}

power_adapter() {
    dbus-send --system --print-reply --reply-timeout=5000 --dest=org.bluez /org/bluez/hci0 \
        org.freedesktop.DBus.Properties.Set string:org.bluez.Adapter1 string:Powered \
        variant:boolean:true >/dev/null 2>&1
}

wait_for_adapter() { # until hci0 is on D-Bus and powered
    local limit=$((EPOCHSECONDS + 30)) powered
    while :; do
        powered=$(adapter_property Powered)
        case $powered in
            *true*) return 0 ;;
            # bluetoothd's AutoEnable powers it on soon after it appears; make sure of it.
            *false*) power_adapter ;;
        esac
        [ $EPOCHSECONDS -lt $limit ] || { say "hci0 not powered on D-Bus after 30 s"; return 1; }
        snooze 0.1
    done
}

# bluetoothd runs under a supervisor that starts it again when it dies unasked: BlueZ 5.66
# aborts under a client now and then (free(): invalid pointer in shared/gatt-client.c's
# disable_ccc_callback: a StopNotify's CCC write answered after the peer's service vanished),
# and with no systemd here nothing would start it again, as D-Bus activation does elsewhere.
supervise_bluetoothd() { # in the background, its output into the log, until stop_bluetoothd
    local pid status why deaths=0
    while :; do
        bluetoothd -n -d -f "$guest_dir/main.conf" &
        pid=$!
        echo "$pid" >"$run/bluetoothd.pid"
        wait "$pid"
        status=$?
        [ -e "$run/bluetoothd.stopping" ] && break
        why="status $status"
        [ "$status" -gt 128 ] && why="SIG$(kill -l $((status - 128)))"
        deaths=$((deaths + 1))
        echo "---- ble-lab: bluetoothd died unasked ($why) at $(stamp)"
        if [ $deaths -ge 5 ]; then
            fault_log "bluetoothd died unasked ($why), $deaths times since its start: not started again"
            break
        fi
        fault_log "bluetoothd died unasked ($why): started again"
    done
    rm -f "$run/bluetoothd.pid" "$run/bluetoothd.stopping"
}

start_bluetoothd() {
    local waited=0
    echo "---- ble-lab: bluetoothd started at $(stamp)" >>"$bluetoothd_log"
    rm -f "$run/bluetoothd.pid" "$run/bluetoothd.stopping"
    # Not on perform's stdout either: its $(...) would wait for the supervisor to end.
    supervise_bluetoothd >>"$bluetoothd_log" 2>&1 &
    until [ -s "$run/bluetoothd.pid" ] || [ $waited -ge 100 ]; do snooze 0.02; waited=$((waited + 1)); done
    wait_for_adapter
}

stop_bluetoothd() { # stop_bluetoothd [TERM|KILL]
    local pid="" current signal=${1:-TERM} waited=0
    [ -e "$run/bluetoothd.pid" ] || return 0
    : >"$run/bluetoothd.stopping"
    # Until its supervisor ended (it takes both files away), the pid read again each look: it
    # may have just started another. On SIGTERM bluetoothd powers the adapter off (dropping
    # its links) before it exits; after 5 s, SIGKILL.
    while [ -e "$run/bluetoothd.stopping" ] && [ $waited -lt 120 ]; do
        current=""
        read -r current 2>/dev/null <"$run/bluetoothd.pid"
        if [ -n "$current" ] && [ "$current" != "$pid" ]; then
            pid=$current
            kill -"$signal" "$pid" 2>/dev/null
        fi
        [ $waited = 100 ] && kill -KILL "$pid" 2>/dev/null
        snooze 0.05
        waited=$((waited + 1))
    done
    rm -f "$run/bluetoothd.pid" "$run/bluetoothd.stopping"
    echo "---- ble-lab: bluetoothd stopped ($signal) at $(stamp)" >>"$bluetoothd_log"
}

remove_devices() {
    local device
    for device in $(dbus-send --system --print-reply --dest=org.bluez / \
        org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null \
        | grep -o '/org/bluez/hci0/dev_[0-9A-F_]\{17\}' | sort -u); do
        dbus-send --system --print-reply --dest=org.bluez /org/bluez/hci0 \
            org.bluez.Adapter1.RemoveDevice "objpath:$device" >/dev/null 2>&1
    done
}

# The controller brought up once, before any scenario. Under load the kernel's HCI init can
# time out at boot ("hci0: Opcode 0x0c03 failed: -110"); the adapter then never reaches
# bluetoothd, and every scenario of the boot would fail on it. Bringing hci0 down and up runs
# the init again; when that does not help either, the VM says so and the host boots again.
controller_up() {
    local attempt
    for attempt in 1 2 3; do
        rm -rf /var/lib/bluetooth/*
        start_bluetoothd && return 0
        stop_bluetoothd TERM
        say "hci0 not up (attempt $attempt): $(hciconfig hci0 2>&1 | tr -s ' \n\t' ' ' | cut -c1-160)"
        hciconfig hci0 down >/dev/null 2>&1
        hciconfig hci0 up >/dev/null 2>&1
    done
    return 1
}

clean_bluetooth() {
    if [ ! -e "$run/bluetoothd.pid" ]; then
        rm -rf /var/lib/bluetooth/*
        start_bluetoothd
    elif [ "$CLEAN_METHOD" = remove ]; then
        remove_devices
        wait_for_adapter
    else
        stop_bluetoothd TERM
        rm -rf /var/lib/bluetooth/*
        start_bluetoothd
    fi
}

# ---- the scenario's node (peripheral or central) ---------------------------------------------
# The node runs in its own session (setsid) so it can be stopped with everything it started.
# A supervisor starts it again when a kill-node fault killed it; the last run's status counts.
supervise_node() { # supervise_node FUNCTION LOG (in the background)
    local pid rc
    while :; do
        rm -f "$run/node.killed"
        setsid bash "$guest_dir/node.sh" "$1" >>"$2" 2>&1 </dev/null &
        pid=$!
        echo "$pid" >"$run/node.pid"
        wait "$pid"
        rc=$?
        if [ -e "$run/node.killed" ] && [ ! -e "$run/node.stopping" ]; then
            echo "---- ble-lab: node killed (SIGKILL) on request, started again at $(stamp)" >>"$2"
            continue
        fi
        echo "$rc" >"$run/node.rc"
        return
    done
}

stop_node() { # SIGTERM the node's process group, SIGKILL after 3 s
    local pid waited=0
    : >"$run/node.stopping"
    pid=$(cat "$run/node.pid" 2>/dev/null) || return 0
    kill -TERM -- "-$pid" 2>/dev/null
    while [ ! -e "$run/node.rc" ] && [ $waited -lt 60 ]; do snooze 0.05; waited=$((waited + 1)); done
    kill -KILL -- "-$pid" 2>/dev/null
    wait_for 5 "$run/node.rc"
}

node_running() { [ ! -e "$run/node.rc" ]; }

export_scenario_environment() { # for node.sh and the helpers
    export BLE_ROLE=$role BLE_ADAPTER=hci0 BLE_SCENARIO=$NAME BLE_SCENARIO_FILE=$FILE BLE_BOOT=$BOOT
    export BLE_SCENARIO_DIR BLE_OUT=$share/$NAME BLE_SHARED=$share/$NAME/shared
    BLE_SCENARIO_DIR=$(dirname "$FILE")
    export BLE_WORK=$run/work/$NAME BLE_BUS=$share/$NAME/bus BLE_REQUESTS=$share/requests
    export BLE_READY=$READY BLE_LAB_HOME=$LAB_HOME TENDER PYTHONPATH=$LAB_HOME/lib
    mkdir -p "$BLE_WORK" "$BLE_SHARED" "$BLE_BUS"
}

run_scenario() { # run_scenario I
    local i=$1 ctl=$share/ctl started rc
    NAME="" FILE="" READY="" TIMEOUT=120
    . "$ctl/scenario.$i"
    export_scenario_environment
    echo "$BLE_OUT" >"$run/current-out"
    printf '%s\n' "$READY" >"$run/current-ready"
    say "scenario $i: $NAME"
    started=$(now)
    clean_bluetooth
    elapsed "$started" >"$ctl/$i.$role.clean"
    local peer=A
    [ "$role" = A ] && peer=B
    wait_for 90 "$ctl/$i.$peer.clean" || say "$NAME: VM $peer never became clean"
    local log_start snoop=$run/hci.btsnoop btmon_pid=""
    log_start=$(stat -c %s "$bluetoothd_log")
    if [ "$BTMON" = 1 ]; then
        rm -f "$snoop"
        btmon -w "$snoop" >/dev/null 2>&1 &
        btmon_pid=$!
    fi
    rm -f "$run/node.rc" "$run/node.pid" "$run/node.killed" "$run/node.stopping"
    local log=$BLE_OUT/$role.log deadline=$((EPOCHSECONDS + TIMEOUT)) supervisor=""
    : >"$log"
    if [ "$role" = A ]; then
        supervise_node peripheral "$log" &
        supervisor=$!
        if wait_for_ready "$log" "$deadline"; then
            : >"$ctl/$i.ready"
        else
            say "$NAME: peripheral not ready"
            : >"$ctl/$i.ready-failed"
        fi
        # Until B's verdict (B bounds its own time), then A must still be up or have exited 0.
        wait_for $((TIMEOUT + 30)) "$ctl/$i.B.rc"
        if [ -e "$ctl/$i.ready-failed" ]; then
            rc=98
            stop_node
        elif node_running; then
            rc=0
            stop_node
        else
            rc=$(cat "$run/node.rc")
            [ "$rc" = 0 ] || echo "---- ble-lab: the peripheral ended with status $rc before the central finished" >>"$log"
        fi
    else
        until [ -e "$ctl/$i.ready" ] || [ -e "$ctl/$i.ready-failed" ] || [ $EPOCHSECONDS -ge $deadline ]; do
            snooze $share_poll
        done
        if [ -e "$ctl/$i.ready" ]; then
            supervise_node central "$log" &
            supervisor=$!
            while node_running && [ $EPOCHSECONDS -lt $deadline ]; do snooze 0.1; done
            if node_running; then
                echo "---- ble-lab: central() timed out after $TIMEOUT s" >>"$log"
                stop_node
                rc=124
            else
                rc=$(cat "$run/node.rc")
            fi
        else
            echo "---- ble-lab: central() not started: the peripheral was not ready" >>"$log"
            rc=97
        fi
    fi
    [ -n "$supervisor" ] && wait "$supervisor"
    echo "$rc" >"$ctl/$i.$role.rc"
    [ -n "$btmon_pid" ] && { kill "$btmon_pid" 2>/dev/null; wait "$btmon_pid" 2>/dev/null; cp "$snoop" "$BLE_OUT/$role.btsnoop"; }
    tail -c +"$((log_start + 1))" "$bluetoothd_log" >"$BLE_OUT/$role.bluetoothd.log"
    say "scenario $i: $NAME done, status $rc, $(elapsed "$started") s"
    : >"$ctl/$i.$role.done"
}

wait_for_ready() { # wait_for_ready LOG DEADLINE: A's output has READY (or no READY is asked)
    [ -z "$READY" ] && return 0
    while [ $EPOCHSECONDS -lt $2 ]; do
        grep -qF -e "$READY" "$1" 2>/dev/null && return 0
        node_running || return 1
        snooze $share_poll
    done
    return 1
}

# ---- faults asked for by either VM's scenario code ---------------------------------------------
fault_log() { # fault_log TEXT: into the boot's and the current scenario's faults.log
    local line
    line="$(stamp) VM $role: $*"
    echo "$line" >>"$share/faults.log"
    [ -e "$run/current-out" ] && echo "$line" >>"$(cat "$run/current-out")/faults.log"
}

perform() { # perform ACTION ARGS...: prints the result text, status 0 when done
    case $1 in
        restart-bluetoothd)
            local signal=TERM
            [ "${2:-term}" = kill ] && signal=KILL
            stop_bluetoothd "$signal"
            start_bluetoothd && echo "bluetoothd restarted ($signal), hci0 powered"
            ;;
        kill-node)
            local pid seen=0 ready log
            ready=$(cat "$run/current-ready")
            log=$(cat "$run/current-out")/$role.log
            pid=$(cat "$run/node.pid" 2>/dev/null) || { echo "no node running"; return 1; }
            node_running || { echo "the node had already ended"; return 1; }
            [ -n "$ready" ] && seen=$(grep -cF -e "$ready" "$log")
            : >"$run/node.killed"
            kill -KILL -- "-$pid"
            local waited=0
            while [ "$(cat "$run/node.pid")" = "$pid" ] && [ $waited -lt 100 ]; do snooze 0.05; waited=$((waited + 1)); done
            if [ -n "$ready" ] && [ "$role" = A ]; then
                waited=0
                while [ "$(grep -cF -e "$ready" "$log")" -le "$seen" ]; do
                    [ $waited -lt 1200 ] || { echo "the node restarted but never printed $ready"; return 1; }
                    snooze 0.05
                    waited=$((waited + 1))
                done
            fi
            echo "node $pid killed (SIGKILL), started again as $(cat "$run/node.pid")"
            ;;
        air-cut | air-stall)
            [ "$role" = A ] || { echo "the air is in VM A"; return 1; }
            python3 "$guest_dir/air.py" control "$run/air.ctl" "${1#air-}" "${2:-5}"
            ;;
        *)
            echo "unknown fault $1"
            return 1
            ;;
    esac
}

serve_requests() { # in the background: requests/<role>/*.req -> perform -> *.done
    local dir=$share/requests/$role request started result status
    while :; do
        for request in "$dir"/*.req; do
            [ -e "$request" ] || continue
            started=$(now)
            fault_log "begin $(cat "$request")"
            # shellcheck disable=SC2046
            result=$(perform $(cat "$request") 2>&1)
            status=$?
            fault_log "end   $(cat "$request"): $result (status $status, $(elapsed "$started") s)"
            printf '%s %s\n' "$status" "$result" >"$request.tmp"
            mv "$request.tmp" "${request%.req}.done"
            rm -f "$request"
        done
        snooze 0.5  # faults are asked for a few times a run: a slower look costs little
    done
}

# ---- main ---------------------------------------------------------------------------------------
mount_everything
sync_clock
say "userspace up at $(cut -d' ' -f1 /proc/uptime) s of uptime; clock minus the host's: $(check_clock)"
modprobe bluetooth
# Debian's org.bluez.service leaves bluetoothd's activation to systemd, absent here: its
# Exec=/bin/false made a call while bluetoothd was down fail with Spawn.ChildExited; without
# it (gone from this guest's overlay only) the answer is ServiceUnknown, on which Tender waits.
rm -f /usr/share/dbus-1/system-services/org.bluez.service
dbus-daemon --system --fork
if [ "$role" = A ]; then start_air; else attach_air; fi
wait_for 30 /sys/class/bluetooth/hci0 || say "no hci0 after 30 s"
serve_requests &
say "hci0 present at $(cut -d' ' -f1 /proc/uptime) s of uptime"
if controller_up; then
    : >"$share/ctl/$role.up"
else
    say "hci0 never came up: asking the host for another boot"
    : >"$share/ctl/$role.broken"
fi
i=1
while :; do
    if [ -e "$share/ctl/scenario.$i" ]; then
        run_scenario $i
        i=$((i + 1))
    elif [ -e "$share/ctl/shutdown" ]; then
        break
    else
        snooze $share_poll
    fi
done
stop_bluetoothd TERM
say "shutting down"
: >"$share/ctl/$role.down"
sync
busybox poweroff -f
