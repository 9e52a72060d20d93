import Testing

@testable import Keystore

@Suite struct ScryptTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let salt: String
        let n, r, p: Int
        let derived: String
        var testDescription: String { "N=\(n) r=\(r) p=\(p)" }
    }

    /// RFC 7914 section 12, the first three vectors (the fourth, N = 2^20, needs 1 GiB).
    /// Proves the swift-crypto call is wired with N, r and p in the right places.
    static let vectors = [
        Vector(
            password: "", salt: "", n: 16, r: 1, p: 1,
            derived: "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"),
        Vector(
            password: "password", salt: "NaCl", n: 1024, r: 8, p: 16,
            derived: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"),
        Vector(
            password: "pleaseletmein", salt: "SodiumChloride", n: 16384, r: 8, p: 1,
            derived: "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
                + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"),
    ]

    @Test(arguments: vectors)
    func matchesRFC7914(vector: Vector) throws {
        let cost = try ScryptCost(n: vector.n, r: vector.r, p: vector.p)
        let key = try cost.deriveKey(
            password: Array(vector.password.utf8), salt: Array(vector.salt.utf8), byteCount: 64)
        #expect(hex(key.bytes) == vector.derived)
    }

    @Test func standardCostIsTheDocumentedOne() {
        #expect(ScryptCost.standard.n == 32768)
        #expect(ScryptCost.standard.r == 8)
        #expect(ScryptCost.standard.p == 1)
        #expect(ScryptCost.standard.description == "scrypt(N=32768, r=8, p=1)")
    }

    @Test(arguments: [
        (0, 8, 1), (1, 8, 1), (1000, 8, 1), (1 << 21, 8, 1), (1 << 10, 0, 1), (1 << 10, 17, 1),
        (1 << 10, 8, 0), (1 << 10, 8, 17), (1 << 20, 16, 1), (1 << 16, 1, 1), (-2, 8, 1),
    ])
    func refusesCostsOutsideTheBounds(n: Int, r: Int, p: Int) {
        let error = keystoreError { _ = try ScryptCost(n: n, r: r, p: p) }
        #expect(error?.kind == .unsupportedKDF)
    }

    /// The extremes the bounds allow must also be accepted by BoringSSL's memory check
    /// (swift-crypto does not let us pass our own limit).
    @Test(arguments: [(2, 16, 16), (1 << 15, 1, 1), (2, 16, 1), (4, 1, 16)])
    func acceptedCostsRunInBoringSSL(n: Int, r: Int, p: Int) throws {
        let cost = try ScryptCost(n: n, r: r, p: p)
        let key = try cost.deriveKey(password: [1], salt: [2], byteCount: 32)
        #expect(key.bytes.count == 32)
    }
}
