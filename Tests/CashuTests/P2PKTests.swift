import Cashu
import CashuTestSupport
import Codecs
import Secp256k1
import Testing

/// NUT-11 SIG_INPUTS vectors: cashubtc/nuts tests/11-test.md (commit 3ddb1ae).
@Suite struct P2PKTests {
    static let singleSecret =
        #"["P2PK",{"nonce":"859d4935c4907062a6297cf4e663e2835d90d97ecdd510745d32f6816323a41f","data":"0249098aa8b9d2fbec49ff8598feb17b592b986e62319a4fa488a3dc36387157a7","tags":[["sigflag","SIG_INPUTS"]]}]"#
    static let multiSecret =
        #"["P2PK",{"nonce":"0ed3fcb22c649dd7bbbdcca36e0c52d4f0187dd3b6a19efcc2bfbebb5f85b2a1","data":"0249098aa8b9d2fbec49ff8598feb17b592b986e62319a4fa488a3dc36387157a7","tags":[["pubkeys","0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798","02142715675faf8da1ecc4d51e0b9e539fa0d52fdd96ed60dbe99adb15d6b05ad9"],["n_sigs","2"],["sigflag","SIG_INPUTS"]]}]"#
    static let good =
        "60f3c9b766770b46caac1d27e1ae6b77c8866ebaeba0b9489fe6a15a837eaa6fcd6eaa825499c72ac342983983fd3ba3a8a41f56677cc99ffd73da68b59e1383"
    static let otherSecret =
        "83564aca48c668f50d022a426ce0ed19d3a9bdcffeeaee0dc1e7ea7e98e9eff1840fcc821724f623468c94f72a8b0a7280fa9ef5a54a1b130ef3055217f467b3"
    static let second =
        "9a72ca2d4d5075be5b511ee48dbc5e45f259bcf4a4e8bf18587f433098a9cd61ff9737dc6e8022de57c76560214c4568377792d4c2c6432886cc7050487a1f22"

    private func witness(_ signatures: [String]) -> String {
        P2PKLock.witness(signatures: signatures.map(bytes))
    }

    @Test func readsTheLockAndChecksItsSignature() throws {
        let condition = try #require(try SpendingCondition.parse(Self.singleSecret))
        #expect(condition.kind == "P2PK")
        #expect(condition.secret == Self.singleSecret)
        let lock = try P2PKLock(condition)
        #expect(
            lock.signers.map { hex($0.compressed) } == [
                "0249098aa8b9d2fbec49ff8598feb17b592b986e62319a4fa488a3dc36387157a7"
            ])
        #expect(
            lock.signatureFlag == .inputs && lock.requiredSignatures == 1 && lock.locktime == nil)
        let message = P2PKLock.message(secret: Self.singleSecret)
        #expect(
            P2PKLock.isSatisfied(
                witness: witness([Self.good]), message: message, keys: lock.signers, required: 1))
        #expect(
            !P2PKLock.isSatisfied(
                witness: witness([Self.otherSecret]), message: message, keys: lock.signers,
                required: 1))
        #expect(
            !P2PKLock.isSatisfied(witness: nil, message: message, keys: lock.signers, required: 1))
    }

    @Test func multisigNeedsTwoDistinctKeys() throws {
        let lock = try P2PKLock(try #require(try SpendingCondition.parse(Self.multiSecret)))
        #expect(lock.signers.count == 3 && lock.requiredSignatures == 2)
        let message = P2PKLock.message(secret: Self.multiSecret)
        #expect(
            P2PKLock.isSatisfied(
                witness: witness([Self.otherSecret, Self.second]), message: message,
                keys: lock.signers, required: 2))
        #expect(
            !P2PKLock.isSatisfied(
                witness: witness([Self.otherSecret]), message: message, keys: lock.signers,
                required: 2))
        #expect(
            !P2PKLock.isSatisfied(
                witness: witness([Self.otherSecret, Self.otherSecret]), message: message,
                keys: lock.signers, required: 2))
    }

    @Test func aSignatureMadeHereMeetsTheLock() throws {
        let payee = try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32))
        let condition = SpendingCondition(
            kind: "P2PK", nonce: "00ff", data: hex(payee.publicKey.compressed), tags: [])
        let lock = try P2PKLock(condition)
        let message = P2PKLock.message(secret: condition.secret)
        let signature = try payee.schnorrSign(message: message)
        #expect(
            P2PKLock.isSatisfied(
                witness: P2PKLock.witness(signatures: [signature]), message: message,
                keys: lock.signers, required: 1))
    }

    @Test func plainSecretsHaveNoCondition() throws {
        #expect(
            try SpendingCondition.parse(
                "407915bc212be61a77e3e6d2aeb4c727980bda51cd06a6afc29e2861768a7837") == nil)
        // What starts like JSON must be a NUT-10 secret, read strictly: a lenient parser (the
        // mint's) could read it as a condition where this one would not.
        for secret in [
            "[1,2]", "[\"P2PK\"]", "[\"P2PK\",{\"nonce\":\"n\",\"data\":\"d\",\"data\":\"e\"}]",
        ] {
            #expect(throws: CashuError.self, "\(secret)") { try SpendingCondition.parse(secret) }
        }
    }

    /// A locktime a mint could read otherwise (`-1`, `1_0`, ` 5`, two values) is no lock to
    /// rely on: nutshell's `int()` takes them, as a time in the past.
    @Test(arguments: [["-1"], ["1", "2"], ["1_0"], [" 5"], ["05"], ["+5"], ["1e9"]])
    func anUnplainLocktimeIsNotReliedOn(values: [String]) throws {
        let payee = try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32)).publicKey
        let lock = try P2PKLock(
            SpendingCondition(
                kind: "P2PK", nonce: "n", data: hex(payee.compressed), tags: [["locktime"] + values]
            ))
        guard case .notPayee = lock.reliance(for: payee, now: 1) else {
            Issue.record("locktime \(values) relied on")
            return
        }
    }

    @Test(arguments: [
        #"["P2PK",{"data":"02"}]"#,
        #"["P2PK",{"nonce":"n"}]"#,
        #"["P2PK",{"nonce":"n","data":"d","tags":[[]]}]"#,
        #"["P2PK",{"nonce":"n","data":"d","tags":[["locktime",1765300829]]}]"#,
        #"["P2PK",{"nonce":"n","data":"d","tags":[["locktime",""]]}]"#,
        #"["P2PK",{"nonce":"n","data":"d","tags":"x"}]"#,
    ])
    func refusesMalformedWellKnownSecrets(secret: String) {
        #expect(throws: CashuError.self) { try SpendingCondition.parse(secret) }
    }

    @Test(arguments: [
        [["n_sigs", "0"]], [["n_sigs", "3"]], [["n_sigs", "x"]], [["sigflag", "SIG_SOME"]],
        [["locktime", "1"], ["locktime", "2"]], [["pubkeys", "02zz"]],
    ])
    func refusesMalformedP2PKTags(tags: [[String]]) {
        let condition = SpendingCondition(
            kind: "P2PK", nonce: "n",
            data: "0249098aa8b9d2fbec49ff8598feb17b592b986e62319a4fa488a3dc36387157a7", tags: tags)
        #expect(throws: CashuError.self) { try P2PKLock(condition) }
    }

    @Test func reliesOnlyOnALockToThePayeeAlone() throws {
        let payee = try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32)).publicKey
        let other = try PrivateKey(bytes: [UInt8](repeating: 0x43, count: 32)).publicKey
        func lock(_ data: PublicKey, _ tags: [[String]]) throws -> P2PKLock {
            try P2PKLock(
                SpendingCondition(kind: "P2PK", nonce: "n", data: hex(data.compressed), tags: tags))
        }
        #expect(try lock(payee, []).reliance(for: payee, now: 100) == .payeeOnly)
        #expect(
            try lock(payee, [["locktime", "200"]]).reliance(for: payee, now: 100)
                == .payeeOnlyUntil(200))
        if case .notPayee = try lock(payee, [["locktime", "200"]]).reliance(for: payee, now: 200) {
        } else {
            Issue.record("an ended lock is relied on")
        }
        if case .notPayee = try lock(other, []).reliance(for: payee, now: 100) {
        } else {
            Issue.record("a lock to another key is relied on")
        }
        if case .notPayee = try lock(payee, [["pubkeys", hex(other.compressed)]]).reliance(
            for: payee, now: 100)
        {
        } else {
            Issue.record("a lock another key can also sign is relied on")
        }
        // NUT-11 calls a lock with a locktime that is not a Unix time permanent; mints read
        // such tags otherwise, so it is not relied on.
        #expect(
            try lock(payee, [["locktime", "soon"]]).reliance(for: payee, now: 100) != .payeeOnly)
    }
}
