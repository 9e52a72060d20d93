import DBus

/// A start and a stop method as bluetoothd serves them per D-Bus sender: each hands the
/// caller's unique name to `start` or `stop`, which throw what bluetoothd would answer.
func senderSessionMethods(
    start: String, stop: String,
    onStart: @escaping @Sendable (String) async throws(DBusError) -> Void,
    onStop: @escaping @Sendable (String) async throws(DBusError) -> Void
) -> [String: MethodHandler] {
    [
        start: { call throws(DBusError) in
            try await onStart(call.sender ?? "")
            return []
        },
        stop: { call throws(DBusError) in
            try await onStop(call.sender ?? "")
            return []
        },
    ]
}
