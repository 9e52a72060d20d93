import Secp256k1
import Tender

/// Shared by the test targets: a small deterministic world: an issuer, three people, one domain, a fixed clock.
public struct World {
    /// The world in `domain` (the development chain's default vault unless given).
    public init(
        domain: Domain = Domain(
            chainID: 31337, vault: try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
    ) {
        self.domain = domain
    }

    public let domain: Domain
    public let issuerKey = key(0x01)
    public let aliceKey = key(0x0A)
    public let bobKey = key(0x0B)
    public let carolKey = key(0x0C)
    public let asset = Address.zero
    public let now: UInt64 = 1_800_000_000
    public var expiry: UInt64 { now + 86_400 }

    public var issuer: Address { Address(publicKey: issuerKey.publicKey) }
    public var alice: Address { Address(publicKey: aliceKey.publicKey) }
    public var bob: Address { Address(publicKey: bobKey.publicKey) }
    public var carol: Address { Address(publicKey: carolKey.publicKey) }
    public var verifier: Verifier { Verifier(domain: domain) }
    public var policy: IssuerPolicy { .trusted([issuer]) }

    public func note(
        _ amount: Amount, to owner: Address? = nil, serial: UInt8 = 1, expiry: UInt64? = nil
    )
        -> SignedNote
    {
        let note = Note(
            serial: try! Bytes32([UInt8](repeating: serial, count: 32)), issuer: issuer,
            asset: asset,
            amount: amount, owner: owner ?? alice, expiry: expiry ?? self.expiry)
        return try! SignedNote(signing: note, with: issuerKey, in: domain)
    }

    public func transfer(
        _ inputs: [CoinID], _ outputs: [(Address, Amount)], by key: PrivateKey
    )
        -> SignedTransfer
    {
        let transfer = Transfer(
            inputs: inputs, outputs: outputs.map { Output(owner: $0.0, amount: $0.1) })
        return try! SignedTransfer(signing: transfer, with: key, in: domain)
    }

    public func outputs(of transfer: SignedTransfer) -> [CoinID] {
        transfer.outputCoins(digest: transfer.transfer.digest(in: domain))
    }

    /// Alice holds a 100 note; she pays Bob 60 with 40 change.
    public func alicePaysBob() -> (note: SignedNote, transfer: SignedTransfer, bundle: ProofBundle)
    {
        let note = note(100)
        let transfer = transfer([note.coinID(in: domain)], [(bob, 60), (alice, 40)], by: aliceKey)
        return (note, transfer, ProofBundle(notes: [note], transfers: [transfer]))
    }
}

public func key(_ byte: UInt8) -> PrivateKey {
    try! PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [byte])
}

/// The error kind's stable code, for compact assertions.
public func rejection(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as ProtocolError {
        return error.code
    } catch {
        return "unexpected: \(error)"
    }
}

extension World {
    /// The bundle's coins owned by `payee` and not spent inside it, computed from hashes only
    /// (no verification), so tests can name the coins of deliberately broken payments.
    public func credits(to payee: Address, in bundle: ProofBundle) -> [CoinID] {
        let spent = Set(bundle.transfers.flatMap(\.transfer.inputs))
        let notes = bundle.notes.filter { $0.note.owner == payee }.map { $0.coinID(in: domain) }
        let created = bundle.transfers.flatMap { transfer in
            zip(transfer.transfer.outputs, self.outputs(of: transfer)).filter {
                $0.0.owner == payee
            }
            .map(\.1)
        }
        return (notes + created).filter { !spent.contains($0) }
    }

    /// A payment of `bundle` to `payee` naming its credits, signed by `signer` (by default
    /// the world's key that created the first credited coin: its note's issuer or the owner
    /// of its transfer's inputs).
    public func payment(
        _ bundle: ProofBundle, to payee: Address, amount: Amount, requestID: Bytes32 = .zero,
        asset: Address = .zero, memo: String = "", coins: [CoinID]? = nil,
        signer: PrivateKey? = nil
    ) -> Payment {
        let coins = coins ?? credits(to: payee, in: bundle)
        let terms = PaymentTerms(
            requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
            coins: coins)
        let key = signer ?? coins.first.flatMap { creatorKey(of: $0, in: bundle) } ?? aliceKey
        return try! Payment(signing: terms, bundle: bundle, with: key, in: domain)
    }

    /// The world's key that created `coin` in `bundle`, if any.
    public func creatorKey(of coin: CoinID, in bundle: ProofBundle) -> PrivateKey? {
        let keys = [issuerKey, aliceKey, bobKey, carolKey]
        func key(of address: Address) -> PrivateKey? {
            keys.first { Address(publicKey: $0.publicKey) == address }
        }
        var owners: [CoinID: Address] = [:]
        for note in bundle.notes {
            let id = note.coinID(in: domain)
            if id == coin { return key(of: note.note.issuer) }
            owners[id] = note.note.owner
        }
        for transfer in bundle.transfers {
            let created = outputs(of: transfer)
            let payer = transfer.transfer.inputs.first.flatMap { owners[$0] }
            if created.contains(coin) { return payer.flatMap(key(of:)) }
            for (id, output) in zip(created, transfer.transfer.outputs) {
                owners[id] = output.owner
            }
        }
        return nil
    }
}

/// SplitMix64: a tiny deterministic generator for reproducible fuzzing and delays.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// `count` reproducible bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
