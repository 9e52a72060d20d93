/// A URL as it may be shown: in logs, errors, `/api/status` and listings. Providers put API
/// keys in the user part (`https://user:key@host`), the path (`/v3/<key>`, `/v2/<key>`) or the
/// query (`?apikey=`), so only the scheme, host and port are kept; anything after them shows
/// as `…` and a user part as `***@`. A URL without a path, or with "/" alone, reads as it is.
public enum RedactedURL {
    public static func text(_ url: String) -> String {
        // Without a scheme (a mistyped endpoint), read from the start as the host.
        let schemeEnd = url.firstRange(of: "://")
        let rest = schemeEnd.map { url[$0.upperBound...] } ?? url[...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var shown = schemeEnd.map { String(url[..<$0.upperBound]) } ?? ""
        if let at = authority.lastIndex(of: "@") {
            shown += "***@"
            authority = authority[authority.index(after: at)...]
        }
        shown += authority
        let tail = rest[authorityEnd...]
        if tail.isEmpty || tail == "/" { return shown + tail }
        return shown + "/…"
    }

    /// `text` with every occurrence of `url` in it redacted (an error that quotes it).
    public static func scrubbing(_ url: String, from text: String) -> String {
        guard !url.isEmpty else { return text }
        return text.replacing(url, with: Self.text(url))
    }
}
