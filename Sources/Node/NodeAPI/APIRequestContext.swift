import Foundation
import Hummingbird

/// The API's request context: answers are JSON with sorted keys (stable for people and
/// diffs) and unescaped slashes; bodies are small (64 KiB at most).
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 64 * 1024 }

    public var responseEncoder: JSONEncoder { Self.encoder() }

    /// How the API writes JSON, its answers and its event stream alike: sorted keys, slashes
    /// as they are.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
