import Keystore
import Secp256k1
import Testing

@Suite struct HDKeyTests {
    /// BIP32 test vectors 1 to 3 (source in Vectors/BIP32Vectors.swift): every chain's private
    /// key, compressed public key, chain code, depth and child number.
    @Test(arguments: bip32Vectors)
    func matchesTheSpecVectors(vector: BIP32Vector) throws {
        let master = try HDKey(seed: bytes(vector.seed))
        for chain in vector.chains {
            let key = try master.derive(DerivationPath(chain.path))
            let xprv = try #require(ExtendedKeyFields(chain.xprv), "\(chain.path) xprv")
            let xpub = try #require(ExtendedKeyFields(chain.xpub), "\(chain.path) xpub")
            #expect([0] + secretBytes(key.privateKey) == xprv.key, "\(chain.path) private key")
            #expect(key.publicKey.compressed == xpub.key, "\(chain.path) public key")
            #expect(key.chainCode == xprv.chainCode, "\(chain.path) chain code")
            #expect(key.chainCode == xpub.chainCode, "\(chain.path) chain code (xpub)")
            #expect(key.depth == xprv.depth, "\(chain.path) depth")
            #expect(key.childNumber == xprv.childNumber, "\(chain.path) child number")
        }
    }

    @Test func derivingStepByStepEqualsDerivingThePath() throws {
        let master = try HDKey(seed: bytes("000102030405060708090a0b0c0d0e0f"))
        let stepwise = try master.child(.hardened(0)).child(.normal(1)).child(.hardened(2))
        let direct = try master.derive(DerivationPath("m/0'/1/2'"))
        #expect(secretBytes(stepwise.privateKey) == secretBytes(direct.privateKey))
        #expect(stepwise.chainCode == direct.chainCode)
        #expect(try master.derive(DerivationPath("m")).chainCode == master.chainCode)
    }

    @Test(arguments: [0, 15, 65, 128])
    func refusesSeedsOfTheWrongLength(count: Int) {
        let error = keystoreError { _ = try HDKey(seed: [UInt8](repeating: 1, count: count)) }
        #expect(error?.kind == .invalidSeed)
    }

    /// The dev chains' well-known mnemonic (Hardhat, Anvil, Foundry): its first account.
    @Test func derivesTheWellKnownDevAccount() throws {
        let mnemonic = try Mnemonic(
            phrase: "test test test test test test test test test test test junk")
        let key = try mnemonic.privateKey()
        #expect(
            hex(secretBytes(key))
                == "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
        #expect(
            ethereumAddress(key.publicKey)
                == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266".lowercased())
        // Second account, m/44'/60'/0'/0/1, as the same tools list it.
        let second = try mnemonic.privateKey(path: DerivationPath("m/44'/60'/0'/0/1"))
        #expect(
            ethereumAddress(second.publicKey)
                == "0x70997970C51812dc3A010C7d01b50e0d17dc79C8".lowercased())
    }

    /// Cross-checked with referees: python-mnemonic 0.21 for the seed, eth-account 0.14
    /// (`Account.from_mnemonic`) for the addresses, including an NFKD-normalised passphrase.
    @Test func agreesWithEthAccount() throws {
        let mnemonic = try Mnemonic(phrase: MnemonicTests.zeroPhrase)
        #expect(
            hex(mnemonic.seed())
                == "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1"
                + "9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4")
        let key = try mnemonic.privateKey()
        #expect(
            hex(secretBytes(key))
                == "1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727")
        #expect(
            ethereumAddress(key.publicKey)
                == "0x9858EfFD232B4033E47d90003D41EC34EcaEda94".lowercased())
        for passphrase in ["caf\u{e9}", "cafe\u{301}"] {
            let protected = try mnemonic.privateKey(passphrase: passphrase)
            #expect(
                ethereumAddress(protected.publicKey)
                    == "0xB4abD8d6C5Bd80A793e994CCa981F8493d135Ed8".lowercased())
        }
    }

    @Test func passphraseSelectsAnotherWallet() throws {
        let mnemonic = try Mnemonic(
            phrase: "test test test test test test test test test test test junk")
        let plain = try mnemonic.privateKey()
        let other = try mnemonic.privateKey(passphrase: "TREZOR")
        #expect(secretBytes(plain) != secretBytes(other))
    }

    @Test func keepsKeysOutOfDescriptions() throws {
        let key = try HDKey(seed: bytes("000102030405060708090a0b0c0d0e0f"))
        var dumped = ""
        dump(key, to: &dumped)
        let chainCode = hex(key.chainCode)
        for text in [String(describing: key), String(reflecting: key), dumped] {
            #expect(!text.contains(chainCode))
            #expect(!text.contains(hex(secretBytes(key.privateKey))))
        }
    }
}
