import Keystore
import Testing

@Suite struct DerivationPathTests {
    @Test(arguments: ["m/44'/60'/0'/0/0", "m/44h/60h/0h/0/0", "m/44H/60'/0h/0/0"])
    func parsesTheEthereumPathInEverySpelling(text: String) throws {
        #expect(try DerivationPath(text) == .ethereum)
    }

    @Test func parsesComponents() throws {
        #expect(try DerivationPath("m").components.isEmpty)
        let path = try DerivationPath("m/0/2147483647'/1")
        #expect(path.components == [.normal(0), .hardened(2_147_483_647), .normal(1)])
        #expect(path.components.map(\.childNumber) == [0, 0xffff_ffff, 1])
    }

    @Test func printsWithApostrophes() throws {
        #expect(DerivationPath.ethereum.description == "m/44'/60'/0'/0/0")
        #expect(try DerivationPath("m/1h/2").description == "m/1'/2")
        #expect(try DerivationPath("m").description == "m")
    }

    @Test(arguments: [
        "", "/", "44'/60'", "M/0", "m/", "m//0", "m/0/", "m/-1", "m/+1", "m/ 1", "m/1 ", "m/0x10",
        "m/2147483648", "m/4294967296", "m/99999999999999999999", "m/0''", "m/'", "m/h", "m/1.5",
        "m/١", "mm/0", "m\\0",
    ])
    func refusesMalformedPaths(text: String) {
        let error = keystoreError { _ = try DerivationPath(text) }
        #expect(error?.kind == .invalidDerivationPath, "\(text)")
    }

    @Test func namesTheBadComponent() {
        let error = keystoreError { _ = try DerivationPath("m/44'/6o'/0'") }
        #expect(
            error?.message
                == "derivation path \"m/44'/6o'/0'\" component 2 (\"6o'\") is not a number")
    }

    @Test func refusesPathsDeeperThan255() {
        let deep = "m" + String(repeating: "/0", count: 256)
        #expect(keystoreError { _ = try DerivationPath(deep) }?.kind == .invalidDerivationPath)
        let deepest = "m" + String(repeating: "/0", count: 255)
        #expect(keystoreError { _ = try DerivationPath(deepest) } == nil)
    }
}
