import Secp256k1

extension Mnemonic {
    /// The key at `path` (by default `m/44'/60'/0'/0/0`, the first Ethereum account) of the
    /// BIP39 seed with `passphrase`: what a wallet restored from this phrase would show first.
    public func privateKey(
        path: DerivationPath = .ethereum, passphrase: String = ""
    ) throws(KeystoreError) -> PrivateKey {
        var seed = seed(passphrase: passphrase)
        defer { wipe(&seed) }
        return try HDKey(seed: seed).derive(path).privateKey
    }
}
