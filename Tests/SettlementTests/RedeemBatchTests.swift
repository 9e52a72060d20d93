import Codecs
import Foundation
import Settlement
import Tender
import TenderTestSupport
import Testing

/// The redeem batch against the vault's own encoder: Tests/Vectors/vault-bundles.json carries,
/// for every bundle, the calldata Contracts/tests/tender.py (`Bundle.batch`) builds for it,
/// which the vault's suite sends to the contract.
@Suite struct RedeemBatchTests {
    static let vectors = CalldataVectors.load()
    let domain = Self.vectors.domain

    @Test func everyBundleEncodesByteForByteAsTheVaultsEncoder() throws {
        var compared = 0
        for vector in Self.vectors.bundles {
            // A bundle the node refuses to decode (a high-s signature) is one it never holds.
            guard let bundle = try? ProofBundle.decode(Hex.decode(vector.cbor)) else { continue }
            let coins = try vector.coins.map { try CoinID(hex: $0) }
            let ours = try? RedeemBatch(bundles: [bundle], coins: coins, domain: domain).calldata
            switch (ours, vector.calldata) {
            case (let ours?, let theirs?) where hasRepeats(bundle):
                // A bundle that repeats a note or transfer: ours sends each once (the vault's
                // encoder sends them as given), so the header counts the distinct ones.
                #expect(ours.count < theirs.count / 2, "\(vector.name)")
                #expect(
                    Array(ours[4..<8])
                        == counts(Set(bundle.notes).count, Set(bundle.transfers).count),
                    "\(vector.name)")
            case (let ours?, let theirs?):
                #expect(Hex.encode(ours) == theirs, "\(vector.name)")
                compared += 1
            case (nil, nil): break  // a coin the bundle does not create: no batch names it
            case (nil, _?):
                // Ours refuses what the vault cannot pay: an input nothing creates (the vault's
                // encoder names it by an index past the end and the vault reverts) or a transfer
                // of no inputs (the vault rejects its coins).
                #expect(vector.paysNothing, "\(vector.name): refused, but the vault pays it")
            case (_?, nil): Issue.record("\(vector.name): a batch for a coin no proof creates")
            }
        }
        #expect(compared >= 35)  // of 50: the rest repeat items, or cannot be decoded or paid
    }

    func hasRepeats(_ bundle: ProofBundle) -> Bool {
        Set(bundle.notes).count < bundle.notes.count
            || Set(bundle.transfers).count < bundle.transfers.count
    }

    /// The header's note and transfer counts, big-endian.
    func counts(_ notes: Int, _ transfers: Int) -> [UInt8] {
        [UInt8(notes >> 8), UInt8(notes & 0xFF), UInt8(transfers >> 8), UInt8(transfers & 0xFF)]
    }

    @Test func sharedProofIsSentOnceAndCoinsKeepTheirOrder() throws {
        let vector = try #require(Self.vectors.bundles.first { $0.name == "zero-hop" })
        let bundle = try ProofBundle.decode(Hex.decode(vector.cbor))
        let coins = try vector.coins.map { try CoinID(hex: $0) }
        let once = try RedeemBatch(bundles: [bundle], coins: coins, domain: domain)
        let twice = try RedeemBatch(bundles: [bundle, bundle], coins: coins, domain: domain)
        #expect(twice.calldata == once.calldata)
        #expect(twice.notes.count == bundle.notes.count)
    }

    @Test func aCoinNoProofCreatesIsRefusedByName() throws {
        let vector = try #require(Self.vectors.bundles.first { $0.name == "zero-hop" })
        let bundle = try ProofBundle.decode(Hex.decode(vector.cbor))
        let stranger = try CoinID(hex: "0x" + String(repeating: "ab", count: 32))
        #expect {
            _ = try RedeemBatch(bundles: [bundle], coins: [stranger], domain: domain)
        } throws: { error in
            guard let error = error as? SettlementError, case .unprovable(let why) = error.kind
            else { return false }
            return why.contains(stranger.short)
        }
    }
}

/// The parts of Tests/Vectors/vault-bundles.json these tests read.
struct CalldataVectors: Decodable, Sendable {
    struct DomainJSON: Decodable, Sendable {
        let chainId: UInt64
        let vault: String
    }

    struct Bundle: Decodable, Sendable {
        let name, cbor: String
        let coins: [String]
        let calldata: String?
        let vault: Verdict

        var paysNothing: Bool {
            vault.revert != nil || !(vault.coins ?? [:]).values.contains("redeemed")
        }
    }

    struct Verdict: Decodable, Sendable {
        let revert: String?
        let coins: [String: String]?
    }

    let bundles: [Bundle]
    private let domainJSON: DomainJSON

    var domain: Domain {
        Domain(chainID: domainJSON.chainId, vault: try! Address(domainJSON.vault))
    }

    enum CodingKeys: String, CodingKey {
        case bundles
        case domainJSON = "domain"
    }

    static func load() -> CalldataVectors {
        let file = RefereePython.packageRoot.appendingPathComponent(
            "Tests/Vectors/vault-bundles.json")
        return try! JSONDecoder().decode(CalldataVectors.self, from: Data(contentsOf: file))
    }
}
