import Cashu
import CashuMint
import ChainTestSupport
import Codecs
import Foundation
import Secp256k1
import Testing

/// Mints that are not there or do not answer: typed errors naming the mint without its
/// credentials.
@Suite struct UnreachableMintTests {
    /// Port 9 (discard): no test binds it, and a port from `freePort` could be taken by another
    /// suite's rig before this test connects.
    @Test func aMintNotListeningIsUnreachable() async throws {
        let port = 9
        try await withMint("http://alice:hunter2@127.0.0.1:\(port)/") { mint in
            #expect(mint.url == "http://alice:hunter2@127.0.0.1:\(port)")
            do {
                _ = try await mint.info()
                Issue.record("no error from a port nothing listens on")
            } catch let error as MintError {
                guard case .unreachable = error.kind else { throw error }
                #expect(!error.description.contains("hunter2"), "\(error)")
                #expect(error.description.contains("***@127.0.0.1:\(port)"), "\(error)")
            }
        }
    }

    @Test func aMintThatNeverAnswersTimesOut() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        try await withMint("http://127.0.0.1:\(listener.port)", timeout: .milliseconds(300)) {
            mint in
            do {
                _ = try await mint.keysetStates()
                Issue.record("no error from a mint that never answers")
            } catch let error as MintError {
                #expect(error.kind == .timeout, "\(error)")
            }
        }
    }

    @Test func aShortKeysetIDIsNotSent() async throws {
        let port = try Shell.freePort()
        let key = try PrivateKey(bytes: [UInt8](repeating: 7, count: 32)).publicKey
        let short = try Hex.decode("01859a534f3cdccc")
        let proof = Proof(amount: 2, keysetID: short, secret: "s", signature: key)
        try await withMint("http://127.0.0.1:\(port)") { mint in
            do {
                _ = try await mint.swap(inputs: [proof], outputs: [])
                Issue.record("a short keyset id was sent")
            } catch let error as MintError {
                // Refused before any connection: a dead port would say unreachable.
                guard case .invalidRequest(let what) = error.kind else { throw error }
                #expect(what.contains("inputs[0].id"))
            }
        }
    }

    private func withMint(
        _ url: String, timeout: Duration = .seconds(600), _ body: (MintClient) async throws -> Void
    ) async throws {
        let client = MintClient.makeHTTPClient()
        do { try await body(MintClient(url: url, client: client, timeout: timeout)) } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}

/// A TCP port that accepts connections (the kernel's backlog) and never answers.
struct SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, listening else { throw MintTestFailure("listen: errno \(errno)") }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
