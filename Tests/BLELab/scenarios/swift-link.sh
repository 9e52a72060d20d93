# Tender's windowed link over GATT (Bluetooth module: CentralLink, PeripheralLinks) on real
# bluetoothd, on the Link defaults: a small message and a 30 kB one, each acknowledged and
# answered ("ble-probe: link RATE kB/s").
BLE_READY=PROBE_READY
BLE_TIMEOUT=150
peripheral() { "$(dirname "$TENDER")/BLEProbe" link-peripheral; }
central() { "$(dirname "$TENDER")/BLEProbe" link-central --bytes 30000; }
