# The raw link's ceiling for GATT writes of 244-byte values: write with response, write without
# response through the client's AcquireWrite socket, and through WriteValue type=command.
# Prints "ble-ceiling: PATH RATE kB/s DELIVERED %" lines (Tests/BLELab/nodes/ceiling_gatt.py).
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=150
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/ceiling_gatt.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/ceiling_gatt.py" central 50000; }
