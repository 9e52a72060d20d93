#!/usr/bin/env bash
# BLE lab: runs Bluetooth LE scenarios between two REAL BlueZ stacks on a machine that has no
# Bluetooth hardware and no Bluetooth in its kernel. Run as root.
#
#   bash Hardware/ble-lab/run.sh Tests/BLELab/scenarios            # every *.sh in the folder
#   bash Hardware/ble-lab/run.sh Tests/BLELab/scenarios/smoke.sh   # or a list of files
#
# The wiring. Two QEMU guests (software emulation unless a real vmx/svm KVM exists) boot
# Debian's own kernel (its .deb unpacked once, never installed) with a busybox initramfs that
# mounts the host's root read-only over 9p under a tmpfs overlay, so host binaries (a freshly
# built `tender`, python3-dbus, bluetoothd 5.66) run in them unchanged. Each guest runs its own
# dbus-daemon and `bluetoothd -n -d`; Hardware/ble-lab/guest/agent.sh is PID 1 in both. A
# bluetoothd that dies unasked (5.66 aborts now and then) is started again at once and noted in
# faults.log, as D-Bus activation would start it elsewhere; the guests' buses activate nothing.
#   VM A (peripheral) runs btvirt, BlueZ's controller emulator, which is the air: its first LE
#     controller is A's hci0 (/dev/vhci); its second is served on a unix socket, which
#     guest/air.py relays to A's second serial port (and can cut or stall on request).
#   VM B (central): QEMU joins its second serial port to A's; btattach (H4) makes it hci0.
# Both guests also mount this run's boot folder read-write over 9p without caching
# ($BLE_LAB_DIR/results/bootN on the host, /mnt/lab in the guests), so a file one side writes
# is seen by the other side's next poll. The host drives the scenarios through it: for each
# scenario it writes ctl/scenario.I, both agents bring Bluetooth to a clean state, meet, run
# their halves, and write ctl/I.A.done and ctl/I.B.done.
#
# The VMs boot once for all scenarios (13–34 s here, to "hci0 present" in both). A scenario
# that fails (or never ran because its boot broke down) is run again, once, in a second fresh
# boot after the first boot's scenarios; only a scenario that fails twice fails the run. The
# virtual air stalls now and then, hence the retry; both outcomes are printed with the tail of
# the bluetoothd logs. Each VM brings its controller up before any scenario; one whose HCI
# init timed out under load (every scenario of that boot would fail on it) says so
# (ctl/ROLE.broken) and both VMs are started again, up to three times, its logs kept in
# results/bootN-brokenK.
#
# A scenario is a bash file (sourced in each VM, and on the host for its settings) defining:
#   peripheral()   run on VM A (required); it may keep running: it is stopped (SIGTERM) after
#                  central() ends, and must not have exited non-zero before that.
#   central()      run on VM B (required); its exit status is the verdict.
#   BLE_READY=TEXT optional: A's output must contain TEXT before central() starts.
#   BLE_TIMEOUT=S  optional: seconds for the scenario (default $BLE_LAB_SCENARIO_TIMEOUT).
#   prepare()      optional: run on the host just before the scenario starts, with BLE_SHARED
#                  and TENDER set (to make wallets, notes, ...); both VMs see what it leaves
#                  there. Its output goes to BLE_SHARED/prepare.log.
# Scenario code runs with these variables, and the helpers of Hardware/ble-lab/lib/lab.sh
# (lab_signal, lab_wait, lab_fault, lab_log; Python: Hardware/ble-lab/lib/blelab.py):
#   BLE_ROLE A or B          BLE_ADAPTER hci0            BLE_SCENARIO name (file name less .sh)
#   BLE_WORK  a fresh folder of this VM's own (tmpfs: fine for SQLite, lost at the end)
#   BLE_SHARED a per-scenario folder both VMs and the host share (kept with the results)
#   BLE_OUT   the scenario's results folder     BLE_SCENARIO_DIR the scenario file's folder
#   BLE_BOOT  1, or 2 in the retry boot
#   TENDER    the tender binary given to the lab (may be empty)
#   BLE_LAB_HOME this folder (Hardware/ble-lab); PYTHONPATH includes its lib/
# Faults a scenario can ask for from either VM (lab_fault; performed by the target VM's agent,
# each logged with its start and end times in the scenario's faults.log):
#   restart-bluetoothd A|B [term|kill]  stop bluetoothd (SIGTERM: it powers the adapter off,
#                         dropping the links; kill: SIGKILL, links drop when the kernel sees
#                         no user) and start it again; returns once its adapter is back.
#   kill-node A|B         SIGKILL the scenario's node (its whole process group) and start the
#                         same function again; returns once A's new node printed BLE_READY.
#   air-cut S             the air is cut for S seconds: every link between the VMs ends with
#                         reason 0x08 (connection timeout) on both sides, then nothing is heard
#                         (no advertising reports, connection attempts fail) until it is back.
#   air-stall S           links stay up but carry nothing for S seconds, then resume (data held).
# btvirt sends an advertising report only when scanning (or advertising) is switched on, and
# the kernel may drop the first one while discovery is still starting; a real radio hears an
# advertiser at every interval. So while B scans, the relay switches its scanning off and on
# every BLE_LAB_AIR_REPORTS seconds (default 1): discovery takes 0.1-0.5 s here.
# A clean Bluetooth state at the start of every scenario (BLE_LAB_CLEAN):
#   restart (default)  bluetoothd stopped (SIGTERM powers the adapter off: links dropped),
#                      /var/lib/bluetooth emptied, bluetoothd started, adapter powered.
#                      Measured 1.0-4.4 s (both VMs at once), whatever the last scenario left.
#   remove             every Device1 removed over D-Bus (Adapter1.RemoveDevice), adapter
#                      powered; registrations end with the previous scenario's processes.
#                      0.6-1.2 s, but 3-4 s after a scenario that ended connected (bluetoothd
#                      waits 2 s before dropping a link), and bluetoothd's state carries over.
#
# Environment:
#   BLE_LAB_DIR               lab folder (default ./.ble-lab): kernel, initramfs, results
#   BLE_LAB_SCENARIO_TIMEOUT  default seconds per scenario (default 120)
#   BLE_LAB_RETRY             1 (default): failures get a second boot; 0: no retry
#   BLE_LAB_CLEAN             restart (default) or remove, see above
#   BLE_LAB_BOOT_TIMEOUT      seconds for both VMs to be ready (default 180)
#   BLE_LAB_BTMON             1 (default): capture each scenario's HCI traffic (btsnoop); no
#                             measurable cost here (runs with and without: within the noise)
#   BLE_LAB_AIR_REPORTS       seconds between advertising reports while B scans (default 1;
#                             0: btvirt's own behaviour, a report only when scanning starts)
#   BLE_LAB_ACCEL             auto (default), tcg or kvm
#   BLE_LAB_MEMORY            MiB per VM (default 768)
#   TENDER                    path of the tender binary handed to the scenarios
#   BLE_LAB_SETUP_ONLY        1: install, unpack and build what the lab needs, then exit 0
# Output: $BLE_LAB_DIR/results/bootN/<scenario>/ with A.log B.log (the nodes' output),
#   A.bluetoothd.log B.bluetoothd.log (-d, this scenario's window), A.btsnoop B.btsnoop,
#   faults.log, shared/, verdict; bootN/agent-A.log agent-B.log air.log console-*.log;
#   results/summary.tsv (scenario, first outcome, retry outcome, seconds of each), also appended
#   to $BLE_LAB_DIR/history.tsv with the run's date. Lines "ble-ceiling: ..." printed by any
#   scenario are repeated at the end, and each bluetoothd that died unasked ("ble-lab: bootN/NAME
#   ... died unasked ..."). Last line: "ble-lab: N passed, N failed, N retried";
#   exit status 0 when nothing failed twice, 1 otherwise, 2 for a usage error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lab=$(realpath -m "${BLE_LAB_DIR:-$PWD/.ble-lab}")
default_timeout=${BLE_LAB_SCENARIO_TIMEOUT:-120}
retry=${BLE_LAB_RETRY:-1}
clean_method=${BLE_LAB_CLEAN:-restart}
boot_timeout=${BLE_LAB_BOOT_TIMEOUT:-180}
btmon=${BLE_LAB_BTMON:-1}
air_reports=${BLE_LAB_AIR_REPORTS:-1}
memory=${BLE_LAB_MEMORY:-768}
tender=${TENDER:-}
[ -n "$tender" ] && tender=$(realpath "$tender")
start_time=$(date +%s.%N)

say() { echo "ble-lab: $*"; }
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

usage() {
    echo "usage: $0 SCENARIO_FOLDER | SCENARIO.sh ..." >&2
    exit 2
}

# ---- scenarios -----------------------------------------------------------------------------
scenario_files=()
collect_scenarios() {
    local arg file
    [ $# -gt 0 ] || usage
    for arg in "$@"; do
        if [ -d "$arg" ]; then
            for file in "$arg"/*.sh; do
                [ -e "$file" ] && scenario_files+=("$(realpath "$file")")
            done
        elif [ -f "$arg" ]; then
            scenario_files+=("$(realpath "$arg")")
        else
            echo "ble-lab: no scenario file or folder $arg" >&2
            exit 2
        fi
    done
    [ ${#scenario_files[@]} -gt 0 ] || { echo "ble-lab: no scenarios in $*" >&2; exit 2; }
    local names
    names=$(for file in "${scenario_files[@]}"; do basename "$file" .sh; done | sort | uniq -d)
    [ -z "$names" ] || { echo "ble-lab: scenario names used twice: $names" >&2; exit 2; }
}

# A scenario's settings, read by sourcing it in a subshell: "READY<TAB>TIMEOUT".
scenario_settings() {
    (
        BLE_READY="" BLE_TIMEOUT=""
        # shellcheck disable=SC1090
        . "$1" >/dev/null
        declare -F peripheral >/dev/null || { echo "ble-lab: $1 defines no peripheral()" >&2; exit 2; }
        declare -F central >/dev/null || { echo "ble-lab: $1 defines no central()" >&2; exit 2; }
        printf '%s\t%s\n' "$BLE_READY" "${BLE_TIMEOUT:-$default_timeout}"
    )
}

# ---- host set-up: packages, kernel, initramfs -------------------------------------------------
install_missing_packages() {
    # bluez: bluetoothd, btmon, btattach; bluez-test-tools: btvirt. Both run only in the guests.
    local packages="qemu-system-x86 bluez bluez-test-tools busybox-static cpio kmod dbus
        python3 python3-dbus python3-gi xz-utils zstd"
    # The host has no Bluetooth: bluez's service may fail to start here; that is expected.
    # shellcheck disable=SC2086
    bash "$here/../../Scripts/install-packages.sh" $packages | sed 's/^/ble-lab: /'
}

kernel_dir=$lab/kernel
unpack_kernel() {
    # Debian's kernel, unpacked (not installed) once: it has bluetooth, hci_vhci, hci_uart.
    [ -e "$kernel_dir/.complete" ] && return
    say "unpacking Debian's kernel into $kernel_dir"
    apt-cache show linux-image-amd64 >/dev/null 2>&1 || apt-get -o DPkg::Lock::Timeout=600 update -qq
    local image
    image=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    rm -rf "$kernel_dir"
    mkdir -p "$kernel_dir"
    (cd "$lab" && apt-get -q -o APT::Sandbox::User=root download "$image" >/dev/null)
    dpkg-deb -x "$lab/${image}"_*.deb "$kernel_dir"
    rm -f "$lab/${image}"_*.deb
    depmod -b "$kernel_dir" "${image#linux-image-}"
    touch "$kernel_dir/.complete"
}

build_initramfs() {
    # busybox, the virtio/9p/overlay modules, and an init that mounts the host root read-only
    # under a tmpfs overlay, then hands over to the command line's ble_init (our agent).
    initramfs=$lab/initramfs-$kernel_version.cpio.gz
    [ -e "$initramfs" ] && return
    local root=$lab/initramfs module file
    local modules="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci netfs
        fscache 9pnet 9pnet_virtio 9p overlay"
    modules=$(echo $modules)
    rm -rf "$root"
    mkdir -p "$root"/{bin,modules,proc,sys,dev,host,rw,new}
    cp /bin/busybox "$root/bin/busybox"
    for module in $modules; do
        file=$(modinfo -b "$kernel_dir" -k "$kernel_version" -n "$module")
        case $file in
            *.xz) xz -dc "$file" ;;
            *.zst) zstd -qdc "$file" ;;
            *) cat "$file" ;;
        esac >"$root/modules/$module.ko"
    done
    cat >"$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for module in $modules; do insmod /modules/\$module.ko 2>/dev/null; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose host /host
mount -t tmpfs -o size=512m tmpfs /rw; mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work /new
next=\$(sed -n 's/.*ble_init=\([^ ]*\).*/\1/p' /proc/cmdline)
mount --move /proc /new/proc; mount --move /sys /new/sys; mount --move /dev /new/dev
exec switch_root /new \${next:-/bin/sh}
INIT
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initramfs.tmp"
    mv "$initramfs.tmp" "$initramfs"
}

choose_acceleration() {
    # KVM only where a real vmx/svm KVM exists (a nested kvm_pvm hangs a stock kernel).
    local accel=${BLE_LAB_ACCEL:-auto}
    if [ "$accel" = auto ]; then
        accel=tcg
        if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] \
            && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
            accel=kvm
        fi
    fi
    if [ "$accel" = kvm ]; then
        acceleration=(-accel kvm -cpu host)
    else
        acceleration=(-accel tcg,thread=multi -cpu max)
    fi
}

# ---- one boot -----------------------------------------------------------------------------------
qemu_pids=()
stop_vms() {
    local pid
    for pid in "${qemu_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${qemu_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    qemu_pids=()
}
trap stop_vms EXIT

boot_vm() { # boot_vm ROLE BOOT_DIR extra-qemu-arguments...
    local role=$1 boot=$2
    shift 2
    qemu-system-x86_64 "${acceleration[@]}" -smp 1 -m "$memory" -display none -monitor none \
        -no-reboot -kernel "$kernel_dir/boot/vmlinuz-$kernel_version" -initrd "$initramfs" \
        -serial file:"$boot/console-$role.log" \
        -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap,id=host \
        -virtfs local,path="$boot",mount_tag=lab,security_model=none,id=lab \
        -append "console=ttyS0 quiet panic=-1 ble_role=$role ble_init=$here/guest/agent.sh" \
        "$@" >"$boot/qemu-$role.log" 2>&1 &
    qemu_pids+=($!)
}

vms_alive() {
    local pid
    for pid in "${qemu_pids[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
}

wait_for_vms() { # wait_for_vms BOOT DEADLINE: 0 when both are up, 2 when a controller never came up, 1 else
    local boot=$1 deadline=$2 role
    while :; do
        for role in A B; do
            [ -e "$boot/ctl/$role.broken" ] && return 2
        done
        [ -e "$boot/ctl/A.up" ] && [ -e "$boot/ctl/B.up" ] && return 0
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        vms_alive || return 1
        sleep 0.2
    done
}

wait_for_files() { # wait_for_files DEADLINE FILE...: 0 when all exist, 1 past the deadline or a VM died
    local deadline=$1 file
    shift
    while :; do
        for file in "$@"; do [ -e "$file" ] || break; done
        [ -e "$file" ] && return 0
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        vms_alive || return 1
        sleep 0.2
    done
}

# Results of all boots: outcome[name#boot] (pass, fail, hung, not-run) and seconds[name#boot].
declare -A outcome=() seconds=()

run_boot() { # run_boot N SCENARIO_FILE...: up to three starts when a controller never comes up
    local n=$1 start started
    shift
    for start in 1 2 3; do
        started=0
        start_boot "$n" "$@" || started=$?
        [ $started = 2 ] || return 0
        # The VMs' controllers failed their init under load: a fresh start, not every
        # scenario failed on it (the broken start's logs kept beside).
        mv "$results/boot$n" "$results/boot$n-broken$start"
        say "boot $n: a controller never came up (see $results/boot$n-broken$start/agent-*.log); starting the VMs again"
    done
    local file
    for file in "$@"; do outcome[$(basename "$file" .sh)#$n]=not-run; done
}

start_boot() { # start_boot N SCENARIO_FILE...: 2 when a VM's controller never came up
    local n=$1
    shift
    local boot=$results/boot$n
    mkdir -p "$boot/ctl" "$boot/requests/A" "$boot/requests/B"
    quote() { printf '%q' "$1"; }
    {
        echo "LAB_HOME=$(quote "$here")"
        echo "KERNEL_DIR=$(quote "$kernel_dir")"
        echo "TENDER=$(quote "$tender")"
        echo "CLEAN_METHOD=$(quote "$clean_method")"
        echo "BTMON=$(quote "$btmon")"
        echo "AIR_REPORTS=$(quote "$air_reports")"
        echo "BOOT=$n"
    } >"$boot/boot.env"
    local boot_start
    boot_start=$(date +%s.%N)
    say "boot $n: starting VM A and VM B for ${#@} scenario(s)"
    boot_vm A "$boot" -chardev socket,id=air,path="$boot/air.sock",server=on,wait=off \
        -device isa-serial,chardev=air
    local waited=0
    until [ -S "$boot/air.sock" ] || [ $waited -ge 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    boot_vm B "$boot" -chardev socket,id=air,path="$boot/air.sock",reconnect=1 \
        -device isa-serial,chardev=air
    local came_up=0
    wait_for_vms "$boot" $(($(date +%s) + boot_timeout)) || came_up=$?
    if [ $came_up = 2 ]; then
        stop_vms
        return 2
    fi
    if [ $came_up != 0 ]; then
        say "boot $n: the VMs did not come up within ${boot_timeout} s (see $boot/console-*.log)"
        tail -n 5 "$boot"/console-*.log "$boot"/agent-*.log 2>/dev/null || true
        stop_vms
        local file
        for file in "$@"; do outcome[$(basename "$file" .sh)#$n]=not-run; done
        return
    fi
    say "boot $n: both VMs ready after $(seconds_since "$boot_start") s"

    local i=0 file name settings ready timeout started broken=""
    for file in "$@"; do
        i=$((i + 1))
        name=$(basename "$file" .sh)
        if [ -n "$broken" ]; then
            outcome[$name#$n]=not-run
            continue
        fi
        settings=$(scenario_settings "$file")
        ready=${settings%%$'\t'*}
        timeout=${settings#*$'\t'}
        mkdir -p "$boot/$name/shared" "$boot/$name/bus"
        prepare_scenario "$file" "$boot/$name/shared"
        started=$(date +%s.%N)
        {
            echo "NAME=$(quote "$name")"
            echo "FILE=$(quote "$file")"
            echo "READY=$(quote "$ready")"
            echo "TIMEOUT=$(quote "$timeout")"
        } >"$boot/ctl/.scenario.$i"
        mv "$boot/ctl/.scenario.$i" "$boot/ctl/scenario.$i"
        # The agents bound their own steps by the timeout; this is for a VM that hangs.
        if wait_for_files $(($(date +%s) + timeout + 120)) "$boot/ctl/$i.A.done" "$boot/ctl/$i.B.done"; then
            local rc_a rc_b
            rc_a=$(cat "$boot/ctl/$i.A.rc" 2>/dev/null || echo missing)
            rc_b=$(cat "$boot/ctl/$i.B.rc" 2>/dev/null || echo missing)
            if [ "$rc_a" = 0 ] && [ "$rc_b" = 0 ]; then
                outcome[$name#$n]=pass
            else
                outcome[$name#$n]=fail
            fi
            echo "A=$rc_a B=$rc_b" >"$boot/$name/verdict"
        else
            outcome[$name#$n]=hung
            if vms_alive; then
                echo "hung: no verdict within $((timeout + 120)) s" >"$boot/$name/verdict"
            else
                echo "hung: a VM stopped (see $boot/console-A.log, console-B.log)" >"$boot/$name/verdict"
            fi
            broken=$name
        fi
        seconds[$name#$n]=$(seconds_since "$started")
        say "boot $n: $name ${outcome[$name#$n]} in ${seconds[$name#$n]} s ($(cat "$boot/$name/verdict"); clean $(cat "$boot/ctl/$i.A.clean" 2>/dev/null || echo ?)/$(cat "$boot/ctl/$i.B.clean" 2>/dev/null || echo ?) s)"
    done
    if [ -n "$broken" ]; then
        say "boot $n: $broken broke the boot; the scenarios after it did not run"
        tail -n 5 "$boot/console-A.log" "$boot/console-B.log" 2>/dev/null || true
    fi
    touch "$boot/ctl/shutdown"
    wait_for_files $(($(date +%s) + 20)) "$boot/ctl/A.down" "$boot/ctl/B.down" || true
    stop_vms
    say "boot $n: done after $(seconds_since "$boot_start") s"
}

prepare_scenario() { # prepare_scenario FILE SHARED: the scenario's optional host-side prepare()
    (
        # shellcheck disable=SC1090
        . "$1" >/dev/null
        if declare -F prepare >/dev/null; then
            export BLE_SHARED=$2 BLE_SCENARIO BLE_SCENARIO_DIR TENDER=$tender
            BLE_SCENARIO=$(basename "$1" .sh)
            BLE_SCENARIO_DIR=$(dirname "$1")
            prepare >"$2/prepare.log" 2>&1 || echo "prepare() failed: $?" >>"$2/prepare.log"
        fi
    )
}

show_failure() { # show_failure BOOT NAME: the verdict and the tails of the logs
    local dir=$results/boot$1/$2 log
    echo "---- $2 (boot $1): $(cat "$dir/verdict" 2>/dev/null || echo 'not run')"
    for log in A.log B.log faults.log A.bluetoothd.log B.bluetoothd.log; do
        [ -s "$dir/$log" ] || continue
        echo "-- $log (tail)"
        tail -n 12 "$dir/$log"
    done
}

# ---- main ---------------------------------------------------------------------------------------
collect_scenarios "$@"
mkdir -p "$lab"
install_missing_packages
unpack_kernel
kernel_version=$(ls "$kernel_dir/lib/modules" | head -n 1)
build_initramfs
choose_acceleration
say "set up in $(seconds_since "$start_time") s (kernel $kernel_version, ${acceleration[1]})"
# Set-up alone (packages, kernel, initramfs): a caller that runs the lab beside other work
# installs first, so no two apt runs meet.
[ "${BLE_LAB_SETUP_ONLY:-0}" = 1 ] && exit 0

results=$lab/results
rm -rf "$results"
mkdir -p "$results"
run_boot 1 "${scenario_files[@]}"

again=()
for file in "${scenario_files[@]}"; do
    name=$(basename "$file" .sh)
    [ "${outcome[$name#1]}" = pass ] && continue
    show_failure 1 "$name"
    again+=("$file")
done
if [ ${#again[@]} -gt 0 ] && [ "$retry" = 1 ]; then
    say "retrying ${#again[@]} scenario(s) in a fresh boot"
    run_boot 2 "${again[@]}"
    for file in "${again[@]}"; do
        name=$(basename "$file" .sh)
        [ "${outcome[$name#2]}" = pass ] || show_failure 2 "$name"
    done
fi

passed=0 failed=0 retried=0
run_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
printf 'scenario\tfirst\tretry\tfirst_seconds\tretry_seconds\n' >"$results/summary.tsv"
[ -e "$lab/history.tsv" ] || printf 'date\tscenario\tfirst\tretry\tfirst_seconds\tretry_seconds\n' >"$lab/history.tsv"
for file in "${scenario_files[@]}"; do
    name=$(basename "$file" .sh)
    first=${outcome[$name#1]}
    second=${outcome[$name#2]:--}
    [ "$second" = - ] || retried=$((retried + 1))
    if [ "$first" = pass ] || [ "$second" = pass ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    row=$(printf '%s\t%s\t%s\t%s\t%s' "$name" "$first" "$second" "${seconds[$name#1]:--}" "${seconds[$name#2]:--}")
    echo "$row" >>"$results/summary.tsv"
    echo "$run_date	$row" >>"$lab/history.tsv"
done
grep -h -a '^ble-ceiling:' "$results"/boot*/*/B.log "$results"/boot*/*/A.log 2>/dev/null || true
# Not failures (the agents started it again), but a bluetoothd bug met: shown, with the scenario.
grep -H 'died unasked' "$results"/boot*/*/faults.log 2>/dev/null \
    | sed "s|^$results/\(.*\)/faults.log:|ble-lab: \1 |" || true
column -t -s $'\t' "$results/summary.tsv" 2>/dev/null || cat "$results/summary.tsv"
say "whole run $(seconds_since "$start_time") s; results in $results"
echo "ble-lab: $passed passed, $failed failed, $retried retried"
[ "$failed" -eq 0 ]
