import Codecs

/// One JSON-RPC call: a method and its positional parameters.
public struct RPCCall: Sendable, Hashable {
    public let method: String
    public let params: [JSONValue]

    public init(_ method: String, _ params: [JSONValue] = []) {
        self.method = method
        self.params = params
    }

    func json(id: Int) -> JSONValue {
        .object([
            "jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method),
            "params": .array(params),
        ])
    }

    /// The integral `id` of an answer.
    static func id(of answer: JSONValue, label: String) throws(EVMError) -> Int {
        guard case .number(let number) = try answer.field("id", of: label),
            let id = Int(exactly: number)
        else { throw .malformedResponse("\(label).id: not an integer") }
        return id
    }

    /// An answer checked as JSON-RPC 2.0: the version, our id, exactly one of result/error.
    static func result(of answer: JSONValue, id: Int, method: String) -> Result<JSONValue, EVMError>
    {
        Result { () throws(EVMError) -> JSONValue in
            guard try answer.field("jsonrpc", of: method) == .string("2.0") else {
                throw .malformedResponse("\(method).jsonrpc: not \"2.0\"")
            }
            let answered = try Self.id(of: answer, label: method)
            guard answered == id else {
                throw .malformedResponse("\(method).id: answered id \(answered), asked \(id)")
            }
            switch (answer["result"], answer["error"]) {
            case (let result?, nil): return result
            case (nil, let error?): throw try Self.error(error, method: method)
            case (nil, nil): throw .malformedResponse("\(method): neither result nor error")
            case (_?, _?): throw .malformedResponse("\(method): both result and error")
            }
        }
    }

    /// A JSON-RPC error object as `EVMError`: geth's code 3 (and any "execution reverted"
    /// message) is a revert, with its reason decoded from the data where it is Error(string).
    static func error(_ object: JSONValue, method: String) throws(EVMError) -> EVMError {
        let context = "\(method).error"
        guard case .number(let number) = try object.field("code", of: context),
            let code = Int(exactly: number)
        else { throw .malformedResponse("\(context).code: not an integer") }
        let message = try object.field("message", of: context).string("\(context).message")
        let data = object["data"]
        let prefix = "execution reverted"
        guard code == 3 || message.hasPrefix(prefix) else {
            let text: String? =
                switch data {
                case .string(let text): text
                case nil, .null: nil
                case let other?: other.excerpt
                }
            return .rpc(code: code, message: message, data: text)
        }
        let revertData = (try? data?.data("\(context).data")) ?? []
        let reason =
            ABI.revertReason(revertData)
            ?? (message.hasPrefix(prefix + ": ")
                ? String(message.dropFirst(prefix.count + 2)) : nil)
        return .executionReverted(reason: reason, data: revertData)
    }
}
