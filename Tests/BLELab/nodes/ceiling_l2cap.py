#!/usr/bin/python3
"""How fast the lab's virtual air carries an LE L2CAP connection-oriented channel (credit based)
(Tests/BLELab/scenarios/ceiling-l2cap.sh).

  ceiling_l2cap.py peripheral
      Listens on LE PSM 0x0081 (dynamic range 0x0080-0x00ff), advertises a service UUID so the
      central can find it, accepts one channel and counts bytes until the end of the stream;
      then raises got-l2cap "BYTES FIRST LAST" once all the bytes the central announced
      (event l2cap-bytes) arrived, the stream ended, or nothing came for 10 s.
  ceiling_l2cap.py central [BYTES]
      Finds and connects to the peripheral (Device1.Connect: the LE link), opens the channel on
      that link, sends BYTES (default 100000) in SDUs of the channel's send MTU, closes, and
      prints "ble-ceiling: l2cap-coc RATE kB/s DELIVERED %" (kB = 1000 bytes; rate at the receiver).
Both ends bind with the LE public address type: Python's socket module cannot pass an L2CAP
address type, so bind() and connect() go through libc with a struct sockaddr_l2 made here.
Without it the kernel treats the channel as BR/EDR (basic mode) and the receiver gets nothing.
"""
import ctypes
import os
import socket
import struct
import sys
import time

from gi.repository import GLib

from blelab import Central, Peripheral, log, signal, wait

SERVICE = '5e1d0201-7e4d-4b1a-9c3e-7a3b2f1c0d01'
PSM = 0x0081
BDADDR_LE_PUBLIC, BDADDR_LE_RANDOM = 1, 2
SOL_BLUETOOTH, BT_SNDMTU, BT_RCVMTU = 274, 12, 13
libc = ctypes.CDLL(None, use_errno=True)


def sockaddr_l2(address, psm, address_type):
    """struct sockaddr_l2: family, psm (le16), bdaddr (reversed), cid (le16), bdaddr_type."""
    bdaddr = bytes(reversed(bytes.fromhex(address.replace(':', ''))))
    return struct.pack('<HH6sHBx', socket.AF_BLUETOOTH, psm, bdaddr, 0, address_type)


def call(function, sock, address):
    if function(sock.fileno(), address, len(address)) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def l2cap_socket():
    return socket.socket(socket.AF_BLUETOOTH, socket.SOCK_SEQPACKET, socket.BTPROTO_L2CAP)


def peripheral():
    server = l2cap_socket()
    call(libc.bind, server, sockaddr_l2('00:00:00:00:00:00', PSM, BDADDR_LE_PUBLIC))
    server.listen(1)
    log('listening on LE PSM 0x%04x' % PSM)

    def accept(fd, condition):
        channel, peer = server.accept()
        log('channel from', peer, 'receive MTU', channel.getsockopt(SOL_BLUETOOTH, BT_RCVMTU))
        total = int(wait('l2cap-bytes', 10) or 0)
        channel.settimeout(10)
        got, first, last = 0, 0.0, 0.0
        while not total or got < total:
            try:
                data = channel.recv(65536)
            except socket.timeout:
                log('nothing for 10 s')
                break
            if not data:
                break
            last = time.monotonic()
            first = first or last
            got += len(data)
        log('received', got, 'bytes in %.3f s' % (last - first))
        signal('got-l2cap', '%d %.6f %.6f' % (got, first, last))
        channel.close()
        return True
    GLib.io_add_watch(server.fileno(), GLib.IO_IN, accept)
    Peripheral(SERVICE, [], name='ble-lab-l2cap').start()
    GLib.MainLoop().run()


def central(total):
    node = Central()
    device = node.find(SERVICE)
    if not device or not node.connect(device):
        return False
    signal('l2cap-bytes', total)
    address = str(node.device_property(device, 'Address'))
    kind = BDADDR_LE_RANDOM if node.device_property(device, 'AddressType') == 'random' else BDADDR_LE_PUBLIC
    channel = l2cap_socket()
    try:
        call(libc.bind, channel, sockaddr_l2('00:00:00:00:00:00', 0, BDADDR_LE_PUBLIC))
        started = time.monotonic()
        call(libc.connect, channel, sockaddr_l2(address, PSM, kind))
    except OSError as e:
        log('FAIL: L2CAP connect to', address, 'PSM 0x%04x:' % PSM, e)
        return False
    sdu = channel.getsockopt(SOL_BLUETOOTH, BT_SNDMTU)
    log('channel open in %.2f s, send MTU %d' % (time.monotonic() - started, sdu))
    block = bytes(range(256)) * (sdu // 256 + 1)
    sent, started = 0, time.monotonic()
    while sent < total:
        sent += channel.send(block[:min(sdu, total - sent)])
    log('handed', sent, 'bytes to the kernel in %.2f s' % (time.monotonic() - started))
    # Closing drops what still waits for credits: close once the receiver has it all.
    report = wait('got-l2cap', 60)
    channel.close()
    got, first, last = (report or '0 0 0').split()
    got, seconds = int(got), float(last) - float(first)
    print('ble-ceiling: l2cap-coc %.2f kB/s %.1f %%' % (got / seconds / 1000 if seconds > 0 else 0.0,
                                                       100.0 * got / total), flush=True)
    node.disconnect(device)
    return got == total


if __name__ == '__main__':
    if sys.argv[1:] == ['peripheral']:
        peripheral()
    elif sys.argv[1:2] == ['central']:
        passed = central(int(sys.argv[2]) if len(sys.argv) > 2 else 100000)
        log('RESULT', 'PASS' if passed else 'FAIL')
        sys.exit(0 if passed else 1)
    else:
        sys.exit(__doc__)
