import Codecs
import Foundation
import TenderTestSupport
import Testing

@testable import Tender

/// Every vector of Tests/Vectors/vault-bundles.json through the offline verifier: the bundle's
/// wire form decoded (`ProofBundle.decode`), verified (`Verifier.verify`) against the seen-set
/// the vector describes, then each redeemed coin checked to be an unspent coin of the bundle
/// owned by the redeemer (the vault's redeem rules; offline, the payee check makes the same
/// ones). Contracts/tests/test_vectors.py runs the same file through the vault contract;
/// Docs/VAULT.md says where the two cannot judge the same thing.
@Suite struct VaultVectorTests {
    static let vectors: VaultVectors = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Vectors/vault-bundles.json")
        return try! JSONDecoder().decode(VaultVectors.self, from: Data(contentsOf: file))
    }()

    let domain = Domain(
        chainID: Self.vectors.domain.chainId, vault: try! Address(Self.vectors.domain.vault))

    @Test func theVectorsAreForTheNodesDefaultDomain() {
        let vectors = Self.vectors
        #expect(domain == World().domain)  // chain 31337, the dev chain's first contract
        #expect(vectors.bundles.count >= 50)
        #expect(vectors.bundles.contains { $0.offline == "ok" })
        #expect(vectors.bundles.contains { $0.judged == "offline" })
    }

    @Test(arguments: vectors.bundles) func bundle(_ vector: BundleVector) throws {
        #expect(verdict(of: vector) == vector.offline, "\(vector.name): \(vector.description)")
    }

    @Test(arguments: vectors.evidence) func evidence(_ vector: EvidenceVector) throws {
        let transfers = try ProofBundle.decode(bytes(vector.cbor)).transfers
        do {
            let evidence = try DoubleSpendEvidence(
                coin: try CoinID(hex: vector.coin), transfers[0], transfers[1], in: domain)
            #expect(vector.valid, "\(vector.name) was accepted")
            #expect(evidence.spender == (try Address(vector.spender ?? "")))
        } catch {
            #expect(!vector.valid, "\(vector.name): \(error)")
            #expect(error.code == "invalid-evidence")
        }
    }

    /// "ok", or the code of the first refusal: decoding, verification, or a redeem rule.
    func verdict(of vector: BundleVector) -> String {
        do {
            let bundle = try ProofBundle.decode(bytes(vector.cbor))
            expectSame(bundle, as: vector)
            var seenSpends: [CoinID: SignedTransfer] = [:]
            for earlier in vector.before + [vector.seen] {
                for transfer in try ProofBundle.decode(bytes(earlier.cbor)).transfers {
                    for input in transfer.transfer.inputs { seenSpends[input] = transfer }
                }
            }
            let verified = try Verifier(domain: domain).verify(
                bundle, now: vector.now, seenSpends: seenSpends)
            let leaves = Set(verified.leaves.map(\.id))
            let redeemer = try Address(vector.redeemer)
            for text in vector.coins {
                let id = try CoinID(hex: text)
                guard let coin = verified.coins[id] else { return "not-in-bundle" }
                guard leaves.contains(id) else { return "spent" }
                guard coin.owner == redeemer else { return "not-owner" }
            }
            return "ok"
        } catch {
            return error.code
        }
    }

    /// The JSON the vault's calldata is built from and the wire form decoded here are the same
    /// bundle.
    func expectSame(_ bundle: ProofBundle, as vector: BundleVector) {
        #expect(
            bundle.notes.count == vector.notes.count
                && bundle.transfers.count == vector.transfers.count)
        for (signed, json) in zip(bundle.notes, vector.notes) {
            let note = signed.note
            #expect(note.serial.hex == json.serial && note.expiry == json.expiry)
            #expect(
                note.amount == Amount(json.amount) && note.issuer == (try? Address(json.issuer)))
            #expect(
                note.asset == (try? Address(json.asset)) && note.owner == (try? Address(json.owner))
            )
            #expect(Hex.encode(signed.signature.bytes) == json.signature)
        }
        for (signed, json) in zip(bundle.transfers, vector.transfers) {
            #expect(signed.transfer.inputs.map(\.hex) == json.inputs)
            #expect(signed.transfer.outputs.map(\.amount) == json.outputs.map { Amount($0.amount) })
            #expect(
                signed.transfer.outputs.map(\.owner) == json.outputs.map { try? Address($0.owner) })
            #expect(Hex.encode(signed.signature.bytes) == json.signature)
        }
    }

    func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }
}

struct VaultVectors: Decodable, Sendable {
    struct DomainJSON: Decodable, Sendable {
        let chainId: UInt64
        let vault: String
    }
    let domain: DomainJSON
    let bundles: [BundleVector]
    let evidence: [EvidenceVector]
}

struct NoteJSON: Decodable, Sendable {
    let serial, issuer, asset, amount, owner, signature: String
    let expiry: UInt64
}

struct TransferJSON: Decodable, Sendable {
    struct OutputJSON: Decodable, Sendable {
        let owner, amount: String
    }
    let inputs: [String]
    let outputs: [OutputJSON]
    let signature: String
}

struct BundleJSON: Decodable, Sendable {
    let cbor: String
}

struct BundleVector: Decodable, Sendable, CustomTestStringConvertible {
    let name, description, redeemer, cbor, offline, judged: String
    let now: UInt64
    let notes: [NoteJSON]
    let transfers: [TransferJSON]
    let coins: [String]
    let before: [BundleJSON]
    let seen: BundleJSON

    var testDescription: String { name }
}

struct EvidenceVector: Decodable, Sendable, CustomTestStringConvertible {
    let name, coin, cbor: String
    let valid: Bool
    let spender: String?

    var testDescription: String { name }
}
