# Smoke: A advertises a GATT service (read, write, notify); B discovers it by service UUID,
# connects, waits for ServicesResolved, StartNotify, WriteValue, gets the notification,
# ReadValue, disconnects. (Tests/BLELab/nodes/gatt_node.py)
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=90
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" central smoke; }
