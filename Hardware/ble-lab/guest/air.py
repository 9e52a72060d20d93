#!/usr/bin/python3
"""The air between the BLE lab's two VMs (Hardware/ble-lab/run.sh), run in VM A.

  air.py relay BTVIRT_SOCKET SERIAL CONTROL_SOCKET
      Connects to btvirt's LE server socket, which creates VM B's controller, and relays HCI
      (H4 framing) between it and the serial port that leads to VM B, packet by packet, so it
      can change what the air carries when asked on CONTROL_SOCKET:
        cut S    every link between the VMs ends with reason 0x08 (connection timeout), seen
                 by both hosts as a supervision timeout; then for S seconds B hears no
                 advertising and its connection attempts fail (0x3e), as when out of range.
        stall S  links stay up, but their data (ACL) is held in both directions for S
                 seconds, then delivered in order: a link that stops moving, then recovers.
  air.py control CONTROL_SOCKET cut|stall SECONDS
      Asks the relay; prints its answer.
  Advertising heard again: btvirt sends an advertising report only when scanning (or
      advertising) is switched on, where a real radio hears an advertiser at every interval.
      While B's host scans, the relay switches B's scanning off and on again every
      BLE_LAB_AIR_REPORTS seconds (default 1; 0: never, btvirt's own behaviour), so a report
      lost while discovery was starting, or hidden by a cut, comes again as it would on air.

Why here: btvirt has no radio model. It ends links only when one host asks (HCI Disconnect),
and drops them silently when a controller goes away (a restarted relay, an HCI Reset), which
leaves the other host with a link that never ends. So a cut is made of what a real controller
would report: a Disconnection Complete (0x08) on both sides (an HCI Disconnect injected on B's
controller, whose Command Status B's host must not see), then a deaf B until the air is back.
"""
import collections
import os
import select
import socket
import sys
import termios
import time
import tty

H4_HEADER = {0x01: 3, 0x02: 4, 0x03: 3, 0x04: 2, 0x05: 4}  # command, ACL, SCO, event, ISO
EVT_DISCONNECT_COMPLETE, EVT_COMMAND_STATUS, EVT_LE_META = 0x05, 0x0F, 0x3E
LE_CONN_COMPLETE, LE_ENHANCED_CONN_COMPLETE = 0x01, 0x0A
LE_ADVERTISING_REPORTS = (0x02, 0x0B, 0x0D)  # legacy, direct, extended
EVT_COMMAND_COMPLETE = 0x0E
OP_DISCONNECT, OP_LE_CREATE_CONN, OP_LE_EXT_CREATE_CONN = 0x0406, 0x200D, 0x2043
OP_LE_SET_SCAN_ENABLE = 0x200C
NOBODY = bytes([0x0E, 0xDE, 0xFA, 0xCE, 0xAD, 0xDE])  # an address no btvirt controller has


def log(*words):
    now = time.time()
    stamp = time.strftime('%H:%M:%S', time.localtime(now)) + '.%03d' % (now % 1 * 1000)
    print('air %s:' % stamp, *words, flush=True)


def payload_length(kind, header):
    if kind in (0x01, 0x03):
        return header[2]
    if kind == 0x04:
        return header[1]
    length = header[2] | header[3] << 8
    return length & 0x3FFF if kind == 0x05 else length


class Framer:
    """Cuts a byte stream into whole H4 packets. Bytes it cannot frame are passed on as they
    are (and framing stops for good on that direction): the relay must never lose the link."""

    def __init__(self, name):
        self.name, self.buffer, self.lost = name, bytearray(), False

    def packets(self, data):
        if self.lost:
            return [bytes(data)]
        self.buffer += data
        out = []
        while self.buffer:
            kind = self.buffer[0]
            if kind not in H4_HEADER:
                log('cannot frame', self.name, 'at byte 0x%02x: relaying it unframed from now on' % kind)
                self.lost = True
                out.append(bytes(self.buffer))
                self.buffer.clear()
                break
            size = H4_HEADER[kind]
            if len(self.buffer) < 1 + size:
                break
            total = 1 + size + payload_length(kind, self.buffer[1:1 + size])
            if len(self.buffer) < total:
                break
            out.append(bytes(self.buffer[:total]))
            del self.buffer[:total]
        return out


class Air:
    def __init__(self, controller, serial):
        self.controller, self.serial = controller, serial  # socket to btvirt, fd of ttyS1
        self.links = set()  # connection handles open on B's controller
        # Every command given to the controller, in order: (opcode, injected). btvirt answers
        # them in order, so the answer (Command Complete or Status) to one we injected is known
        # and kept from B's host, which never sent it.
        self.outstanding = collections.deque()
        self.scan = None  # B's host's last LE Set Scan Enable parameters
        self.cut_until = self.stall_until = 0.0
        self.held_to_controller, self.held_to_host = [], []
        self.report_every = float(os.environ.get('BLE_LAB_AIR_REPORTS', '1'))
        self.next_report = time.monotonic() + self.report_every

    def command(self, opcode, params, injected):
        self.outstanding.append((opcode, injected))
        self.controller.sendall(bytes([0x01, opcode & 0xFF, opcode >> 8, len(params)]) + bytes(params))

    def cut(self):
        return time.monotonic() < self.cut_until

    def stalled(self):
        return time.monotonic() < self.stall_until

    # B's host -> B's controller (btvirt)
    def from_host(self, packet):
        kind = packet[0]
        if kind == 0x02:
            if self.stalled():
                self.held_to_controller.append(packet)
                return
            if self.cut():
                return
        if kind == 0x01:
            opcode = packet[1] | packet[2] << 8
            offset = {OP_LE_CREATE_CONN: 4 + 6, OP_LE_EXT_CREATE_CONN: 4 + 3}.get(opcode)
            if offset is not None and self.cut():  # out of range: aim at nobody, so it fails
                packet = packet[:offset] + NOBODY + packet[offset + 6:]
                log('connection attempt during the cut: made to fail')
            if opcode == OP_LE_SET_SCAN_ENABLE:
                self.scan = packet[4:6]
            self.outstanding.append((opcode, False))
        self.controller.sendall(packet)

    # B's controller -> B's host
    def from_controller(self, packet):
        kind = packet[0]
        if kind == 0x02:
            if self.stalled():
                self.held_to_host.append(packet)
                return
            if self.cut():
                return
        if kind == 0x04 and not self.event(packet[1], packet[3:]):
            return
        write_all(self.serial, packet)

    def event(self, code, params):
        """Tracks links; returns False for an event B's host must not see."""
        if code == EVT_DISCONNECT_COMPLETE and params[0] == 0:
            self.links.discard(params[1] | params[2] << 8)
        elif code in (EVT_COMMAND_COMPLETE, EVT_COMMAND_STATUS):
            at = 1 if code == EVT_COMMAND_COMPLETE else 2
            opcode = params[at] | params[at + 1] << 8
            for entry in self.outstanding:
                if entry[0] == opcode:
                    self.outstanding.remove(entry)
                    return not entry[1]
        elif code == EVT_LE_META:
            sub = params[0]
            if sub in (LE_CONN_COMPLETE, LE_ENHANCED_CONN_COMPLETE) and params[1] == 0:
                self.links.add(params[2] | params[3] << 8)
            elif sub in (LE_CONN_COMPLETE, LE_ENHANCED_CONN_COMPLETE) and params[6:12] == NOBODY:
                log('connection attempt failed (status 0x%02x)' % params[1])
            elif sub in LE_ADVERTISING_REPORTS and self.cut():
                return False
        return True

    def start_cut(self, seconds):
        ended = sorted(self.links)
        for handle in ended:  # HCI Disconnect, reason 0x08: btvirt tells both hosts
            self.command(OP_DISCONNECT, [handle & 0xFF, handle >> 8, 0x08], injected=True)
        self.cut_until = time.monotonic() + seconds
        return 'cut for %g s; links ended (reason 0x08): %s' % (
            seconds, ', '.join('0x%04x' % h for h in ended) or 'none')

    def start_stall(self, seconds):
        self.stall_until = time.monotonic() + seconds
        return 'stalled for %g s; links: %s' % (seconds, ', '.join('0x%04x' % h for h in sorted(self.links)) or 'none')

    def tick(self):
        """Ends a cut or a stall whose time is up; returns seconds until the next one ends."""
        now = time.monotonic()
        if self.cut_until and now >= self.cut_until:
            self.cut_until = 0.0
            log('cut over: the air is back')
            self.next_report = now
        if self.report_every and now >= self.next_report:
            self.next_report = now + self.report_every
            self.hear_advertisers()
        if self.stall_until and now >= self.stall_until:
            self.stall_until = 0.0
            up, down = self.held_to_controller, self.held_to_host
            self.held_to_controller, self.held_to_host = [], []
            for packet in up:
                self.controller.sendall(packet)
            for packet in down:
                write_all(self.serial, packet)
            log('stall over: %d + %d held ACL packets delivered' % (len(up), len(down)))
        ends = [t - now for t in (self.cut_until, self.stall_until, self.report_every and self.next_report) if t]
        return max(min(ends), 0.01) if ends else None

    def hear_advertisers(self):
        """Scanning off and on again: btvirt then reports every advertiser in range to B."""
        if self.scan and self.scan[0] == 1 and not self.cut():
            self.command(OP_LE_SET_SCAN_ENABLE, [0, self.scan[1]], injected=True)
            self.command(OP_LE_SET_SCAN_ENABLE, [1, self.scan[1]], injected=True)


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def open_serial(path):
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    attributes = termios.tcgetattr(fd)
    attributes[2] = (attributes[2] & ~termios.CRTSCTS) | termios.CLOCAL | termios.CREAD
    # 115200 (the 16550's top speed): QEMU raises a partly filled receive FIFO's interrupt
    # after four character times, so a slow setting (9600 by default) delays every packet.
    attributes[4] = attributes[5] = termios.B115200
    termios.tcsetattr(fd, termios.TCSANOW, attributes)
    return fd


def connect_controller(path):
    for _ in range(100):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            return sock
        except OSError:
            time.sleep(0.1)
    sys.exit('air: cannot connect to ' + path)


def relay(controller_path, serial_path, control_path):
    controller = connect_controller(controller_path)
    serial = open_serial(serial_path)
    control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(control_path):
        os.unlink(control_path)
    control.bind(control_path + '.tmp')
    control.listen(4)
    os.rename(control_path + '.tmp', control_path)  # its appearance means: relaying
    air = Air(controller, serial)
    up, down = Framer('host->controller'), Framer('controller->host')
    log('relaying', controller_path, '<->', serial_path)
    while True:
        readable, _, _ = select.select([controller, serial, control], [], [], air.tick())
        if serial in readable:
            for packet in up.packets(os.read(serial, 4096)):
                air.from_host(packet)
        if controller in readable:
            data = controller.recv(4096)
            if not data:
                sys.exit('air: btvirt closed the controller socket')
            for packet in down.packets(data):
                air.from_controller(packet)
        if control in readable:
            client, _ = control.accept()
            with client:
                words = client.recv(256).decode().split()
                if len(words) == 2 and words[0] in ('cut', 'stall'):
                    answer = (air.start_cut if words[0] == 'cut' else air.start_stall)(float(words[1]))
                else:
                    answer = 'unknown request: ' + ' '.join(words)
                log(answer)
                client.sendall(answer.encode() + b'\n')


def control(control_path, *words):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(control_path)
        sock.sendall(' '.join(words).encode())
        answer = sock.recv(4096).decode().strip()
    print(answer)
    return 0 if answer.startswith(words[0]) else 1


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'relay':
        relay(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'control':
        sys.exit(control(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
