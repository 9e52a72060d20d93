# A's bluetoothd restarts under a connected peripheral: the link drops, A's node (still running)
# sees bluetoothd leave and come back and registers its application and advertisement again;
# the central then finds it and exchanges again over a new link.
BLE_READY=PERIPHERAL_READY
BLE_TIMEOUT=120
peripheral() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" peripheral; }
central() { python3 "$BLE_SCENARIO_DIR/../nodes/gatt_node.py" central restart-bluetoothd; }
