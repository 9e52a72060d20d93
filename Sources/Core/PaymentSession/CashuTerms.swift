import Codecs

/// What a payee that takes Cashu tokens answers a payer that asks (Docs/PROTOCOL.md §10.3):
/// `{1: [mint URLs], 2: [units], 3: lock key, 4: locked only, 5: signature}`. The mints are
/// those whose keys it holds (a token of another mint cannot be checked offline), the units
/// those their keysets issue; the lock key is the one tokens may be locked to (NUT-11), and
/// with "locked only" the one they must be locked to. The signature is the payee's wallet
/// key's over `signedBytes(sessionKey:)`, which binds the terms to the payee's session key:
/// a payer knows whose terms they are, and that no one relayed them from another session.
public struct CashuTerms: Sendable, Equatable {
    public static let maxMints = 16
    public static let maxMintBytes = 512
    public static let maxUnits = 16
    public static let maxUnitBytes = 16

    public var mints: [String]
    public var units: [String]
    /// A compressed secp256k1 public key (33 bytes).
    public var lockKey: [UInt8]
    public var lockedOnly: Bool
    /// A recoverable signature (65 bytes: r, s, recovery id) over keccak256 of `signedBytes`.
    public var signature: [UInt8]

    public init(
        mints: [String], units: [String], lockKey: [UInt8], lockedOnly: Bool,
        signature: [UInt8] = []
    ) {
        self.mints = mints
        self.units = units
        self.lockKey = lockKey
        self.lockedOnly = lockedOnly
        self.signature = signature
    }

    /// What the signature covers: a label that no other Tender signature starts with, the
    /// payee's Noise static key (32 bytes) of the session the terms are said in, then keys 1
    /// to 4 as deterministic CBOR.
    public func signedBytes(sessionKey: [UInt8]) -> [UInt8] {
        Array("tender/2 cashu terms\n".utf8) + sessionKey
            + CBOR.map(Array(entries.prefix(4))).encoded()
    }

    private var entries: [CBOR.Entry] {
        [
            CBOR.Entry(.unsigned(1), .array(mints.map(CBOR.text))),
            CBOR.Entry(.unsigned(2), .array(units.map(CBOR.text))),
            CBOR.Entry(.unsigned(3), .bytes(lockKey)),
            CBOR.Entry(.unsigned(4), .boolean(lockedOnly)),
            CBOR.Entry(.unsigned(5), .bytes(signature)),
        ]
    }

    var cbor: CBOR { .map(entries) }

    init(_ cbor: CBOR) throws(SessionError) {
        mints = try Self.texts(
            cbor, 1, "Cashu mints", count: Self.maxMints, bytes: Self.maxMintBytes)
        units = try Self.texts(
            cbor, 2, "Cashu units", count: Self.maxUnits, bytes: Self.maxUnitBytes)
        lockKey = try field(cbor, 3, "Cashu lock key").bytes("the Cashu lock key")
        guard lockKey.count == 33 else {
            throw SessionError.malformed("the Cashu lock key is \(lockKey.count) bytes, not 33")
        }
        guard case .boolean(let only) = try field(cbor, 4, "Cashu locked only") else {
            throw SessionError.malformed("Cashu locked only is not true or false")
        }
        lockedOnly = only
        signature = try field(cbor, 5, "Cashu terms' signature").bytes("the Cashu terms' signature")
        guard signature.count == 65 else {
            throw SessionError.malformed(
                "the Cashu terms' signature is \(signature.count) bytes, not 65")
        }
        try onlyKeys(cbor, [1, 2, 3, 4, 5], in: "the Cashu terms")
    }

    /// A list of at most `count` texts of at most `bytes` each, under `key`.
    private static func texts(
        _ cbor: CBOR, _ key: UInt64, _ name: String, count: Int, bytes: Int
    ) throws(SessionError) -> [String] {
        guard let list = try field(cbor, key, name).arrayValue, list.count <= count else {
            throw SessionError.malformed("the \(name) are not a list of at most \(count)")
        }
        var texts: [String] = []
        for item in list { texts.append(try item.text("one of the \(name)", max: bytes)) }
        return texts
    }
}

/// A payee's answer to a Cashu token it took: `{1: amount, 2: unit, 3: mint}` as the token
/// said them (what it holds until the swap).
public struct CashuTaken: Sendable, Equatable {
    public var amount: UInt64
    public var unit: String
    public var mint: String

    public init(amount: UInt64, unit: String, mint: String) {
        self.amount = amount
        self.unit = unit
        self.mint = mint
    }

    var cbor: CBOR {
        .map([
            CBOR.Entry(.unsigned(1), .unsigned(amount)), CBOR.Entry(.unsigned(2), .text(unit)),
            CBOR.Entry(.unsigned(3), .text(mint)),
        ])
    }

    init(_ cbor: CBOR) throws(SessionError) {
        guard let amount = try field(cbor, 1, "amount taken").unsignedValue else {
            throw SessionError.malformed("the amount taken is not a whole number")
        }
        self.amount = amount
        unit = try field(cbor, 2, "unit taken").text("the unit taken", max: 16)
        mint = try field(cbor, 3, "mint taken").text("the mint taken", max: CashuTerms.maxMintBytes)
        try onlyKeys(cbor, [1, 2, 3], in: "the Cashu token taken")
    }
}
