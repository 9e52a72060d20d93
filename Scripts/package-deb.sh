#!/usr/bin/env bash
# Builds the Debian package of a Tender point of sale: tender_<version>_<arch>.deb with
#   /usr/bin/tender                                  the binary
#   /lib/systemd/system/tender-node.service          Hardware/systemd/tender-node.service
#   /etc/tender/node.toml                            Hardware/systemd/node.toml (a conffile)
#   /lib/udev/rules.d/70-tender.rules                udev/70-tender.rules
#   /usr/share/dbus-1/system.d/tender.conf           Hardware/dbus/tender.conf
#   /usr/libexec/tender/tender-kiosk, /usr/share/tender/tender-kiosk.desktop   Hardware/kiosk
#   /usr/share/doc/tender/                           README.md (Hardware/README.md), OPERATIONS.md, BACKUP.md, ...
# and maintainer scripts: postinst makes the system user and group tender (home
# /var/lib/tender, no login) and reloads udev and systemd only where they run (D-Bus reloads
# through its own dpkg trigger); the
# unit is not enabled (the wallet and its passphrase come first: Hardware/README.md); prerm
# stops the node; postrm purge keeps any wallet in /var/backups (keys are money) and removes
# the rest, the user and the group.
#
#   bash Scripts/package-deb.sh [--binary PATH] [--out DIR] [--version V] [--compress xz|gzip|zstd|none]
#                               [--scratch-path DIR] [--no-strip] [--for-this-machine]
#
# The packaged binary is stripped (as Debian's packages are: the static release build goes
# from about 200 MB to 90 MB) unless --no-strip, which keeps symbol names for backtraces.
# Without --binary it builds one: `swift build -c release --static-swift-stdlib`. That
# binary carries the Swift runtime and Foundation inside it, so the package depends only on
# Debian's C libraries (no /opt/swift on the Pi). A debug build (.build/debug/tender, as the
# hardware tests use) links the toolchain's shared runtime instead: the script refuses it
# (exit 65, naming the libraries), as its package would not start on a Pi, unless
# --for-this-machine says it is only for a machine where that toolchain is installed at the
# same path.
# Depends: from dpkg-shlibdeps (versioned, dpkg-dev) when it is installed, else the package
# owning each library the binary needs (dpkg -S). Run on the architecture you ship (a Pi
# builds arm64 packages; the architecture is read from the binary).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
out=$PWD
version=""
compress=xz
scratch=()
strip=1
local_only=""
while [ $# -gt 0 ]; do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --version) version=$2; shift 2 ;;
        --compress) compress=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        --no-strip) strip=""; shift ;;
        --for-this-machine) local_only=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-deb: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done
fail() { echo "package-deb: $*" >&2; exit 1; }
for tool in dpkg-deb readelf ldd; do
    command -v "$tool" >/dev/null || fail "needs $tool (apt-get install dpkg binutils libc-bin)"
done

if [ -z "$binary" ]; then
    echo "package-deb: building tender (release, static Swift runtime)"
    swift build -c release --static-swift-stdlib --product tender "${scratch[@]}"
    binary="$(swift build -c release --static-swift-stdlib --show-bin-path "${scratch[@]}")/tender"
fi
[ -x "$binary" ] || fail "no executable at $binary"
binary=$(realpath "$binary")

# The architecture the binary was built for, in Debian's names.
machine=$(readelf -h "$binary" | sed -n 's/^ *Machine: *//p')
case $machine in
    *X86-64*) arch=amd64 ;;
    *AArch64*) arch=arm64 ;;
    ARM) arch=armhf ;;
    *) fail "unknown machine '$machine' in $binary" ;;
esac

# The release `tender --version` says (Sources/CLI/TenderCLI/TenderVersion.swift), before it
# is released: ~ sorts a build of the commit's time and hash before the release itself.
if [ -z "$version" ]; then
    release=$(sed -n 's/.*static let number = "\([0-9.]*\)".*/\1/p' Sources/CLI/TenderCLI/TenderVersion.swift)
    [ -n "$release" ] || fail "no release number in Sources/CLI/TenderCLI/TenderVersion.swift"
    if stamp=$(git log -1 --format=%cd --date=format:%Y%m%d%H%M%S 2>/dev/null); then
        version="$release~git$stamp.$(git rev-parse --short HEAD)"
    else
        version="$release~local$(date -u +%Y%m%d%H%M%S)"
    fi
fi
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || fail "not a Debian version: $version"

stage=$(mktemp -d /tmp/tender-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/tender_${version}_$arch
install -d "$root/DEBIAN"

# --- Files ---
install -D -m 0755 "$binary" "$root/usr/bin/tender"
if [ -n "$strip" ]; then
    strip --strip-unneeded "$root/usr/bin/tender" 2>"$stage/strip.log" \
        || echo "package-deb: warning: not stripped: $(cat "$stage/strip.log")" >&2
fi
install -D -m 0644 Hardware/systemd/tender-node.service "$root/lib/systemd/system/tender-node.service"
install -D -m 0644 Hardware/systemd/node.toml "$root/etc/tender/node.toml"
install -D -m 0644 udev/70-tender.rules "$root/lib/udev/rules.d/70-tender.rules"
install -D -m 0644 Hardware/dbus/tender.conf "$root/usr/share/dbus-1/system.d/tender.conf"
install -D -m 0755 Hardware/kiosk/tender-kiosk "$root/usr/libexec/tender/tender-kiosk"
install -D -m 0644 Hardware/kiosk/tender-kiosk.desktop "$root/usr/share/tender/tender-kiosk.desktop"
doc=$root/usr/share/doc/tender
install -D -m 0644 Hardware/README.md "$doc/README.md"
install -m 0644 README.md "$doc/README.project.md"
install -m 0644 Docs/OPERATIONS.md "$doc/OPERATIONS.md"
if [ -f Docs/BACKUP.md ]; then install -m 0644 Docs/BACKUP.md "$doc/BACKUP.md"; fi
install -m 0644 udev/README.md "$doc/README.udev.md"

# --- Dependencies ---
# Every library the binary loads, and which of them a Debian package owns (one dpkg -S for
# all: each call reads the whole file database). Debian 12 merged /lib into /usr/lib, and
# dpkg knows each file under the name its package used, so both names are asked.
declare -A owner=()
libs=()
while read -r lib path; do
    libs+=("$lib=$path")
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
candidates=()
for entry in "${libs[@]}"; do
    path=${entry#*=}
    candidates+=("$path" "$(realpath "$path")" "/usr${path#/usr}" "${path#/usr}")
done
while IFS= read -r line; do
    package=${line%%: *}
    owner[${line#*: }]=${package%%:*}
done < <(dpkg -S "${candidates[@]}" 2>/dev/null || true)
# Libraries no Debian package provides (the toolchain's Swift runtime in a debug build): the
# package cannot depend on them. DT_NEEDED names the direct ones, for the fallback below.
unpackaged=()
packages=()
needed=" $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ') "
for entry in "${libs[@]}"; do
    lib=${entry%%=*}
    path=${entry#*=}
    found=""
    for candidate in "$path" "$(realpath "$path")" "/usr${path#/usr}" "${path#/usr}"; do
        [ -n "${owner[$candidate]:-}" ] && found=${owner[$candidate]} && break
    done
    if [ -z "$found" ]; then
        unpackaged+=("$lib ($path)")
    elif [[ $needed == *" $lib "* ]]; then
        packages+=("$found")
    fi
done

if command -v dpkg-shlibdeps >/dev/null; then
    # Versioned from the libraries' symbols files. dpkg-shlibdeps wants a source tree; a
    # minimal one in the staging area will do.
    mkdir -p "$stage/src/debian"
    printf 'Source: tender\n\nPackage: tender\nArchitecture: any\n' >"$stage/src/debian/control"
    search=()
    for entry in "${unpackaged[@]}"; do
        dir=${entry#*(}
        search+=("-l$(dirname "${dir%)}")")
    done
    depends=$(cd "$stage/src" && dpkg-shlibdeps -O --ignore-missing-info "${search[@]}" \
        "$root/usr/bin/tender" 2>"$stage/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') \
        || fail "dpkg-shlibdeps failed: $(cat "$stage/shlibdeps.log")"
else
    # Unversioned: the package owning each library the binary names.
    depends=$(printf '%s\n' "${packages[@]}" | sort -u | paste -sd, | sed 's/,/, /g')
fi
[ -n "$depends" ] || fail "could not work out the binary's dependencies"
# Packed relative relocations (the release link: Package.swift, releaseLinking) need glibc
# 2.36, which the libraries' symbols files do not say: the loader refuses the binary before.
if readelf -V "$binary" | grep -q 'Name: GLIBC_ABI_DT_RELR'; then
    libc=$(printf '%s\n' "${depends//, /$'\n'}" | sed -n 's/^libc6 (>= \(.*\))$/\1/p')
    if [ -z "$libc" ]; then
        depends=$(printf '%s' "$depends" | sed 's/\(^\|, \)libc6\(, \|$\)/\1libc6 (>= 2.36)\2/')
        [[ $depends == *"libc6 (>= 2.36)"* ]] || depends="libc6 (>= 2.36), $depends"
    elif dpkg --compare-versions "$libc" lt 2.36; then
        depends=${depends/"libc6 (>= $libc)"/"libc6 (>= 2.36)"}
    fi
fi
# adduser: postinst and postrm make and remove the user. init-system-helpers:
# deb-systemd-helper/invoke (present on every Debian, named for completeness).
depends="$depends, adduser, init-system-helpers"

if [ ${#unpackaged[@]} -gt 0 ]; then
    [ -n "$local_only" ] || {
        echo "package-deb: $binary loads libraries no Debian package provides:" >&2
        printf 'package-deb:   %s\n' "${unpackaged[@]}" >&2
        echo "package-deb: its package would not start on another machine (a Pi has no Swift" >&2
        echo "package-deb: toolchain): leave out --binary to build a release with the Swift runtime" >&2
        echo "package-deb: inside it, or add --for-this-machine to package it for this one." >&2
        exit 65
    }
    echo "package-deb: warning: for this machine only: $binary loads libraries no Debian package provides:" >&2
    printf 'package-deb:   %s\n' "${unpackaged[@]}" >&2
fi

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: tender
Version: $version
Architecture: $arch
Maintainer: ${DEBFULLNAME:-Tender developers} <${DEBEMAIL:-tender@localhost}>
Installed-Size: $size
Depends: $depends
Recommends: bluez, dbus
Suggests: cups-client, chromium | chromium-browser, curl
Section: net
Priority: optional
Description: offline peer-to-peer payment node (point of sale)
 Tender pays and takes signed offline notes by files, QR codes and Bluetooth LE,
 and settles them on chain when a connection comes back. This package runs the
 node as a hardened systemd service (tender-node.service) with its own user, the
 udev rules for cameras and receipt printers, the D-Bus policy for BlueZ and a
 kiosk launcher for the point-of-sale page.
EOF
echo /etc/tender/node.toml >"$root/DEBIAN/conffiles"

cat >"$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# tender postinst (Scripts/package-deb.sh): the node's user, its data directory, and the
# daemons told about the new files, each only when it runs (a chroot or an image build has
# none of them).
set -e
if [ "$1" = configure ]; then
    if ! getent group tender >/dev/null; then
        addgroup --system --quiet tender
    fi
    if ! getent passwd tender >/dev/null; then
        adduser --system --quiet --ingroup tender --home /var/lib/tender --no-create-home \
            --shell /usr/sbin/nologin --gecos "Tender payment node" tender
    fi
    # The distribution's D-Bus policy for BlueZ gives its bluetooth group access too.
    if getent group bluetooth >/dev/null; then
        adduser --quiet tender bluetooth >/dev/null
    fi
    # The data directory before the first start, so `tender init` can run as tender
    # (Hardware/README.md); the unit's StateDirectory= keeps it 0700 tender:tender.
    install -d -o tender -g tender -m 0700 /var/lib/tender
    install -d -o root -g root -m 0755 /etc/tender
    if [ -d /run/udev ] && command -v udevadm >/dev/null; then
        udevadm control --reload-rules || true
        udevadm trigger --action=change --subsystem-match=video4linux \
            --subsystem-match=usbmisc --subsystem-match=bluetooth || true
    fi
    # D-Bus: the dbus package's own trigger on /usr/share/dbus-1/system.d reloads the bus.
fi
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] \
    || [ "$1" = abort-remove ]; then
    # Not enabled here: the wallet and its passphrase come first (Hardware/README.md). The
    # state is recorded so that purge removes an enablement made later.
    deb-systemd-helper unmask tender-node.service >/dev/null || true
    deb-systemd-helper update-state tender-node.service >/dev/null || true
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        # An upgrade: a running node restarts on the new binary.
        deb-systemd-invoke try-restart tender-node.service >/dev/null || true
    fi
fi
exit 0
EOF

cat >"$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
# tender prerm (Scripts/package-deb.sh): the node stops before its files go (an upgrade
# restarts it from postinst instead).
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    deb-systemd-invoke stop tender-node.service >/dev/null || true
fi
exit 0
EOF

cat >"$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
# tender postrm (Scripts/package-deb.sh). remove: the unit masked until purge or reinstall
# (as debhelper does). purge: the enablement, the data, the passphrase, the user and the
# group go; a wallet does not vanish with them: it is moved to /var/backups/tender-DATE/
# (root only) with its passphrase, since its keys may hold money. Delete that yourself.
set -e
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
# postrm may run when its dependencies are gone: every helper is looked for first.
helper=/usr/bin/deb-systemd-helper
if [ "$1" = remove ] && [ -x $helper ]; then
    $helper mask tender-node.service >/dev/null || true
fi
if [ "$1" = purge ]; then
    if [ -x $helper ]; then
        $helper purge tender-node.service >/dev/null || true
        $helper unmask tender-node.service >/dev/null || true
    fi
    if [ -d /var/lib/tender ]; then
        # Anything but the API token may be (or belong to) a wallet: keys, databases.
        if [ -n "$(find /var/lib/tender -mindepth 1 ! -name api-token -print -quit)" ]; then
            backup=/var/backups/tender-$(date +%Y%m%d-%H%M%S)
            [ -d /var/backups ] || install -d -m 0755 /var/backups
            mv /var/lib/tender "$backup"
            if [ -f /etc/tender/passphrase ]; then mv /etc/tender/passphrase "$backup/passphrase"; fi
            chown -R root:root "$backup"
            chmod 0700 "$backup"
            echo "tender: the wallet is kept in $backup (root only); delete it when you no longer need it"
        else
            rm -rf /var/lib/tender
        fi
    fi
    rm -f /etc/tender/passphrase
    rmdir /etc/tender 2>/dev/null || true
    rm -rf /run/tender
    if getent passwd tender >/dev/null; then
        # Fails while a process still runs as tender (one started by hand): said, not fatal.
        if command -v deluser >/dev/null; then deluser --system --quiet tender >/dev/null 2>&1 || true
        else userdel tender >/dev/null 2>&1 || true; fi
        if getent passwd tender >/dev/null; then
            echo "tender: the user tender is still there (a process running as tender?); remove it with deluser --system tender"
        fi
    fi
    if getent group tender >/dev/null; then
        if command -v delgroup >/dev/null; then delgroup --system --quiet tender >/dev/null 2>&1 || true
        else groupdel tender >/dev/null 2>&1 || true; fi
    fi
fi
exit 0
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

mkdir -p "$out"
deb=$(realpath "$out")/tender_${version}_$arch.deb
dpkg-deb --root-owner-group -Z"$compress" --build "$root" "$deb" >/dev/null
echo "package-deb: $deb ($(du -h "$deb" | cut -f1))"
echo "package-deb: Depends: $depends"
