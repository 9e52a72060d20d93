import Foundation
import GRDB
import Tender
import TenderTestSupport
import Testing

@testable import WalletStore

/// The payee's own requests: stored once, read back exactly; a wallet made before requests
/// were stored gains the table on open, its data untouched.
@Suite struct RequestStoreTests {
    let world = World()

    func path() throws -> String {
        try TemporaryDirectory("tender-requests").file("wallet.sqlite")
    }

    @Test func aRequestIsStoredOnceAndReadBackExactly() throws {
        let store = try WalletDatabase(path: try path())
        try store.bind(address: world.bob, domain: world.domain)
        let id = try Bytes32([UInt8](repeating: 0x42, count: 32))
        let request = StoredRequest(
            id: id, asset: world.asset, amount: .max, memo: "two teas", expiry: world.now + 60)
        try store.recordRequest(request, now: world.now)
        #expect(try store.request(id) == request)
        #expect(throws: WalletStoreError.self) { try store.recordRequest(request, now: world.now) }
        #expect(try store.request(.zero) == nil)
    }

    @Test func aWalletFromBeforeRequestsMigratesOnOpen() throws {
        let file = try path()
        let queue = try DatabaseQueue(path: file)
        try Schema.migrator.migrate(queue, upTo: "v1: wallet")
        try queue.close()
        let store = try WalletDatabase(path: file)
        try store.bind(address: world.bob, domain: world.domain)
        let id = try Bytes32([UInt8](repeating: 0x43, count: 32))
        try store.recordRequest(
            StoredRequest(id: id, asset: world.asset, amount: 5, memo: "", expiry: world.now),
            now: world.now)
        #expect(try store.request(id)?.amount == 5)
    }
}
