# Messages over an LE L2CAP channel through Tender's own code (Bluetooth module: L2CAPChannel,
# L2CAPListener, the Link's packet framing) on real bluetoothd: a small message and a 100 kB
# one, each answered ("ble-probe: l2cap RATE kB/s"); compare with ceiling-l2cap.sh.
BLE_READY=PROBE_READY
BLE_TIMEOUT=120
peripheral() { "$(dirname "$TENDER")/BLEProbe" l2cap-peripheral; }
central() { "$(dirname "$TENDER")/BLEProbe" l2cap-central --bytes 100000; }
