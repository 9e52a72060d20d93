import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Marks every answer the server writes, its own parser's refusals included, as not to be
/// sniffed or loaded by another origin (`nosniff`, `Cross-Origin-Resource-Policy`): a web
/// page cannot load `/healthz`, the POS page or an error as a script or an image to learn
/// that a node runs here.
final class ProtectiveHeaders: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let corp = HTTPField.Name("Cross-Origin-Resource-Policy")!

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var response) = unwrapOutboundIn(data) else {
            return context.write(data, promise: promise)
        }
        response.headerFields[.xContentTypeOptions] = "nosniff"
        response.headerFields[Self.corp] = "same-origin"
        context.write(wrapOutboundOut(.head(response)), promise: promise)
    }
}
