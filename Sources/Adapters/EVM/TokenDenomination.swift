import Tender

extension EthereumRPC {
    /// An ERC-20's `symbol()` and `decimals()` at the head, in one batch. nil when the token
    /// has no such views (they revert or return nothing, as from an account without code) or
    /// answers what cannot be a denomination (decimals above 36, a symbol of spaces or control
    /// characters, too long). A symbol as `bytes32` (early tokens, MKR) is read too. Failing to
    /// reach the node throws.
    public func tokenDenomination(_ token: Address) async throws(EVMError) -> Denomination? {
        let answers = try await batch([
            RPCCall(
                "eth_call",
                [CallRequest(to: token, data: ABI.call("symbol()")).json, BlockTag.latest.json]),
            RPCCall(
                "eth_call",
                [CallRequest(to: token, data: ABI.call("decimals()")).json, BlockTag.latest.json]),
        ])
        var data: [[UInt8]] = []
        for answer in answers {
            switch answer {
            case .success(let value): data.append(try value.data("eth_call"))
            case .failure(.rpc), .failure(.executionReverted): return nil
            case .failure(let error): throw error
            }
        }
        guard let symbol = Self.symbol(data[0]), let decimals = Self.decimals(data[1]) else {
            return nil
        }
        return try? Denomination(symbol: symbol, decimals: decimals)
    }

    /// `string` as the ABI returns it, or a `bytes32` padded with zeros.
    static func symbol(_ data: [UInt8]) -> String? {
        let bytes: [UInt8]
        if data.count == 32 {
            bytes = Array(data.prefix { $0 != 0 })
        } else if case .bytes(let string) = try? ABI.decode([.bytes], from: data).first {
            bytes = string
        } else {
            return nil
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A `uint8` in a word: every other byte zero.
    static func decimals(_ data: [UInt8]) -> Int? {
        guard data.count == 32, data.prefix(31).allSatisfy({ $0 == 0 }) else { return nil }
        return Int(data[31])
    }
}
