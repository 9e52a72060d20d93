import Cashu
import Codecs

/// What the mint publishes: its info (NUT-06), its keys (NUT-01) and its keysets (NUT-02).
extension MintClient {
    /// GET /v1/info.
    public func info() async throws(MintError) -> MintInfo {
        let answer = try await getJSON("/v1/info", "info")
        return try reading("info") { () throws(MalformedAnswer) in try MintInfo.parse(answer) }
    }

    /// GET /v1/keys: the active keysets' keys, each keyset's id checked against its keys
    /// (`Keyset.parse(mintKeys:)`), so a mint cannot pass off other keys under a known id.
    public func keys() async throws(MintError) -> Keyset.MintKeys {
        let bytes = try await get("/v1/keys", "keys")
        do { return try Keyset.parse(mintKeys: bytes) } catch {
            throw self.error(.malformedAnswer(Self.displayable(error.description)), "keys")
        }
    }

    /// GET /v1/keysets: every keyset, active or not, without keys.
    public func keysetStates() async throws(MintError) -> [KeysetState] {
        let answer = try await getJSON("/v1/keysets", "keysets")
        return try reading("keysets") { () throws(MalformedAnswer) in
            try KeysetState.parseList(answer)
        }
    }
}
