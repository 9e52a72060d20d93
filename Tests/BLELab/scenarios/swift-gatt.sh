# Tender's own D-Bus and BlueZ layers on real bluetoothd (Benchmarks/BLEProbe): the probe
# advertises a GATT service; the central discovers it by service UUID, connects, waits for the
# services, subscribes, gets a notification back for a write, then measures 244-byte writes
# by request, by command and through the socket AcquireWrite gives
# ("ble-probe: MODE RATE kB/s DELIVERED %").
BLE_READY=PROBE_READY
BLE_TIMEOUT=150
peripheral() { "$(dirname "$TENDER")/BLEProbe" peripheral; }
central() { "$(dirname "$TENDER")/BLEProbe" central --bytes 30000; }
