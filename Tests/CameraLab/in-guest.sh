#!/bin/sh
# Runs inside the camera lab (Hardware/camera-lab/run.sh with CAMERAS=2); prepared by
# camera-tests.sh, which passes TENDER, WORK (wallets, the clips of tests 1, 6 and 7), BOB
# (his address), MINT (the Cashu mint's URL on the host, out of the guest's reach).
# Tests, in the order they run (camera-tests.sh says what each shows): 6 Cashu through
# `tender cashu receive --camera` on the second camera beside 1 scan on the first, 2
# two-sided, 5 and 7 Bob's node (payments and Cashu tokens through its camera), 3 vanish,
# 8 animated codes at 30 frames/s, 4 frame rates. Bob's wallet is copied to LAB_OUT once his node stopped, for the host's
# Cashu sync after the lab.
# Each check prints PASS or FAIL; the last line says whether all passed.
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failed=1; }
play() { # play CLIP DEVICE: loop a raw clip into a camera's feed; prints the player's pid
    v4l2-ctl -d "$2" --stream-out-mmap --stream-from="$1" --stream-loop >/dev/null 2>&1 &
    echo $!
}
wait_for() { # wait_for TENTHS COMMAND…: until COMMAND succeeds (0.1 s apart), at most TENTHS tries
    tries=$1
    shift
    until "$@" 2>/dev/null; do
        [ "$tries" -le 0 ] && return 1
        sleep 0.1
        tries=$((tries - 1))
    done
}
alice_starts() { # alice_starts AMOUNT NAME: Alice's pay --qr, her screen $LAB_OUT/NAME.grey,
    # her camera $CAMERA, output NAME.out and NAME.err; sets $alice to its pid
    "$TENDER" pay --data-dir "$WORK/alice" --to "$BOB" --amount "$1" --qr --camera "$CAMERA" \
        --frames-out "$LAB_OUT/$2.grey" --hold 6 --timeout 600 --json \
        >"$LAB_OUT/$2.out" 2>"$LAB_OUT/$2.err" &
    alice=$!
}
alice_shows() { wait_for 1200 test -s "$LAB_OUT/$1.grey"; } # alice_shows NAME: her screen is on
alice_pays() { # alice_pays AMOUNT NAME: alice_starts, then waits until her screen shows
    alice_starts "$1" "$2"
    alice_shows "$2"
}
alice_reads_receipt() { # alice_reads_receipt SCREEN NAME WHAT: SCREEN plays into Alice's camera
    # until her pay NAME ends; passes WHAT when it ended with the payment spent
    to_alice=$(play "$1" "$CAMERA_FEED")
    wait $alice
    paid=$?
    kill "$to_alice"
    if [ $paid -eq 0 ] && grep -q '"state" : "spent"' "$LAB_OUT/$2.out"; then
        pass "$3"
    else
        fail "$3: Alice's pay ended $paid: $(grep -v '^.\[H' "$LAB_OUT/$2.out" | tail -n 3) $(tail -n 2 "$LAB_OUT/$2.err")"
    fi
}

# 6. Cashu through the camera, offline (the guest has no network; Bob's wallet holds the
# mint's keys), on the second camera while test 1 scans the first: Bob's `tender cashu
# receive --camera` reads a token nutshell's wallet sent, shown as one code, then one animated
# as Cashu wallets animate it (BC-UR ur:bytes, NUT-16).
if curl -s --max-time 10 "$MINT/v1/info" >/dev/null 2>&1; then
    fail "cashu: the guest reaches the mint at $MINT, so these tests are not offline"
else
    pass "cashu: the mint at $MINT is out of the guest's reach: what follows is offline"
fi
cashu_receive() { # cashu_receive CLIP AMOUNT: Bob's receive --camera while CLIP plays into it
    shown=$(play "$1" "$CAMERA2_FEED")
    "$TENDER" cashu receive --data-dir "$WORK/bob" --camera "$CAMERA2" --timeout 300 --json \
        >"$LAB_OUT/cashu-$2.out" 2>"$LAB_OUT/cashu-$2.err"
    echo $? >"$LAB_OUT/cashu-$2.status"
    kill "$shown"
}
cashu_received() { # cashu_received AMOUNT WHAT: passes WHAT when receive took AMOUNT sat
    if [ "$(cat "$LAB_OUT/cashu-$1.status")" = 0 ] && grep -q "\"amount\" : $1," "$LAB_OUT/cashu-$1.out" &&
        grep -q '"state" : "received"' "$LAB_OUT/cashu-$1.out"; then
        pass "$2"
    else
        fail "$2: receive ended $(cat "$LAB_OUT/cashu-$1.status"): $(tail -n 2 "$LAB_OUT/cashu-$1.err") $(head -c 300 "$LAB_OUT/cashu-$1.out")"
    fi
}
{
    cashu_receive "$WORK/cashu-single.grey" 5
    cashu_receive "$WORK/cashu-animated.grey" 21
} &
cashu=$!

# 1. Scan an animated loop from a real camera, asking for 30 frames/s.
player=$(play "$WORK/clip.grey" "$CAMERA_FEED")
"$TENDER" scan --camera "$CAMERA" --fps 30 --timeout 300 --out "$LAB_OUT/scanned" 2>"$LAB_OUT/scan.err"
kill "$player"
if cmp -s "$WORK/payment" "$LAB_OUT/scanned"; then
    pass "scan: the payment came back byte for byte through $CAMERA"
else
    fail "scan: the scanned payment differs from the one shown"
fi
if grep -q "^camera $CAMERA: 640x480 at [0-9.]* frames/s" "$LAB_OUT/scan.err"; then
    pass "scan: frame rate reported ($(grep "^camera $CAMERA" "$LAB_OUT/scan.err"))"
else
    fail "scan: no frame-rate line in: $(head -n 3 "$LAB_OUT/scan.err")"
fi

# 6's results.
wait $cashu
cashu_received 5 "cashu: Bob's receive --camera took nutshell's token shown as one code: 5 sat, received"
cashu_received 21 "cashu: Bob's receive --camera took a token animated as ur:bytes (NUT-16): 21 sat, received"

# 2. Two-sided: Alice's screen plays into Bob's camera, Bob's into Alice's.
alice_pays 130 pay
to_bob=$(play "$LAB_OUT/pay.grey" "$CAMERA2_FEED")
"$TENDER" receive --data-dir "$WORK/bob" --camera "$CAMERA2" --timeout 300 --qr \
    --frames-out "$LAB_OUT/bob-screen.grey" --json >"$LAB_OUT/receive.out" 2>"$LAB_OUT/receive.err"
received=$?
kill "$to_bob"
if [ $received -eq 0 ] && grep -q '"amount" : "130"' "$LAB_OUT/receive.out"; then
    pass "two-sided: Bob scanned Alice's payment loop with his camera and accepted 130"
else
    fail "two-sided: Bob's receive failed ($received): $(tail -n 2 "$LAB_OUT/receive.err")"
fi
# First the receipt of Alice's earlier payment (test 1's), still on Bob's screen.
stale=$(play "$WORK/old-receipt.grey" "$CAMERA_FEED")
wait_for 1200 grep -q "not this one" "$LAB_OUT/pay.err"
kill "$stale"
if grep -q "that receipt is for request .*, not this one" "$LAB_OUT/pay.err" && kill -0 $alice 2>/dev/null; then
    pass "two-sided: an earlier payment's receipt on Bob's screen was not taken for this one"
else
    fail "two-sided: the stale receipt: $(tail -n 2 "$LAB_OUT/pay.err")"
fi
alice_reads_receipt "$LAB_OUT/bob-screen.grey" pay \
    "two-sided: Alice's pay --qr read Bob's receipt from her camera: payment spent"
# Alice had 4 coins of 100: test 1 holds one (pending: its receipt was only ever on screen
# here, not recorded), this payment spent two and its change of 70 is spendable now that the
# receipt is in: 100 + 70.
"$TENDER" balance --data-dir "$WORK/alice" --json >"$LAB_OUT/alice-balance.out"
if grep -q '"spendable" : "170"' "$LAB_OUT/alice-balance.out"; then
    pass "two-sided: Alice's change is spendable (170)"
else
    fail "two-sided: Alice's balance: $(tr -d '\n ' <"$LAB_OUT/alice-balance.out")"
fi

# 5. The node's camera payee (before test 3, which unplugs the first camera): Bob's node
# watches his camera; Alice's pay --qr plays into it; the node accepts the payment, serves the
# receipt (the envelope and its code), and Alice's camera reads the receipt off Bob's screen.
# Then Bob's camera is unplugged: the node says so in its status and serves on.
printf '[payee]\nbluetooth = "off"\ncamera = "%s"\n' "$CAMERA2" >"$WORK/bob/node.toml"
sock="$WORK/node.sock"
"$TENDER" node --data-dir "$WORK/bob" --no-sync --listen "unix:$sock" >"$LAB_OUT/node.log" 2>&1 &
node=$!
# 7. A Cashu token (from nutshell's wallet, one code) in view of the node's camera from the
# start, while Alice's pay starts: the node's Cashu wallet takes it offline; it is taken out
# of view then (the camera would pass it on again after 30 s in view). The same token is
# shown again after this test's payment.
to_node=$(play "$WORK/cashu-node.grey" "$CAMERA2_FEED")
api() {
    curl -s --unix-socket "$sock" -H "Authorization: Bearer $(cat "$WORK/bob/api-token" 2>/dev/null)" \
        "http://node$1"
}
scanning() { api /api/status | grep -q "scanning $CAMERA2"; }
wait_for 1200 scanning
if scanning; then
    pass "node camera: the node scans its camera ($(grep -o "scanning $CAMERA2.*" "$LAB_OUT/node.log" | head -n 1))"
else
    fail "node camera: no scanning status: $(api /api/status) $(tail -n 3 "$LAB_OUT/node.log")"
fi
alice_starts 90 pay2
node_tokens() { # the node's Cashu payments of 8 sat, as "id state" lines
    api /api/cashu/payments | python3 -c 'import json, sys
for payment in json.load(sys.stdin)["payments"]:
    if payment["amount"] == "8" and payment["direction"] == "in": print(payment["id"], payment["state"])' 2>/dev/null
}
took_token() { grep -q "camera payee: took a Cashu token of 8 sat" "$LAB_OUT/node.log" && [ -n "$(node_tokens)" ]; }
wait_for 1800 took_token
kill "$to_node"
if took_token && [ "$(node_tokens | cut -d' ' -f2)" = received ]; then
    pass "node cashu: the node took the token shown to its camera, listed as received ($(grep -o 'took a Cashu token of 8 sat from [^ ]*' "$LAB_OUT/node.log" | head -n 1))"
else
    fail "node cashu: no token of 8 sat: $(api /api/cashu/payments | head -c 300) $(grep -i cashu "$LAB_OUT/node.log" | tail -n 3)"
fi
alice_shows pay2
to_node=$(play "$LAB_OUT/pay2.grey" "$CAMERA2_FEED")
paid_id() { # the request id of the node's payment of 90, once accepted
    api /api/payments | python3 -c 'import json, sys
for payment in json.load(sys.stdin)["incoming"]:
    if payment["amount"] == "90": print(payment["requestId"])' 2>/dev/null
}
accepted() { [ -n "$(paid_id)" ]; }
wait_for 1800 accepted
kill "$to_node"
id=$(paid_id)
if [ -n "$id" ] && grep -q "camera payee: received 90 for request" "$LAB_OUT/node.log"; then
    pass "node camera: the node read Alice's payment loop from its camera and accepted 90"
else
    fail "node camera: no payment of 90: $(api /api/payments) $(tail -n 3 "$LAB_OUT/node.log")"
fi
api "/api/receipts/$id" >"$LAB_OUT/node-receipt"
api "/api/receipts/$id/qr.png" >"$LAB_OUT/node-receipt.png"
"$TENDER" scan --image "$LAB_OUT/node-receipt.png" --out "$LAB_OUT/node-receipt-scanned" >/dev/null 2>&1
if [ -s "$LAB_OUT/node-receipt" ] && cmp -s "$LAB_OUT/node-receipt" "$LAB_OUT/node-receipt-scanned"; then
    pass "node camera: the API serves the receipt, and its code reads back to the same bytes"
else
    fail "node camera: the receipt ($(wc -c <"$LAB_OUT/node-receipt") bytes) or its code differ"
fi
"$TENDER" show "$LAB_OUT/node-receipt" --frames-out "$LAB_OUT/node-screen.grey" >/dev/null
alice_reads_receipt "$LAB_OUT/node-screen.grey" pay2 \
    "node camera: Alice's camera read the node's receipt: payment spent"
# 7, again: the Cashu token shown to the node's camera once more (the camera passes a code
# held in view on once in 30 s; by now, or soon, it passes it on again): taken already, counted
# as a repeat (not a refusal), nothing new taken.
to_node=$(play "$WORK/cashu-node.grey" "$CAMERA2_FEED")
seen_again() { api /metrics | grep -q 'tender_cashu_tokens_total{outcome="repeated"} [1-9]'; }
wait_for 1800 seen_again
kill "$to_node"
if seen_again && [ "$(node_tokens | wc -l)" -eq 1 ] &&
    api /metrics | grep -q 'tender_cashu_tokens_total{outcome="taken"} 1' &&
    ! grep -q "refused a Cashu token" "$LAB_OUT/node.log"; then
    pass "node cashu: the same token shown again was known as taken already: one payment, no refusal"
else
    fail "node cashu: shown again: $(node_tokens | tr '\n' ' ') $(grep -i cashu "$LAB_OUT/node.log" | tail -n 3)"
fi
v4l2-ctl -d "$CAMERA2" -c disconnect=1 2>>"$LAB_OUT/node.log"
# The status as it was when it said so: the node looks for its camera again every 5 s, and
# vivid's camera can be opened again after the unplug.
camera_gone() { said=$(api /api/status | grep -o 'waiting for the camera[^"]*'); [ -n "$said" ]; }
wait_for 1200 camera_gone
gone=$?
if [ $gone -eq 0 ] && kill -0 $node 2>/dev/null &&
    api /metrics | grep -q 'tender_camera_payments_total{outcome="paid"} 1'; then
    pass "node camera: unplugged, the node says so ($(echo "$said" | cut -c 1-70)…) and serves on"
else
    fail "node camera: after the unplug: $(api /api/status) $(tail -n 3 "$LAB_OUT/node.log")"
fi
kill -TERM $node
node_gone() { ! kill -0 $node; }
wait_for 600 node_gone || kill -KILL $node
wait $node
stopped=$?
if [ $stopped -eq 0 ]; then
    pass "node camera: the node stopped cleanly"
else
    fail "node camera: the node exited $stopped: $(tail -n 3 "$LAB_OUT/node.log")"
fi
# Bob's wallet as the guest leaves it, for the host's Cashu sync after the lab: the guest's
# writes to the host's folders stay in its own overlay, LAB_OUT is the way out.
cp -R "$WORK/bob" "$LAB_OUT/bob" || fail "could not copy Bob's wallet to $LAB_OUT"

# 3. The camera is unplugged mid-scan (vivid's Disconnect button): a clear error, exit 74.
"$TENDER" scan --camera "$CAMERA" --timeout 300 >/dev/null 2>"$LAB_OUT/vanish.err" &
scanner=$!
wait_for 1200 grep -q "^camera $CAMERA" "$LAB_OUT/vanish.err"
sleep 1
v4l2-ctl -d "$CAMERA" -c disconnect=1 2>>"$LAB_OUT/vanish.err"
wait $scanner
status=$?
if [ $status -eq 74 ] && grep -q "went away mid-scan" "$LAB_OUT/vanish.err"; then
    pass "vanish: $(grep 'went away' "$LAB_OUT/vanish.err")"
else
    fail "vanish: exit $status, $(tail -n 2 "$LAB_OUT/vanish.err")"
fi

# 8. Animated codes at 30 frames/s: vivid reloaded as two looped S-Video pairs at NTSC
# (720x480 at 29.97 frames/s, a webcam's rate; vivid's HDMI timings have no 640x480 at 30).
# The loop's fragment and hold come from what the camera reports: the frame's short side at
# 2 px a module holds tender's default fragment (a version-39 code, which zxing-cpp reads at
# 2 px a module where it misses version 40), else 1,200-byte fragments; each code held
# display rate / camera rate frames (1 here).
rmmod vivid && modprobe vivid n_devs=2 node_types=0x101,0x101 vid_cap_nr=0,2 vid_out_nr=1,3 \
    num_inputs=1,1 input_types=0x2,0x2 num_outputs=1,1 output_types=0x0,0x0 \
    ccs_cap_mode=0,0 ccs_out_mode=0,0
for pair in 0 1; do
    camera=/dev/video$((2 * pair))
    output=/dev/video$((2 * pair + 1))
    { v4l2-ctl -d $camera --set-standard=ntsc && v4l2-ctl -d $output --set-standard=ntsc &&
        v4l2-ctl -d $camera --set-fmt-video=width=720,height=480,pixelformat=GREY,field=interlaced &&
        v4l2-ctl -d $camera -c loop_video=1,osd_text_mode=2 &&
        v4l2-ctl -d $output --set-fmt-video-out=width=720,height=480,pixelformat=GREY,field=interlaced
    } >/dev/null || fail "30 frames/s: the S-Video pair $camera <- $output would not set up"
done
uptime_now() { cut -d' ' -f1 /proc/uptime; }
rate_of() { v4l2-ctl -d "$1" --get-parm | sed -n 's/.*Frames per second: \([0-9.]*\).*/\1/p'; }
size=$(v4l2-ctl -d /dev/video0 --get-fmt-video | sed -n 's|.*Width/Height *: *\([0-9]*\)/\([0-9]*\).*|\1x\2|p')
camera_rate=$(rate_of /dev/video0)
display_rate=$(rate_of /dev/video1)
hold=$(awk -v d="${display_rate:-30}" -v c="${camera_rate:-30}" 'BEGIN { h = int(d / c + 0.5); print (h < 1 ? 1 : h) }')
short=$(echo "$size" | awk -F x '{ print ($1 < $2 ? $1 : $2) }')
fragment=""
[ "$((${short:-0} / 2))" -ge 181 ] || fragment="--fragment 1200"
case $camera_rate in
29.9*) ;;
*) fail "30 frames/s: the camera reports $camera_rate frames/s at $size, not 29.97" ;;
esac
echo "30 frames/s: camera $size at $camera_rate frames/s, display at $display_rate: hold $hold, fragment ${fragment:-version 39}"
# 8a. The 50-coin payment as a loop, every fifth frame lost, scanned by `tender scan`: its payload rate.
# shellcheck disable=SC2086
"$TENDER" show "$WORK/payment50" $fragment --hold "$hold" --loops 4 --frame-size "$size" \
    --frames-out "$LAB_OUT/loop30.grey" >/dev/null
python3 "$(dirname "$0")/lose-frames.py" "$LAB_OUT/loop30.grey" "$LAB_OUT/loop30-lost.grey" \
    "${size%x*}" "${size#*x}" >"$LAB_OUT/loop30.lost"
shown=$(play "$LAB_OUT/loop30-lost.grey" /dev/video1)
"$TENDER" scan --camera /dev/video0 --size "$size" --fps 30 --timeout 120 --json \
    --out "$LAB_OUT/scanned30" >"$LAB_OUT/scan30.out" 2>"$LAB_OUT/scan30.err"
kill "$shown"
seconds=$(sed -n 's/.*"assemblySeconds" : \([0-9.]*\).*/\1/p' "$LAB_OUT/scan30.out")
bytes=$(wc -c <"$WORK/payment50")
if cmp -s "$WORK/payment50" "$LAB_OUT/scanned30" && [ -n "$seconds" ]; then
    pass "30 frames/s: a 50-coin payment ($bytes B, $(cat "$LAB_OUT/loop30.lost")) through $size at $camera_rate frames/s in $seconds s from its first code: $(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.0f", (s > 0 ? b / s : 0) }') payload B/s"
else
    fail "30 frames/s: the scanned payment differs: $(tail -n 2 "$LAB_OUT/scan30.err")"
fi
# 8b. Both directions: Alice's pay --qr of 50 coins (her camera /dev/video0, her screen into
# Bob's /dev/video2) and Bob's receipt back; seconds from her loop's first frame.
# shellcheck disable=SC2086
"$TENDER" pay --data-dir "$WORK/alice30" --to "$BOB30" --amount 500 --qr --camera /dev/video0 \
    --frames-out "$LAB_OUT/alice30.grey" --frame-size "$size" --hold "$hold" $fragment \
    --timeout 300 --json >"$LAB_OUT/alice30.out" 2>"$LAB_OUT/alice30.err" &
alice=$!
"$TENDER" receive --data-dir "$WORK/bob30" --camera /dev/video2 --qr --timeout 300 \
    --frames-out "$LAB_OUT/bob30.grey" --frame-size "$size" --hold "$hold" --json \
    >"$LAB_OUT/bob30.out" 2>"$LAB_OUT/bob30.err" &
bob=$!
bob_looks() { test -s "$LAB_OUT/alice30.grey" && grep -q "^camera /dev/video2" "$LAB_OUT/bob30.err"; }
wait_for 1200 bob_looks
to_bob=$(play "$LAB_OUT/alice30.grey" /dev/video3)
first=$(uptime_now)
wait_for 1200 test -s "$LAB_OUT/bob30.grey"
receipt_at=$(uptime_now)
to_alice=$(play "$LAB_OUT/bob30.grey" /dev/video1)
wait $alice
paid=$?
done_at=$(uptime_now)
wait $bob
received=$?
kill "$to_bob" "$to_alice"
# vivid is reloaded next (test 4): the players must have let go of it.
players_gone() { ! kill -0 "$to_bob" && ! kill -0 "$to_alice"; }
wait_for 100 players_gone
if [ $paid -eq 0 ] && [ $received -eq 0 ] && grep -q '"state" : "spent"' "$LAB_OUT/alice30.out" &&
    grep -q '"amount" : "500"' "$LAB_OUT/bob30.out"; then
    pass "30 frames/s, both ways: 50 coins to Bob's camera and his receipt back to Alice's in $(awk -v a="$first" -v b="$done_at" 'BEGIN { printf "%.1f", b - a }') s from her first frame (his receipt on his screen at $(awk -v a="$first" -v b="$receipt_at" 'BEGIN { printf "%.1f", b - a }') s)"
else
    fail "30 frames/s, both ways: Alice's pay ended $paid, Bob's receive $received: $(tail -n 2 "$LAB_OUT/alice30.err") $(tail -n 2 "$LAB_OUT/bob30.err")"
fi

# 4. Frame rate on a webcam-type camera (the looped HDMI pairs run at their timings' 59.94):
# vivid reloaded as one webcam, whose rates depend on the size (at most 25 at 640x480). The
# rate tender reports must be the one the driver then reports to v4l2-ctl; 15 is granted as is.
rmmod vivid && modprobe vivid n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0
for rate in 15 30; do
    "$TENDER" scan --camera /dev/video0 --size 640x480 --fps $rate --timeout 1 >/dev/null \
        2>"$LAB_OUT/rate.err"
    reported=$(sed -n 's|^camera /dev/video0: 640x480 at \([0-9.]*\) frames/s.*|\1|p' "$LAB_OUT/rate.err")
    driver=$(v4l2-ctl -d /dev/video0 --get-parm | sed -n 's/.*Frames per second: \([0-9.]*\).*/\1/p')
    if [ -n "$reported" ] && [ "$(printf %.2f "$driver")" = "$reported" ] &&
        { [ $rate != 15 ] || [ "$reported" = 15.00 ]; }; then
        pass "frame rate: $(grep '^camera' "$LAB_OUT/rate.err") (v4l2-ctl: $driver)"
    else
        fail "frame rate: asked $rate, tender says '$reported', v4l2-ctl says '$driver'"
    fi
done

if [ $failed -eq 0 ]; then echo "camera-tests: all passed"; else echo "camera-tests: some failed"; fi
