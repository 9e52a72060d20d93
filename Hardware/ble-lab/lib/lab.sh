# Helpers for BLE lab scenario code (bash), sourced before the scenario file in each VM
# (Hardware/ble-lab/guest/node.sh). Python has the same in Hardware/ble-lab/lib/blelab.py.
#
#   lab_log TEXT...                 a time-stamped line (host time, both VMs agree)
#   lab_signal NAME [TEXT]          raise the named event for this scenario (both VMs see it)
#   lab_wait NAME [SECONDS]         wait for it (default 60 s); prints its TEXT; 1 on timeout
#   lab_fault ACTION ARGS...        ask the lab for a fault, wait until it is done (status 0)
#                                   or failed; prints the lab's answer. ACTION is one of
#       restart-bluetoothd A|B [term|kill]   kill-node A|B   air-cut SECONDS   air-stall SECONDS
# Events live in $BLE_BUS (one file each, written whole with a rename); requests in
# $BLE_REQUESTS/<role>/ where that VM's agent performs them (Hardware/ble-lab/guest/agent.sh).

# In software emulation each program started costs a tenth of a second or more: the waits
# below use bash's clock and a sleep that starts nothing (a read with a timeout on a pipe).
# They look at the 9p share 5 times a second: each look costs the VM ~6 ms of emulated CPU.
lab__snooze() {
    [ -n "${LAB_SNOOZE_FD:-}" ] || exec {LAB_SNOOZE_FD}<> <(:)
    read -r -t "$1" -u "$LAB_SNOOZE_FD" || :
}

lab_log() {
    local r=$EPOCHREALTIME
    printf '[%s %(%H:%M:%S)T.%.3s] %s\n' "$BLE_ROLE" "${r%.*}" "${r#*.}" "$*"
}

lab_signal() {
    local name=$1 text=${2:-}
    printf '%s\n' "$text" >"$BLE_BUS/.$name.$BLE_ROLE.$$"
    mv "$BLE_BUS/.$name.$BLE_ROLE.$$" "$BLE_BUS/$name"
}

lab_wait() {
    local name=$1 limit=$((EPOCHSECONDS + ${2:-60}))
    until [ -e "$BLE_BUS/$name" ]; do
        [ $EPOCHSECONDS -lt $limit ] || { lab_log "no event $name after ${2:-60} s" >&2; return 1; }
        lab__snooze 0.2
    done
    cat "$BLE_BUS/$name"
}

lab_fault() {
    local action=$1 target=A
    shift
    case $action in
        restart-bluetoothd | kill-node) target=${1:?"lab_fault $action A|B"}; shift ;;
        air-cut | air-stall) ;;
        *) echo "lab_fault: unknown fault $action" >&2; return 2 ;;
    esac
    local request
    request=$BLE_REQUESTS/$target/$BLE_ROLE-${EPOCHREALTIME/./}
    printf '%s\n' "$action $*" >"$request.tmp"
    mv "$request.tmp" "$request.req"
    local limit=$((EPOCHSECONDS + 180))
    until [ -e "$request.done" ]; do
        [ $EPOCHSECONDS -lt $limit ] || { lab_log "fault $action: no answer from VM $target" >&2; return 1; }
        lab__snooze 0.2
    done
    local answer
    answer=$(cat "$request.done")
    lab_log "fault $action $*: ${answer#* }"
    [ "${answer%% *}" = 0 ]
}
