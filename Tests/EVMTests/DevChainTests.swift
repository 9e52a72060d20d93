import BigInt
import ChainTestSupport
import Codecs
import EVM
import Foundation
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// The client against the real dev chain (Rigs/dev-chain): one chain for the whole suite,
/// tests one after another (they mine, snapshot and switch automine).
@Suite(.serialized, .devChain) struct DevChainTests {
    var chain: DevChain { DevChain.current! }
    var rpc: EthereumRPC { chain.rpc }

    func sender(
        _ nonces: MemoryNonceStore = MemoryNonceStore(), chainID: UInt64 = DevChain.chainID
    )
        -> TransactionSender
    {
        TransactionSender(key: devKey, chainID: chainID, rpc: rpc, nonces: nonces)
    }

    func confirmed(_ hash: Bytes32, confirmations: UInt64 = 1) async throws -> TransactionReceipt {
        let outcome = try await rpc.waitForReceipt(
            hash, confirmations: confirmations, timeout: .generousWait,
            pollInterval: .milliseconds(50))
        guard case .confirmed(let receipt, _) = outcome else {
            Issue.record("expected a confirmed receipt, got \(outcome)")
            throw EVMError.malformedResponse("not confirmed")
        }
        return receipt
    }

    @Test func readsTheChainIDAndTheHead() async throws {
        #expect(try await rpc.chainID() == DevChain.chainID)
        let head = try await rpc.blockNumber()
        let block = try #require(try await rpc.block(.number(head)))
        #expect(block.number == head)
        #expect(block.gasLimit == 30_000_000)  // Rigs/dev-chain/README.md
        #expect(block.baseFeePerGas != nil)
        #expect(try await rpc.block(.latest) == block)
    }

    @Test func batchesAnswerEachCallInOrder() async throws {
        let answers = try await rpc.batch([
            RPCCall("eth_chainId"), RPCCall("no_such_method"), RPCCall("eth_blockNumber"),
        ])
        #expect(try answers[0].get() == .string(DevChain.chainID.hexQuantity))
        guard case .failure(.rpc(let code, _, _)) = answers[1] else {
            Issue.record("expected an RPC error, got \(answers[1])")
            return
        }
        #expect(code == -32601)
        #expect(throws: Never.self) { try answers[2].get() }
    }

    @Test func aTransferIsMinedAndMovesTheValue() async throws {
        let recipient = Address(publicKey: PrivateKey.generate().publicKey)
        let sender = sender()
        let before = try await rpc.balance(of: devAccount)
        let sent = try await sender.send(to: recipient, value: 12_345)
        #expect(try sent.sender() == devAccount)
        let receipt = try await confirmed(sent.hash)
        #expect(receipt.succeeded)
        #expect(receipt.gasUsed == 21_000)
        #expect(try await rpc.balance(of: recipient) == 12_345)
        let fee = Wei(receipt.gasUsed) * receipt.effectiveGasPrice
        #expect(try await rpc.balance(of: devAccount) == before - 12_345 - fee)
        #expect(receipt.effectiveGasPrice <= sent.transaction.maxFeePerGas)
    }

    /// The vault itself: deployed, a native deposit (its event read from the receipt and by
    /// eth_getLogs), a view read back, and a revert with the contract's reason.
    @Test func deploysTheVaultDepositsAndReadsItBack() async throws {
        let sender = sender()
        let initCode = try DevChain.compile(
            DevChain.root.appendingPathComponent("Contracts/Vault.vy"))
        let deployment = try await confirmed(try await sender.send(to: nil, data: initCode).hash)
        #expect(deployment.succeeded)
        let vault = try #require(deployment.contractAddress)
        #expect(try await rpc.code(at: vault).count > 1000)

        let deposit = try await sender.send(
            to: vault, value: 5 * .gwei, data: VaultCalls.deposit(asset: .zero, amount: 5 * .gwei))
        let receipt = try await confirmed(deposit.hash)
        #expect(receipt.succeeded)
        let log = try #require(receipt.logs.first)
        #expect(log.address == vault)
        #expect(log.topics.first == VaultCalls.Event.deposited)
        #expect(Array(log.topics[1].bytes.suffix(20)) == devAccount.bytes)  // indexed issuer
        let values = try ABI.decode([.uint256, .uint256], from: log.data)
        #expect(values.map(\.uint) == [5 * .gwei, 5 * .gwei])

        let found = try await rpc.logs(
            LogFilter(
                fromBlock: .number(receipt.blockNumber), toBlock: .number(receipt.blockNumber),
                addresses: [vault], topics: [[VaultCalls.Event.deposited]]))
        #expect(found == [log])

        let collateral = try await rpc.call(
            CallRequest(to: vault, data: VaultCalls.collateral(issuer: devAccount, asset: .zero)))
        #expect(try ABI.decode([.uint256], from: collateral).first?.uint == 5 * .gwei)

        // extendLock(0) is refused: "a lock can only be extended", by eth_call and estimateGas.
        let refused = CallRequest(
            from: devAccount, to: vault, data: VaultCalls.extendLock(until: 0))
        await #expect(
            throws: EVMError.executionReverted(
                reason: "a lock can only be extended",
                data: ABI.call("Error(string)", [.bytes(Array("a lock can only be extended".utf8))])
            )
        ) {
            try await rpc.call(refused)
        }
        await #expect(throws: EVMError.self) { try await rpc.estimateGas(refused) }
        await #expect(throws: EVMError.self) {
            try await sender.send(to: vault, data: VaultCalls.extendLock(until: 0))
        }
    }

    @Test func aTransactionForAnotherChainIsRefusedBeforeSending() async throws {
        let nonces = MemoryNonceStore()
        let before = try await rpc.transactionCount(of: devAccount, at: .pending)
        await #expect(throws: EVMError.wrongChain(expected: 1, got: DevChain.chainID)) {
            try await sender(nonces, chainID: 1).send(to: devAccount, value: 1, gas: 21_000)
        }
        #expect(try await rpc.transactionCount(of: devAccount, at: .pending) == before)
        #expect(try await nonces.nextNonce(for: devAccount, chainID: 1) == nil)  // no nonce used
    }

    /// A fee cap below the base fee waits in the pool; the replacement (same nonce, fees
    /// bumped) is mined and the stuck one is gone.
    @Test func aStuckTransactionIsReplacedAndMined() async throws {
        let sender = sender()
        try await chain.withAutomineOff {
            try await replaceStuck(sender)
        }
    }

    func replaceStuck(_ sender: TransactionSender) async throws {
        let baseFee = try #require(try await rpc.feeHistory(blocks: 1).baseFeePerGas.last)
        let stuck = try await sender.send(
            to: devAccount, value: 1, gas: 21_000,
            fees: Fees(maxPriorityFeePerGas: 0, maxFeePerGas: baseFee - 1))
        try await chain.control("evm_mine")
        #expect(
            try await rpc.waitForReceipt(
                stuck.hash, timeout: .milliseconds(300), pollInterval: .milliseconds(50))
                == .pending(seen: nil))

        // Fees short of the 10 % bump are refused, as geth refuses them.
        var cheap = stuck.transaction
        cheap.value = 2
        await #expect(
            throws: EVMError.rpc(
                code: -32000, message: "replacement transaction underpriced", data: nil)
        ) {
            try await rpc.sendRawTransaction(try cheap.signed(with: devKey))
        }

        let replacement = try await sender.replace(stuck)
        #expect(replacement.transaction.nonce == stuck.transaction.nonce)
        #expect(replacement.transaction.maxFeePerGas * 100 >= stuck.transaction.maxFeePerGas * 110)
        try await chain.control("evm_mine")
        #expect(try await confirmed(replacement.hash).succeeded)
        #expect(try await rpc.transactionReceipt(stuck.hash) == nil)
    }

    /// A receipt whose block is replaced (evm_revert to before it, then new blocks) is a reorg.
    @Test func aReorgIsReportedNotConfirmed() async throws {
        let snapshot = try await chain.control("evm_snapshot")
        let sent = try await sender().send(to: devAccount, value: 1)
        let receipt = try await confirmed(sent.hash)
        #expect(try await chain.control("evm_revert", [snapshot]) == .bool(true))
        try await chain.control("evm_mine")
        try await chain.control("evm_mine")
        let canonical = try #require(try await rpc.block(.number(receipt.blockNumber)))
        #expect(canonical.hash != receipt.blockHash)
        let outcome = try await rpc.waitForReceipt(
            sent.hash, confirmations: 2, timeout: .generousWait, pollInterval: .milliseconds(50),
            seen: receipt)
        #expect(outcome == .reorganized(receipt))
    }

    /// Waiting for three confirmations while blocks arrive.
    @Test func confirmationsAreCountedFromTheHead() async throws {
        let sent = try await sender().send(to: devAccount, value: 1)
        let rpc = rpc
        let chain = chain
        let miner = Task {
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(150))
                try await chain.control("evm_mine")
            }
        }
        let outcome = try await rpc.waitForReceipt(
            sent.hash, confirmations: 3, timeout: .generousWait, pollInterval: .milliseconds(50))
        try await miner.value
        guard case .confirmed(let receipt, let depth) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(depth >= 3)
        #expect(try await rpc.blockNumber() - receipt.blockNumber + 1 >= 3)
    }

    /// Nonces survive a restart: a new sender with the same store continues after the old
    /// one, even when the chain has forgotten a transaction (dropped from the pool).
    @Test func aNewSenderWithTheSameStoreNeverReusesANonce() async throws {
        let nonces = MemoryNonceStore()
        try await chain.withAutomineOff { try await continuesAfterTheStore(nonces) }
        // The chain ahead of the store (the key used elsewhere): the chain's count wins.
        let elsewhere = try await sender().send(to: devAccount, value: 5, gas: 21_000)
        _ = try await confirmed(elsewhere.hash)
        let after = try await sender(MemoryNonceStore()).prepare(
            to: devAccount, value: 6, gas: 21_000)
        #expect(after.transaction.nonce == elsewhere.transaction.nonce + 1)
    }

    func continuesAfterTheStore(_ nonces: MemoryNonceStore) async throws {
        let first = try await sender(nonces).send(to: devAccount, value: 1, gas: 21_000)
        let second = try await sender(nonces).send(to: devAccount, value: 2, gas: 21_000)
        #expect(second.transaction.nonce == first.transaction.nonce + 1)
        try await chain.control("evm_mine")
        #expect(try await confirmed(first.hash).succeeded)
        #expect(try await confirmed(second.hash).succeeded)

        // The pool forgets a transaction (the snapshot's pool had none): the chain's pending
        // count goes back, the store does not.
        let snapshot = try await chain.control("evm_snapshot")
        let forgotten = try await sender(nonces).send(to: devAccount, value: 3, gas: 21_000)
        try await chain.control("evm_revert", [snapshot])
        #expect(
            try await rpc.transactionCount(of: devAccount, at: .pending)
                == forgotten.transaction.nonce)
        let next = try await sender(nonces).prepare(to: devAccount, value: 4, gas: 21_000)
        #expect(next.transaction.nonce == forgotten.transaction.nonce + 1)
    }

    @Test func aRefusedBroadcastGivesItsNonceBack() async throws {
        let nonces = MemoryNonceStore()
        let sender = sender(nonces)
        // Gas below the intrinsic 21,000: the node refuses it, nothing was sent.
        await #expect(throws: EVMError.self) {
            try await sender.send(to: devAccount, value: 1, gas: 20_000)
        }
        let pending = try await rpc.transactionCount(of: devAccount, at: .pending)
        #expect(try await nonces.nextNonce(for: devAccount, chainID: DevChain.chainID) == pending)
        let sent = try await sender.send(to: devAccount, value: 1, gas: 21_000)
        #expect(sent.transaction.nonce == pending)
        #expect(try await confirmed(sent.hash).succeeded)
    }

    /// Transactions prepared at once by one sender take consecutive nonces even when each
    /// reads the store before any has recorded its nonce; sends made at once go out in nonce
    /// order (the dev chain refuses a gap) and all are mined.
    @Test func concurrentSendsTakeDistinctNonces() async throws {
        let sender = sender(MemoryNonceStore(readDelay: .milliseconds(100)))
        async let one = sender.prepare(to: devAccount, value: 1, gas: 21_000)
        async let two = sender.prepare(to: devAccount, value: 2, gas: 21_000)
        let prepared = try await [one, two].map(\.transaction.nonce)
        #expect(Set(prepared).count == 2 && prepared.max()! - prepared.min()! == 1)
        for transaction in try await [one, two].sorted(by: {
            $0.transaction.nonce < $1.transaction.nonce
        }) {
            try await sender.broadcast(transaction)
        }
        async let first = sender.send(to: devAccount, value: 1, gas: 21_000)
        async let second = sender.send(to: devAccount, value: 2, gas: 21_000)
        async let third = sender.send(to: devAccount, value: 3, gas: 21_000)
        let sent = try await [first, second, third]
        let nonces = Set(sent.map(\.transaction.nonce))
        #expect(nonces.count == 3)
        #expect(nonces.max()! - nonces.min()! == 2)
        for transaction in sent { #expect(try await confirmed(transaction.hash).succeeded) }
    }

    /// A broadcast that may or may not have left (the node unreachable) keeps its nonce: the
    /// same transaction is broadcast again, and it is mined.
    @Test func aTransportFailureKeepsTheNonceForARebroadcast() async throws {
        let nonces = MemoryNonceStore()
        let prepared = try await sender(nonces).prepare(to: devAccount, value: 1, gas: 21_000)
        let nonce = prepared.transaction.nonce
        try await withRPC("http://127.0.0.1:\(try Shell.freePort())") { down in
            let cutOff = TransactionSender(
                key: devKey, chainID: DevChain.chainID, rpc: down, nonces: nonces)
            await #expect(throws: EVMError.self) { try await cutOff.broadcast(prepared) }
        }
        #expect(try await nonces.nextNonce(for: devAccount, chainID: DevChain.chainID) == nonce + 1)
        try await sender(nonces).broadcast(prepared)
        #expect(try await confirmed(prepared.hash).succeeded)
    }

    @Test func feesProposedFromTheHistoryAreIncludable() async throws {
        let fees = try await rpc.proposeFees()
        let next = try #require(try await rpc.feeHistory(blocks: 1).baseFeePerGas.last)
        #expect(fees.maxPriorityFeePerGas >= .gwei)
        #expect(fees.maxFeePerGas == 2 * next + fees.maxPriorityFeePerGas)
    }
}

extension UInt64 {
    var hexQuantity: String { "0x" + String(self, radix: 16) }
}
