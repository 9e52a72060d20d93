#!/usr/bin/python3
"""How fast the lab's virtual air carries GATT writes (Tests/BLELab/scenarios/ceiling-gatt.sh).

  ceiling_gatt.py peripheral
      A service with one DATA characteristic (write, write-without-response). Every value
      starts with a one-byte tag naming the path it was sent on; the receiver counts bytes and
      times per tag. When the central raises sent-TAG (the bytes it sent), the peripheral waits
      until all arrived or nothing came for 2 s, then raises got-TAG "BYTES FIRST LAST".
  ceiling_gatt.py central [BYTES]
      Sends BYTES (default 50000) in 244-byte values on each path, one after the other:
        gatt-write-request         WriteValue type=request (write with response, one at a time)
        gatt-write-command-socket  AcquireWrite: the client's socket, one datagram per value
        gatt-write-command-dbus    WriteValue type=command (write without response)
      and prints "ble-ceiling: PATH RATE kB/s DELIVERED %" (kB = 1000 bytes; the rate at the
      receiver from its first to its last byte). 244 bytes: in this lab an ATT value over 244 B
      (a PDU spanning two of btvirt's ACL fragments) is not delivered whatever the MTU.
Then, for the record, one write with response of 245, 300 and 512 bytes each (logged, not judged).
Exit status 0 when every path delivered something, and write-with-response all of it.
"""
import os
import sys
import time

import dbus
from gi.repository import GLib

from blelab import Central, Characteristic, Peripheral, log, signal, wait, wait_until

SERVICE = '5e1d0101-7e4d-4b1a-9c3e-7a3b2f1c0d01'
DATA = '5e1d0102-7e4d-4b1a-9c3e-7a3b2f1c0d01'
VALUE = 244
PATHS = [('R', 'gatt-write-request'), ('S', 'gatt-write-command-socket'), ('C', 'gatt-write-command-dbus')]


def peripheral():
    seen = {}  # tag -> [bytes, first, last]

    def write(value, options):
        if value[:1] == b'X':
            log('oversize probe arrived:', len(value), 'bytes')
            return
        now = time.monotonic()
        entry = seen.setdefault(value[:1], [0, now, now])
        entry[0] += len(value)
        entry[2] = now

    pending = {tag: None for tag, _ in PATHS}  # tag -> bytes sent, once the central said so

    def check():
        for tag, _ in PATHS:
            done = os.path.join(os.environ['BLE_BUS'], 'sent-' + tag)
            if pending[tag] is None and os.path.exists(done):
                with open(done) as f:
                    pending[tag] = (int(f.read()), time.monotonic())
            if pending[tag] and pending[tag] != 'reported':
                total, since = pending[tag]
                got, first, last = seen.get(tag.encode(), [0, 0.0, 0.0])
                quiet = time.monotonic() - max(last, since)
                if got >= total or quiet > 2.0:
                    log('path', tag, 'received', got, 'of', total, 'bytes in %.3f s' % (last - first))
                    signal('got-' + tag, '%d %.6f %.6f' % (got, first, last))
                    pending[tag] = 'reported'
        return True

    data = Characteristic(DATA, ['write', 'write-without-response'], write=write)
    Peripheral(SERVICE, [data], name='ble-lab-ceiling').start()
    GLib.timeout_add(100, check)
    GLib.MainLoop().run()


def send(central, path, tag, total):
    chunk = bytes([ord(tag)]) + bytes(range(VALUE - 1))
    gatt = central.gatt(path)
    sent = 0
    if tag == 'S':
        descriptor, mtu = gatt.AcquireWrite({})
        fd = descriptor.take()
        log('AcquireWrite: socket with MTU', int(mtu))
        os.set_blocking(fd, True)
        while sent < total:
            sent += os.write(fd, chunk[:min(VALUE, total - sent)])
        os.close(fd)
        return sent
    kind = 'request' if tag == 'R' else 'command'
    while sent < total:
        piece = chunk[:min(VALUE, total - sent)]
        gatt.WriteValue(dbus.Array(piece, signature='y'), {'type': kind})
        sent += len(piece)
    return sent


def central(total):
    node = Central()
    device = node.find(SERVICE)
    if not device or not node.connect(device):
        return False
    path = node.characteristic(device, DATA)
    if not path:
        return False
    ok = True
    for tag, name in PATHS:
        started = time.monotonic()
        try:
            sent = send(node, path, tag, total)
        except dbus.exceptions.DBusException as e:
            log(name, 'failed:', e.get_dbus_name(), e.get_dbus_message())
            sent = 0
        log(name, 'handed', sent, 'bytes to BlueZ in %.2f s' % (time.monotonic() - started))
        signal('sent-' + tag, sent)
        report = wait('got-' + tag, 90)
        got, first, last = (report or '0 0 0').split()
        got, seconds = int(got), float(last) - float(first)
        rate = got / seconds / 1000 if seconds > 0 else 0.0
        print('ble-ceiling: %s %.2f kB/s %.1f %%' % (name, rate, 100.0 * got / total), flush=True)
        ok = ok and got > 0 and (tag != 'R' or got == total)
    oversize_probe(node, path)
    node.disconnect(device)
    return ok


def oversize_probe(node, path):
    """Logs what happens to values over 244 bytes (not part of the verdict): BlueZ's answer
    here, their arrival (or not) in the peripheral's log."""
    for size in (245, 300, 512):
        try:
            node.gatt(path).WriteValue(dbus.Array(b'X' * size, signature='y'), {'type': 'request'}, timeout=15)
            log('oversize probe: a %d-byte write with response was accepted' % size)
        except dbus.exceptions.DBusException as e:
            log('oversize probe: a %d-byte write with response failed: %s %s' % (size, e.get_dbus_name(), e.get_dbus_message()))


if __name__ == '__main__':
    if sys.argv[1:] == ['peripheral']:
        peripheral()
    elif sys.argv[1:2] == ['central']:
        passed = central(int(sys.argv[2]) if len(sys.argv) > 2 else 50000)
        log('RESULT', 'PASS' if passed else 'FAIL')
        sys.exit(0 if passed else 1)
    else:
        sys.exit(__doc__)
