"""Runs a command under the seccomp filters a systemd unit asks for, as systemd 252 (Debian 12,
Raspberry Pi OS Bookworm) builds them, so a test can show the program survives them on a
machine where systemd is not PID 1. Hardware/systemd/tender-node.service is the unit;
Tests/Hardware/hardware-tests.sh does the rest of the sandbox (user, mounts, capabilities).

    python3 unit_sandbox.py UNIT -- COMMAND [ARGS...]

Reads from the unit's [Service] section:
  SystemCallFilter=        the allow list (groups expanded by `systemd-analyze syscall-filter`)
                           minus every "~" line; anything else kills the process (SIGSYS),
                           as systemd does without SystemCallErrorNumber=
  SystemCallArchitectures=native   libseccomp's default: other ABIs fall to the allow list
  RestrictAddressFamilies= socket() with any other family fails with EAFNOSUPPORT
  MemoryDenyWriteExecute=  mmap of writable+executable memory, mprotect/pkey_mprotect adding
                           PROT_EXEC and shmat with SHM_EXEC fail with EPERM
  RestrictNamespaces=yes   unshare/clone with a namespace flag and setns fail with EPERM,
                           clone3 with ENOSYS (its flags cannot be inspected; glibc falls back)
  LockPersonality=yes      personality() with anything but PER_LINUX fails with EPERM
  RestrictRealtime=yes     sched_setscheduler to a realtime policy fails with EPERM
NoNewPrivileges is set by libseccomp when it loads a filter. Prints one line per filter to
stderr, then execs COMMAND (its process id stays the same).
"""

import errno
import os
import re
import subprocess
import sys

import seccomp

AF = {
    "AF_UNIX": 1, "AF_LOCAL": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16,
    "AF_PACKET": 17, "AF_BLUETOOTH": 31, "AF_CAN": 29, "AF_ALG": 38, "AF_VSOCK": 40,
}
AF_MAX = 46
PROT_WRITE, PROT_EXEC, SHM_EXEC = 0x2, 0x4, 0o100000
NAMESPACE_FLAGS = (
    0x00020000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x02000000
)  # CLONE_NEWNS, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWCGROUP
SCHED_FIFO, SCHED_RR, SCHED_DEADLINE = 1, 2, 6


def service_settings(path):
    """Every KEY=VALUE of the [Service] section, a list per key (continuation lines joined)."""
    settings, section, pending = {}, None, ""
    for raw in open(path, encoding="utf-8"):
        line = pending + raw.rstrip("\n")
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]" and "=" in line:
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def syscall_groups():
    """systemd's named sets, as this machine's systemd-analyze lists them."""
    text = subprocess.run(
        ["systemd-analyze", "syscall-filter", "--no-pager"],
        check=True, capture_output=True, text=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.strip())
    return groups


def expand(names, groups, seen=None):
    seen = set() if seen is None else seen
    result = set()
    for name in names:
        if name.startswith("@"):
            if name in seen:
                continue
            seen.add(name)
            if name not in groups:
                sys.exit(f"unit_sandbox: unknown syscall group {name}")
            result |= expand(groups[name], groups, seen)
        else:
            result.add(name)
    return result


def yes(settings, key):
    return settings.get(key, ["no"])[-1].lower() in ("yes", "true", "1", "on")


def add(filter_, action, name, *args):
    """A rule, unless this architecture has no such system call (systemd skips those too)."""
    try:
        filter_.add_rule(action, name, *args)
        return True
    except (RuntimeError, ValueError, OSError):
        return False


def main():
    if "--" not in sys.argv or sys.argv.index("--") != 2:
        sys.exit(__doc__)
    unit, command = sys.argv[1], sys.argv[3:]
    settings = service_settings(unit)
    say = lambda text: print(f"unit_sandbox: {text}", file=sys.stderr)
    filters = []

    families = " ".join(settings.get("RestrictAddressFamilies", [])).split()
    if families:
        if families[0].startswith("~"):
            sys.exit("unit_sandbox: only allow-list RestrictAddressFamilies= is emulated")
        allowed = {AF[name] for name in families}
        f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        for family in range(AF_MAX):
            if family not in allowed:
                add(f, seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, family))
        filters.append((f, f"RestrictAddressFamilies: {' '.join(families)}"))

    if yes(settings, "MemoryDenyWriteExecute"):
        f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        both = PROT_WRITE | PROT_EXEC
        add(f, seccomp.ERRNO(errno.EPERM), "mmap", seccomp.Arg(2, seccomp.MASKED_EQ, both, both))
        add(f, seccomp.ERRNO(errno.EPERM), "mmap2", seccomp.Arg(2, seccomp.MASKED_EQ, both, both))
        for name in ("mprotect", "pkey_mprotect"):
            add(f, seccomp.ERRNO(errno.EPERM), name, seccomp.Arg(2, seccomp.MASKED_EQ, PROT_EXEC, PROT_EXEC))
        add(f, seccomp.ERRNO(errno.EPERM), "shmat", seccomp.Arg(2, seccomp.MASKED_EQ, SHM_EXEC, SHM_EXEC))
        filters.append((f, "MemoryDenyWriteExecute"))

    if settings.get("RestrictNamespaces", ["no"])[-1].lower() in ("yes", "true"):
        f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        add(f, seccomp.ERRNO(errno.EPERM), "setns")
        for bit in range(64):
            flag = 1 << bit
            if NAMESPACE_FLAGS & flag:
                add(f, seccomp.ERRNO(errno.EPERM), "unshare", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
                add(f, seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
        add(f, seccomp.ERRNO(errno.ENOSYS), "clone3")
        filters.append((f, "RestrictNamespaces"))

    if yes(settings, "LockPersonality"):
        f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        # As systemd: any argument but the current personality (PER_LINUX) is refused.
        add(f, seccomp.ERRNO(errno.EPERM), "personality", seccomp.Arg(0, seccomp.NE, 0))
        filters.append((f, "LockPersonality"))

    if yes(settings, "RestrictRealtime"):
        f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        for policy in (SCHED_FIFO, SCHED_RR, SCHED_DEADLINE):
            add(f, seccomp.ERRNO(errno.EPERM), "sched_setscheduler", seccomp.Arg(1, seccomp.EQ, policy))
        filters.append((f, "RestrictRealtime"))

    lines = settings.get("SystemCallFilter", [])
    if lines:
        groups = syscall_groups()
        allowed, denied = set(), set()
        for line in lines:
            deny = line.startswith("~")
            names = re.split(r"\s+", line.lstrip("~").strip())
            (denied if deny else allowed).update(expand(names, groups))
        if not allowed:
            sys.exit("unit_sandbox: only an allow-list SystemCallFilter= is emulated")
        f = seccomp.SyscallFilter(defaction=seccomp.KILL_PROCESS)
        count = sum(add(f, seccomp.ALLOW, name) for name in sorted(allowed - denied))
        # The allow list goes last: loading the others needs system calls it may refuse.
        filters.append((f, f"SystemCallFilter: {count} system calls allowed, others kill"))

    for f, what in filters:
        f.load()
        say(what)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
