#!/usr/bin/env bash
# Camera lab: runs a scanner against a REAL V4L2 capture device on a machine without one.
#
# A QEMU guest (software emulation) boots Debian's own kernel with the host's root file system
# shared read-only, so host binaries (a freshly built `tender`) run in it unchanged. In the
# guest, the kernel's `vivid` test driver is loaded with one HDMI capture node (/dev/video0,
# the "camera") and one HDMI output node (/dev/video1) with "loop video" on: every frame
# written to the output comes out of the capture node bit for bit. A feeder loops a raw clip
# into the output; the scanner command reads the camera.
#
#   FEED_FILE=clip.grey SCAN_CMD='tender scan --camera "$CAMERA"' EXPECT='tender:0x…' \
#       bash Hardware/camera-lab/run.sh
#
# FEED_FILE  raw 640x480 8-bit grey frames (fourcc GREY), looped at 59.94 frames/s into
#            the first camera; optional (SCAN_CMD may play its own clips into CAMERA_FEED)
# SCAN_CMD   run by sh in the guest with CAMERA=/dev/video0, CAMERA_FEED=/dev/video1 (the
#            output that loops into it) and LAB_OUT (a folder that is $CAMERA_LAB_DIR/out on
#            the host); its stdout must contain EXPECT
# EXPECT     the text that means success
# CAMERAS    1 (default) or 2: a second looped pair, CAMERA2=/dev/video2 fed by
#            CAMERA2_FEED=/dev/video3, for two parties that scan each other's codes
# Optional: SCAN_TIMEOUT (60 s), CAMERA_LAB_DIR (./.camera-lab), CAMERA_LAB_TIMEOUT (300 s).
# Play a clip into a camera from SCAN_CMD with
#   v4l2-ctl -d "$CAMERA_FEED" --stream-out-mmap --stream-from=CLIP --stream-loop &
# Last line: "camera-lab: 1 passed, 0 failed" (exit 0) or "camera-lab: 0 passed, 1 failed".
#
# Why each vivid setting (the loop only runs when both ends agree): HDMI input and output with
# the same DV timings (CEA-861 VIC 1, 640x480p59.94), the same pixel format on both ends, no
# crop/compose/scaler (ccs_*_mode=0), and osd_text_mode=2 (otherwise vivid draws text over the
# top-left corner of each captured frame, on top of a QR finder pattern).
set -euo pipefail
: "${SCAN_CMD:?SCAN_CMD}" "${EXPECT:?EXPECT}"
lab=$(realpath -m "${CAMERA_LAB_DIR:-$PWD/.camera-lab}")
scan_timeout=${SCAN_TIMEOUT:-60}
vm_timeout=${CAMERA_LAB_TIMEOUT:-300}
cameras=${CAMERAS:-1}
case $cameras in 1 | 2) ;; *) echo "camera-lab: CAMERAS must be 1 or 2" >&2; exit 2 ;; esac
feed=""
if [ -n "${FEED_FILE:-}" ]; then
    feed=$(realpath "$FEED_FILE")
    frame_bytes=$((640 * 480))
    size=$(stat -c %s "$feed")
    if [ "$size" -eq 0 ] || [ $((size % frame_bytes)) -ne 0 ]; then
        echo "camera-lab: $FEED_FILE is $size bytes, not whole 640x480 grey frames" >&2
        exit 2
    fi
fi
mkdir -p "$lab"

# 1. Host packages, only those missing.
packages="qemu-system-x86 busybox-static cpio kmod v4l-utils xz-utils zstd"
# shellcheck disable=SC2086
bash "$(dirname "$0")/../../Scripts/install-packages.sh" --quiet $packages

# 2. Debian's kernel, unpacked (not installed) once.
kernel_dir=$lab/kernel
if [ ! -e "$kernel_dir/.complete" ]; then
    apt-cache show linux-image-amd64 >/dev/null 2>&1 || apt-get -o DPkg::Lock::Timeout=600 update -qq
    image=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    rm -rf "$kernel_dir"
    mkdir -p "$kernel_dir"
    (cd "$lab" && apt-get -q -o APT::Sandbox::User=root download "$image" >/dev/null)
    dpkg-deb -x "$lab/${image}"_*.deb "$kernel_dir"
    rm -f "$lab/${image}"_*.deb
    depmod -b "$kernel_dir" "${image#linux-image-}"
    touch "$kernel_dir/.complete"
fi
version=$(ls "$kernel_dir/lib/modules" | head -n 1)
modinfo -b "$kernel_dir" -k "$version" -n vivid >/dev/null

# 3. An initramfs that mounts the host root over 9p with a tmpfs overlay, then hands over.
initramfs=$lab/initramfs-$version.cpio.gz
modules="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay"
if [ ! -e "$initramfs" ]; then
    root=$lab/initramfs
    rm -rf "$root"
    mkdir -p "$root"/{bin,modules,proc,sys,dev,host,rw,new}
    cp /bin/busybox "$root/bin/busybox"
    for module in $modules; do
        file=$(modinfo -b "$kernel_dir" -k "$version" -n "$module")
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
next=\$(sed -n 's/.*lab_init=\([^ ]*\).*/\1/p' /proc/cmdline)
mount --move /proc /new/proc; mount --move /sys /new/sys; mount --move /dev /new/dev
exec switch_root /new \${next:-/bin/sh}
INIT
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initramfs"
fi

# 4. The guest's job, with its settings.
out=$lab/out
rm -rf "$out"
mkdir -p "$out"
quote() { printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"; }
{
    echo "KERNEL_DIR=$(quote "$kernel_dir")"
    echo "FEED=$(quote "$feed")"
    echo "SCAN_CMD=$(quote "$SCAN_CMD")"
    echo "EXPECT=$(quote "$EXPECT")"
    echo "SCAN_TIMEOUT=$(quote "$scan_timeout")"
    echo "CAMERAS=$cameras"
} >"$lab/guest.env"
cat >"$lab/guest.sh" <<'GUEST'
#!/bin/sh
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
. "$(dirname "$0")/guest.env"
say() { echo "guest: $* ($(cut -d' ' -f1 /proc/uptime) s)"; }
mount -t tmpfs tmpfs /run
mkdir -p /lib/modules /mnt/out
mount --bind "$KERNEL_DIR/lib/modules" /lib/modules
mount -t 9p -o trans=virtio,version=9p2000.L out /mnt/out
OUT=/mnt/out
result=1
stop() { echo $result >$OUT/result; sync; busybox poweroff -f; }
# Instance i: capture /dev/video(2i) looped from output /dev/video(2i+1).
each() { value=$1; list=$value; i=1; while [ $i -lt "$CAMERAS" ]; do list=$list,$value; i=$((i + 1)); done; echo $list; }
caps=0; outs=1
[ "$CAMERAS" = 2 ] && caps=0,2 && outs=1,3
modprobe vivid n_devs=$CAMERAS node_types=$(each 0x101) vid_cap_nr=$caps vid_out_nr=$outs \
    num_inputs=$(each 1) input_types=$(each 0x3) num_outputs=$(each 1) output_types=$(each 0x1) \
    ccs_cap_mode=$(each 0) ccs_out_mode=$(each 0) || { say "vivid did not load"; stop; }
instance=0
while [ $instance -lt "$CAMERAS" ]; do
    camera=/dev/video$((2 * instance))
    output=/dev/video$((2 * instance + 1))
    for node in $camera $output; do
        v4l2-ctl -d $node --set-dv-bt-timings index=0 >/dev/null || { say "timings refused on $node"; stop; }
    done
    v4l2-ctl -d $camera --set-fmt-video=width=640,height=480,pixelformat=GREY
    v4l2-ctl -d $camera -c loop_video=1,osd_text_mode=2 || { say "loop setup failed"; stop; }
    v4l2-ctl -d $output --set-fmt-video-out=width=640,height=480,pixelformat=GREY
    instance=$((instance + 1))
done
export CAMERA=/dev/video0 CAMERA_FEED=/dev/video1
[ "$CAMERAS" = 2 ] && export CAMERA2=/dev/video2 CAMERA2_FEED=/dev/video3
feeder=""
if [ -n "$FEED" ]; then
    v4l2-ctl -d $CAMERA_FEED --stream-out-mmap --stream-from="$FEED" --stream-loop >/run/feeder.log 2>&1 &
    feeder=$!
    waited=0
    until grep -q '>' /run/feeder.log 2>/dev/null || [ $waited -ge 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    say "camera looping the clip"
fi
say "$CAMERAS camera(s) ready"
export LAB_OUT=$OUT
timeout "$SCAN_TIMEOUT" sh -c "$SCAN_CMD" >$OUT/scan.out 2>$OUT/scan.err &
scanner=$!
while kill -0 $scanner 2>/dev/null; do
    grep -qF -e "$EXPECT" $OUT/scan.out 2>/dev/null && break
    sleep 0.1
done
if grep -qF -e "$EXPECT" $OUT/scan.out 2>/dev/null; then
    result=0
    say "scanner printed the expected text"
    kill $scanner 2>/dev/null
else
    wait $scanner
    say "scanner ended (status $?) without the expected text"
fi
[ -n "$feeder" ] && kill $feeder 2>/dev/null
stop
GUEST
chmod +x "$lab/guest.sh"

# 5. Boot. KVM only where a real vmx/svm KVM exists; otherwise software emulation.
acceleration="-accel tcg,thread=multi -cpu max"
if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
    acceleration="-accel kvm -cpu host"
fi
timeout "$vm_timeout" qemu-system-x86_64 $acceleration -smp 2 -m 1024 \
    -display none -monitor none -no-reboot \
    -kernel "$kernel_dir/boot/vmlinuz-$version" -initrd "$initramfs" \
    -serial file:"$out/console.log" \
    -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap,id=host \
    -virtfs local,path="$out",mount_tag=out,security_model=none,id=out \
    -append "console=ttyS0 quiet panic=-1 lab_init=$lab/guest.sh" || true

# 6. Verdict.
grep -a -h '^guest:' "$out/console.log" || true
echo "---- scanner output (head):"
head -c 2000 "$out/scan.out" 2>/dev/null || true
echo
echo "---- scanner errors (tail):"
tail -n 5 "$out/scan.err" 2>/dev/null || true
if [ "$(cat "$out/result" 2>/dev/null || echo 99)" = 0 ]; then
    echo "camera-lab: 1 passed, 0 failed"
else
    echo "camera-lab: 0 passed, 1 failed (logs in $out)"
    exit 1
fi
