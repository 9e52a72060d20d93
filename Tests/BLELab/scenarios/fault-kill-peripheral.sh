# The peripheral's node is killed (SIGKILL) mid-session and started again by the lab: its
# application and advertisement vanish with it and come back with the new process; the central
# exchanges again (over the same link when it survived, else over a new one).
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=120
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" central kill-peripheral; }
