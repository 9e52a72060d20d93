# The air is cut for 6 s during a session: both sides see the link end (reason: connection
# timeout), the central cannot hear the peripheral until the air is back, then finds it again,
# connects and exchanges.
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=120
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" central air-cut; }
