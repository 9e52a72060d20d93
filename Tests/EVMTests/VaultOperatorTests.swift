import BigInt
import ChainTestSupport
import Codecs
import EVM
import EVMSettlement
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// The issuer's side of the vault on the dev chain: the embedded vault deployed as
/// `tender vault deploy` does, native and token collateral deposited and locked, and the
/// collateral read back as the snapshot a wallet keeps for open-mode acceptance.
@Suite(.serialized, .devChain) struct VaultOperatorTests {
    var rpc: EthereumRPC { DevChain.current!.rpc }

    @Test func theEmbeddedVaultIsWhatVyperCompilesFromTheSource() throws {
        let compiled = try DevChain.compile(
            DevChain.root.appendingPathComponent("Contracts/Vault.vy"))
        #expect(try Hex.decode(VaultInitCode.hex) == compiled, "run Contracts/embed.sh")
    }

    /// A fresh issuer key with gas from the dev account.
    func fundedIssuer() async throws -> VaultOperator {
        let key = PrivateKey.generate()
        let dev = TransactionSender(
            key: devKey, chainID: DevChain.chainID, rpc: rpc, nonces: MemoryNonceStore())
        let funding = try await dev.send(
            to: Address(publicKey: key.publicKey), value: 100 * 1_000_000_000 * .gwei)
        _ = try await rpc.waitForReceipt(funding.hash, timeout: .generousWait)
        return VaultOperator(key: key, rpc: rpc, chainID: DevChain.chainID)
    }

    @Test func anIssuerDeploysDepositsLocksAndItsCollateralIsReadBack() async throws {
        let issuer = try await fundedIssuer()
        let (vault, deployment) = try await issuer.deploy()
        let code = try await rpc.code(at: vault)
        #expect(deployment.succeeded && !code.isEmpty)

        try await issuer.deposit(700, of: .zero, into: vault)
        try await issuer.deposit(300, of: .zero, into: vault)
        try await issuer.lock(until: 2_000_000_000, in: vault)

        // A token: minted to the issuer, approved and pulled by the vault in one call.
        let token = try await deployToken(by: issuer)
        _ = try await issuer.sender.send(
            to: token,
            data: ABI.call("mint(address,uint256)", [.address(issuer.address), .uint(5_000)]))
        try await issuer.deposit(4_000, of: token, into: vault)

        let read = try await rpc.vaultCollateral(vault)
        #expect(
            Set(read.entries)
                == [
                    VaultCollateral.Entry(issuer: issuer.address, asset: .zero, amount: 1_000),
                    VaultCollateral.Entry(issuer: issuer.address, asset: token, amount: 4_000),
                ])
        #expect(read.lockedUntil == [issuer.address: 2_000_000_000])

        // The same figures as the wallet's snapshot.
        let snapshot = try await EVMSettlementChain(
            rpc: rpc, chainID: DevChain.chainID, key: .generate()
        ).collateral(vault: vault, now: 42)
        #expect(
            snapshot.collateral == [
                IssuerAsset(issuer: issuer.address, asset: .zero): 1_000,
                IssuerAsset(issuer: issuer.address, asset: token): 4_000,
            ])
        #expect(snapshot.lockedUntil == [issuer.address: 2_000_000_000])
        #expect(snapshot.takenAt == 42 && snapshot.block == read.block)

        // How its amounts read, from the token's own views; the vault has none (its calls
        // revert), an account without code answers nothing: no denomination, base units.
        let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: .generate())
        #expect(
            try await chain.denomination(ofToken: token)
                == Denomination(symbol: "TUSD", decimals: 6))
        #expect(try await chain.denomination(ofToken: vault) == nil)
        #expect(try await chain.denomination(ofToken: issuer.address) == nil)
    }

    @Test func whatTheVaultRefusesIsAnErrorNamingTheStep() async throws {
        let issuer = try await fundedIssuer()
        let (vault, _) = try await issuer.deploy()
        try await issuer.deposit(10, of: .zero, into: vault)
        try await issuer.lock(until: 3_000_000_000, in: vault)
        // Locked: the vault refuses to pay it back, and the lock cannot be shortened.
        await #expect(throws: EVMError.self) {
            try await issuer.withdraw(10, of: .zero, from: vault)
        }
        do {
            try await issuer.lock(until: 2_000_000_000, in: vault)
            Issue.record("a shorter lock was accepted")
        } catch {
            guard case .executionReverted(let reason, _) = error else {
                Issue.record("expected a revert, got \(error)")
                return
            }
            #expect(reason?.contains("a lock can only be extended") == true)
        }
        let left = try await rpc.vaultCollateral(vault).entries.map(\.amount)
        #expect(left == [10])
    }

    /// A vault deployed before `doubleSpentBy` has only `doubleSpender(coin)`: a double spend
    /// is on record there when its one signer is the one asked about (a stranger's decoy
    /// there is not the owner's record).
    @Test func aVaultWithTheEarlierFraudRecordIsReadByItsSigner() async throws {
        let issuer = try await fundedIssuer()
        let legacy = try await deploy("Contracts/tests/contracts/LegacyFraudRecord.vy", by: issuer)
        var random = SystemRandomNumberGenerator()
        let (coin, other) = (Bytes32.random(using: &random), Bytes32.random(using: &random))
        let (owner, stranger) = (
            Address(publicKey: PrivateKey.generate().publicKey),
            Address(publicKey: PrivateKey.generate().publicKey)
        )
        let sent = try await issuer.sender.send(
            to: legacy,
            data: ABI.call("record(bytes32,address)", [.bytes32(coin), .address(stranger)]))
        _ = try await rpc.waitForReceipt(sent.hash, timeout: .generousWait)
        #expect(
            try await rpc.vaultDoubleSpends(
                legacy, [(coin, owner), (coin, stranger), (other, owner)]) == [false, true, false])
    }

    func deployToken(by issuer: VaultOperator) async throws -> Address {
        try await deploy("Contracts/TestToken.vy", by: issuer)
    }

    func deploy(_ contract: String, by issuer: VaultOperator) async throws -> Address {
        let code = try DevChain.compile(DevChain.root.appendingPathComponent(contract))
        let sent = try await issuer.sender.send(to: nil, data: code)
        let outcome = try await rpc.waitForReceipt(sent.hash, timeout: .generousWait)
        guard case .confirmed(let receipt, _) = outcome, let address = receipt.contractAddress
        else { throw EVMError.malformedResponse("\(contract) was not deployed: \(outcome)") }
        return address
    }
}
