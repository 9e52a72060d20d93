import Codecs
import Secp256k1

extension PublicKey {
    /// The Ethereum address of this key as a key file stores it: "0x" and 40 lowercase hex
    /// digits of the last 20 bytes of keccak256(X ‖ Y). Lowercase (not EIP-55) so the stored
    /// form, and the associated data it becomes, has exactly one spelling.
    var keyFileAddress: String {
        Hex.encode(Keccak256.hash(coordinates).suffix(20), prefix: true)
    }
}
