import BlueZ

/// A link that carries whole messages between a payer and a payee: the windowed link over GATT
/// (`CentralLink`) or an LE L2CAP channel (`L2CAPChannel`). The payment session runs the same
/// over either.
public protocol MessageLink: Actor {
    func send(_ message: [UInt8]) async throws(BluetoothError)
    /// The next message, or a failure after `timeout` or when the link ends.
    func receive(timeout: Duration) async throws(BluetoothError) -> [UInt8]
    func closeLink() async
    /// Bytes this side put on the air and took from it (headers included), for the figures.
    var bytesWritten: Int { get }
    var bytesRead: Int { get }
}

extension CentralLink: MessageLink {
    public func closeLink() async { await close(.done) }
}

extension L2CAPChannel: MessageLink {
    public func closeLink() async { close() }
}
