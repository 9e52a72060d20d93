# The raw link's ceiling for an LE L2CAP connection-oriented channel (PSM 0x0081, both ends
# bound with the LE public address type). Prints "ble-ceiling: l2cap-coc RATE kB/s DELIVERED %".
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=120
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/ceiling_l2cap.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/ceiling_l2cap.py" central 100000; }
