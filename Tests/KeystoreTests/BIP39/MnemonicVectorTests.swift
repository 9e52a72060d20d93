import Keystore
import Testing

/// Trezor's BIP39 English vectors (see Vectors/BIP39Vectors.swift for the source).
@Suite struct MnemonicVectorTests {
    @Test(arguments: bip39Vectors)
    func entropySpellsThePhrase(vector: BIP39Vector) throws {
        let mnemonic = try Mnemonic(entropy: bytes(vector.entropy))
        #expect(mnemonic.phrase == vector.phrase)
        #expect(mnemonic.words == vector.phrase.split(separator: " ").map(String.init))
    }

    @Test(arguments: bip39Vectors)
    func phraseParsesToTheEntropy(vector: BIP39Vector) throws {
        let mnemonic = try Mnemonic(phrase: vector.phrase)
        #expect(hex(mnemonic.entropy) == vector.entropy)
        #expect(mnemonic == (try Mnemonic(entropy: bytes(vector.entropy))))
    }

    @Test(arguments: bip39Vectors)
    func seedWithPassphraseTREZOR(vector: BIP39Vector) throws {
        let mnemonic = try Mnemonic(phrase: vector.phrase)
        #expect(hex(mnemonic.seed(passphrase: bip39VectorPassphrase)) == vector.seed)
    }

    /// The vectors also give the BIP32 master key of each seed.
    @Test(arguments: bip39Vectors)
    func seedGivesTheMasterKey(vector: BIP39Vector) throws {
        let master = try HDKey(seed: bytes(vector.seed))
        let expected = try #require(ExtendedKeyFields(vector.xprv))
        #expect(master.depth == 0 && expected.depth == 0)
        #expect(master.chainCode == expected.chainCode)
        #expect([0] + secretBytes(master.privateKey) == expected.key)
    }
}
