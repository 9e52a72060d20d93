#!/usr/bin/python3
"""GATT nodes for the BLE lab's own scenarios (Tests/BLELab/scenarios), built on
Hardware/ble-lab/lib/blelab.py.

  gatt_node.py peripheral
      One service with an "exchange" characteristic (read, write, notify): a write is kept (read
      returns it) and answered with the notification b"ack:" + value. Registers again whenever
      bluetoothd comes back; prints PERIPHERAL_READY after each registration and raises the event
      registered-N (N-th registration of this process); raises peripheral-saw-disconnect-N when
      a central's link ends.
  gatt_node.py central FLOW
      smoke               discover by service UUID, connect, wait for ServicesResolved, find the
                          characteristic (retried: it may come late), StartNotify, WriteValue,
                          the notification, ReadValue, disconnect
      restart-bluetoothd  an exchange, then VM A's bluetoothd restarts: the link drops, the
                          peripheral registers again, a second exchange over a new link
      kill-peripheral     an exchange, then the peripheral's process is SIGKILLed and started
                          again: a second exchange (over the same link if it survived)
      air-cut             an exchange, then the air is cut for 6 s: both sides see the link end,
                          the central connects again (only possible after the cut), exchanges
      air-stall           connected, the air stalls 5 s: an exchange started then completes
                          after the stall, over the same link
Exit status 0 when the flow passed; the reason is logged otherwise.
"""
import os
import re
import sys
import time

import dbus

from blelab import Central, Characteristic, Peripheral, fault, log, pump, signal, wait, wait_until

SERVICE = '5e1d0001-7e4d-4b1a-9c3e-7a3b2f1c0d01'
EXCHANGE = '5e1d0002-7e4d-4b1a-9c3e-7a3b2f1c0d01'


def peripheral():
    state = {'value': b'hello', 'disconnects': 0}

    def write(value, options):
        state['value'] = value
        log('WriteValue <-', value)
        exchange.notify(b'ack:' + value)

    def connection(path, connected):
        if not connected:
            state['disconnects'] += 1
            signal('peripheral-saw-disconnect-%d' % state['disconnects'], path)

    exchange = Characteristic(EXCHANGE, ['read', 'write', 'notify'], read=lambda: state['value'], write=write)
    node = Peripheral(SERVICE, [exchange], name='ble-lab-A', on_connection=connection)
    registered = [0]

    def watch_registrations():
        if node.registrations > registered[0]:
            registered[0] = node.registrations
            signal('registered-%d' % registered[0])
        return True
    node.start()
    from gi.repository import GLib
    GLib.timeout_add(100, watch_registrations)
    GLib.MainLoop().run()


def exchange(central, device, payload, timeout=20):
    """Write payload, expect the ack notification and read it back; True when all agree."""
    path = central.characteristic(device, EXCHANGE)
    if not path:
        log('FAIL: no exchange characteristic on', device)
        return False
    started = time.monotonic()
    try:
        values = central.start_notify(path)
        central.gatt(path).WriteValue(dbus.Array(payload, signature='y'), {'type': 'request'}, timeout=timeout)
        if not wait_until(lambda: b'ack:' + payload in values, timeout):
            log('FAIL: no notification for', payload, 'got', values)
            return False
        read = bytes(central.gatt(path).ReadValue({}, timeout=timeout))
    except dbus.exceptions.DBusException as e:
        log('exchange failed:', e.get_dbus_name(), e.get_dbus_message())
        return False
    log('exchange %s ok in %.2f s (notified, read back %s)' % (payload, time.monotonic() - started, read))
    return read == payload


def connect(central):
    device = central.find(SERVICE)
    if device and central.connect(device):
        return device
    return None


def flow_smoke(central):
    device = connect(central)
    if not device or not exchange(central, device, b'pay:42'):
        return False
    central.disconnect(device)
    return wait_until(lambda: not central.connected(device), 10)


def flow_restart_bluetoothd(central):
    device = connect(central)
    if not device or not exchange(central, device, b'before'):
        return False
    ok, answer = fault('restart-bluetoothd', 'A')
    if not ok:
        return False
    if not wait_until(lambda: not central.connected(device), 15):
        log('FAIL: still connected after the peer bluetoothd restarted')
        return False
    log('link dropped by the restart; waiting for the peripheral to register again')
    if wait('registered-2', 30) is None:
        return False
    device = connect(central)
    return bool(device) and exchange(central, device, b'after-restart')


def flow_kill_peripheral(central):
    device = connect(central)
    if not device or not exchange(central, device, b'before'):
        return False
    ok, answer = fault('kill-node', 'A')
    if not ok:
        return False
    for attempt in range(1, 4):
        if central.connected(device):
            log('attempt %d over the same link' % attempt)
        else:
            log('attempt %d: the link is gone, connecting again' % attempt)
            device = connect(central)
            if not device:
                continue
        if exchange(central, device, b'after-kill'):
            return True
        central.disconnect(device)
        pump(1)
    return False


def flow_air_cut(central, seconds=6):
    device = connect(central)
    if not device or not exchange(central, device, b'before'):
        return False
    cut_at = time.monotonic()
    ok, answer = fault('air-cut', seconds)
    if not ok:
        return False
    if not wait_until(lambda: not central.connected(device), 10):
        log('FAIL: still connected after the cut')
        return False
    log('central saw the link end %.2f s after the cut began' % (time.monotonic() - cut_at))
    if wait('peripheral-saw-disconnect-1', 10) is None:
        log('FAIL: the peripheral did not see the link end')
        return False
    log('peripheral saw it too')
    # Reconnect to the known device, as a node would: nothing may be heard during the cut.
    if not central.connect(device, timeout=40):
        return False
    back = time.monotonic() - cut_at
    log('connected again %.2f s after the cut began (cut: %d s)' % (back, seconds))
    if back < seconds - 0.5:
        log('FAIL: reached the peripheral during the cut')
        return False
    return exchange(central, device, b'after-cut')


def stalls_over():
    """The relay's "stall over: N + M held ACL packets delivered" lines so far (the air's log,
    beside the scenarios' folders on the share), as (N, M) pairs."""
    path = os.path.join(os.path.dirname(os.environ['BLE_OUT']), 'air.log')
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        return []
    found = [re.search(r'stall over: (\d+) \+ (\d+) held', line) for line in lines]
    return [(int(m.group(1)), int(m.group(2))) for m in found if m]


def flow_air_stall(central, seconds=5):
    device = connect(central)
    if not device or not exchange(central, device, b'before'):
        return False
    earlier = len(stalls_over())
    ok, answer = fault('air-stall', seconds)
    if not ok:
        return False
    started = time.monotonic()
    if not exchange(central, device, b'stalled', timeout=seconds + 60):
        return False
    log('exchange across the stall took %.2f s' % (time.monotonic() - started))
    # The relay's own count, not a time (the fault's answer may reach this VM late when the
    # machine is busy): the write made during the stall was held and delivered after it.
    reported = []

    def stall_reported():
        reported[:] = stalls_over()[earlier:]  # one read of the log a look
        return bool(reported)

    if not wait_until(stall_reported, 60):
        log('FAIL: the relay never reported the stall over')
        return False
    held = reported[0]
    log('the relay held %d + %d ACL packets' % held)
    if sum(held) == 0:
        log('FAIL: the stall held nothing')
        return False
    return central.connected(device)


FLOWS = {'smoke': flow_smoke, 'restart-bluetoothd': flow_restart_bluetoothd,
         'kill-peripheral': flow_kill_peripheral, 'air-cut': flow_air_cut, 'air-stall': flow_air_stall}

if __name__ == '__main__':
    if sys.argv[1:] == ['peripheral']:
        peripheral()
    elif len(sys.argv) == 3 and sys.argv[1] == 'central' and sys.argv[2] in FLOWS:
        passed = FLOWS[sys.argv[2]](Central())
        log('RESULT', sys.argv[2], 'PASS' if passed else 'FAIL')
        sys.exit(0 if passed else 1)
    else:
        sys.exit(__doc__)
