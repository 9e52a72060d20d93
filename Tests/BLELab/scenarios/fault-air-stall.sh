# The air stalls for 5 s during a session: a write started then completes after the stall, its
# notification follows, and the link is still up.
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=90
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" central air-stall; }
