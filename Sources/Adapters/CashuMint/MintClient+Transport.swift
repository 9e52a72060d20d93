import AsyncHTTPClient
import Codecs
import Foundation
import NIOCore

/// One request and its answer: JSON bodies both ways, the answer's size bounded, a refusal
/// read from its NUT-00 error body, and failures sorted into `MintError` kinds.
extension MintClient {
    /// The longest error body read; its detail is cut shorter still for display.
    private static let maximumErrorBytes = 64 << 10

    func get(_ path: String, _ operation: String) async throws(MintError) -> [UInt8] {
        var request = HTTPClientRequest(url: url + path)
        request.method = .GET
        return try await exchange(request, operation, timeout: timeout)
    }

    /// `get`, its answer read as JSON.
    func getJSON(_ path: String, _ operation: String) async throws(MintError) -> JSON {
        let bytes = try await get(path, operation)
        return try reading(operation) { () throws(MalformedAnswer) in try JSON.answer(bytes) }
    }

    func post(
        _ path: String, _ body: JSON, _ operation: String, timeout: Duration? = nil
    ) async throws(MintError) -> [UInt8] {
        var request = HTTPClientRequest(url: url + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body.serialized))
        return try await exchange(request, operation, timeout: timeout ?? self.timeout)
    }

    /// `post`, its answer read as JSON.
    func postJSON(
        _ path: String, _ body: JSON, _ operation: String, timeout: Duration? = nil
    ) async throws(MintError) -> JSON {
        let bytes = try await post(path, body, operation, timeout: timeout)
        return try reading(operation) { () throws(MalformedAnswer) in try JSON.answer(bytes) }
    }

    /// Runs a parser over an answer; what it refuses becomes `.malformedAnswer`.
    func reading<T>(
        _ operation: String, _ parse: () throws(MalformedAnswer) -> T
    ) throws(MintError) -> T {
        // What is wrong may quote the mint's own text: kept to one short line.
        do { return try parse() } catch {
            throw self.error(.malformedAnswer(Self.displayable(error.what)), operation)
        }
    }

    /// A request body built from the caller's values; what it refuses is not sent.
    func request<T>(
        _ operation: String, _ build: () throws(MalformedRequest) -> T
    ) throws(MintError) -> T {
        do { return try build() } catch { throw self.error(.invalidRequest(error.what), operation) }
    }

    private func exchange(
        _ request: HTTPClientRequest, _ operation: String, timeout: Duration
    ) async throws(MintError) -> [UInt8] {
        // The HTTP client traps on a port past 65535: refused here, whoever built the URL.
        if let port = URLComponents(string: url)?.port, !(1...65_535).contains(port) {
            throw error(.unreachable(reason: "port \(port) is not 1…65535"), operation)
        }
        do {
            let response = try await client.execute(
                request, deadline: .now() + TimeAmount(timeout))
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                let body = try await response.body.collect(upTo: Self.maximumErrorBytes)
                throw error(Self.refusal(Array(body.readableBytesView), status: status), operation)
            }
            let body = try await response.body.collect(upTo: maximumAnswerBytes)
            return Array(body.readableBytesView)
        } catch {
            throw classify(error, operation)
        }
    }

    /// A NUT-00 error body `{"detail", "code"}`; a body without them (a proxy's error page)
    /// is shown by its status alone.
    static func refusal(_ body: [UInt8], status: Int) -> MintError.Kind {
        guard let json = try? JSON.parse(body), case .object = json else {
            return .refused(
                code: nil, detail: "HTTP \(status) without a NUT-00 error", httpStatus: status)
        }
        let code: Int? =
            if case .number(let text)? = json["code"] { Int(text) } else { nil }
        let detail: String =
            switch json["detail"] {
            case .string(let text)?: text
            case nil, .null?: "no detail"
            // FastAPI's validation errors are a list.
            case let other?: other.serialized
            }
        return .refused(code: code, detail: displayable(detail), httpStatus: status)
    }

    /// A mint's text as it may be shown: one line, at most 200 characters.
    static func displayable(_ text: String) -> String {
        let line = String(
            text.unicodeScalars.map {
                $0.properties.generalCategory == .control ? " " : Character($0)
            })
        return line.count > 200 ? line.prefix(200) + "…" : line
    }

    private func classify(_ failure: any Error, _ operation: String) -> MintError {
        if let failure = failure as? MintError { return failure }
        if failure is NIOTooManyBytesError {
            return error(
                .malformedAnswer("the answer is longer than \(maximumAnswerBytes) bytes"), operation
            )
        }
        if let failure = failure as? HTTPClientError {
            switch failure {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
                return error(.timeout, operation)
            case .cancelled: return error(.cancelled, operation)
            default: break
            }
        }
        if failure is CancellationError { return error(.cancelled, operation) }
        // The system's word for a refused or unroutable connection, not swift-nio's wrapping
        // of it ("connection reset (error set): Connection refused (errno: 111)").
        if let failure = failure as? IOError {
            return error(
                .unreachable(reason: String(cString: strerror(failure.errnoCode)).lowercased()),
                operation)
        }
        return error(
            .unreachable(reason: RedactedURL.scrubbing(url, from: String(describing: failure))),
            operation)
    }
}
