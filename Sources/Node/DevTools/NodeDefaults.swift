import Tender

/// The embedded defaults a fresh node starts with: the local development chain of the test
/// rig (chain id 31337) and the address the vault gets when it is the first contract deployed
/// by the rig's first account.
public enum NodeDefaults {
    public static let chainID: UInt64 = 31337
    public static let vault = try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")
    /// The zero address stands for the chain's native coin.
    public static let asset = Address.zero
    /// Notes issued by `tender issuer issue` live this long unless told otherwise.
    public static let noteLifetime: UInt64 = 30 * 24 * 3600
    public static let domain = Domain(chainID: chainID, vault: vault)
    /// The dev chain's endpoint (Rigs/dev-chain), for a home domain not in the chain registry.
    public static let rpc = "http://127.0.0.1:8545"
}
