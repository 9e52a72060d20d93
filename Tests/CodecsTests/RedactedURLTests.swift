import Codecs
import Testing

/// Endpoints as shown in logs, errors and listings: a provider's key never shows, wherever
/// the provider puts it.
@Suite struct RedactedURLTests {
    @Test(arguments: [
        ("http://127.0.0.1:8545", "http://127.0.0.1:8545"),
        ("http://127.0.0.1:8545/", "http://127.0.0.1:8545/"),
        ("https://mainnet.infura.io/v3/0123456789abcdef", "https://mainnet.infura.io/…"),
        ("https://eth-mainnet.g.alchemy.com/v2/KEY", "https://eth-mainnet.g.alchemy.com/…"),
        ("https://rpc.example/?apikey=KEY", "https://rpc.example/…"),
        ("https://rpc.example?apikey=KEY", "https://rpc.example/…"),
        ("https://user:KEY@rpc.example:8443/x", "https://***@rpc.example:8443/…"),
        ("https://user:p@ss@rpc.example", "https://***@rpc.example"),
        ("rpc.example/v3/KEY", "rpc.example/…"),
        ("", ""),
    ])
    func onlySchemeHostAndPortShow(url: String, shown: String) {
        #expect(RedactedURL.text(url) == shown)
        #expect(!RedactedURL.text(url).contains("KEY"))
    }

    @Test func aMessageQuotingTheURLIsScrubbed() {
        let url = "https://mainnet.infura.io/v3/KEY"
        let text = RedactedURL.scrubbing(url, from: "connect to \(url) failed; \(url) again")
        #expect(
            text
                == "connect to https://mainnet.infura.io/… failed; https://mainnet.infura.io/… again"
        )
    }
}
