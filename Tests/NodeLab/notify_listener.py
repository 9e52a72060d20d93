"""Stands in for systemd's notify socket: binds a datagram socket at PATH and appends each
message it receives to LOG, one line per assignment. Runs until killed.

    python notify_listener.py PATH LOG
"""

import socket
import sys

path, log = sys.argv[1], sys.argv[2]
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(path)
while True:
    message = listener.recv(4096).decode()
    with open(log, "a") as out:
        out.write(message + "\n")
