import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// Server-Sent Events (the HTML living standard, §9.2): `event: payment` with the payment as
/// JSON and its request id as the event id, `event: paying` with `{"requestId": …}` when a
/// payer offers a payment, `event: cashu` with a Cashu token taken, and a comment line every
/// `keepAlive` so proxies and browsers keep an idle stream open. The stream ends when the node
/// stops.
enum EventStream {
    static func response(
        _ events: AsyncStream<FeedEvent>, keepAlive: Duration = .seconds(15)
    ) -> Response {
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 2000\n: tender payments\n\n"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (lines, output) = AsyncStream<String>.makeStream()
                group.addTask {
                    for await event in events { output.yield(try frame(event)) }
                    output.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: keepAlive)
                        output.yield(": keep-alive\n\n")
                    }
                }
                // The node stopping ends the stream: the server waits for open requests.
                try await withGracefulShutdownHandler {
                    for await line in lines { try await writer.write(ByteBuffer(string: line)) }
                } onGracefulShutdown: {
                    output.finish()
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            ], body: body)
    }

    static func frame(_ event: FeedEvent) throws -> String {
        let encoder = APIRequestContext.encoder()
        switch event {
        case .payment(let payment):
            let data = String(decoding: try encoder.encode(payment), as: UTF8.self)
            return "event: payment\nid: \(payment.requestId)\ndata: \(data)\n\n"
        case .paying(let requestID):
            let data = String(
                decoding: try encoder.encode(["requestId": requestID]), as: UTF8.self)
            return "event: paying\ndata: \(data)\n\n"
        case .cashu(let payment):
            let data = String(decoding: try encoder.encode(payment), as: UTF8.self)
            return "event: cashu\nid: cashu-\(payment.id)\ndata: \(data)\n\n"
        }
    }
}
