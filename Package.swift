// swift-tools-version: 6.1
import PackageDescription

/// Warnings that keep Swift 6 strict concurrency honest everywhere.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The hot loops every payment and scan runs through (keccak-256 and CBOR; the fountain's XOR
/// and checksums; drawing, halving and decoding frames) optimised in debug builds too: the
/// labs run debug builds, where keccak-256 unoptimised is 26 times slower (11 µs a 64-byte hash
/// against 0.42) and drawing a receipt's frames 3 times. None of these modules uses `assert`,
/// which -O drops (preconditions, bounds and overflow checks stay). Swift takes the last of
/// -Onone and -O, so release builds are unchanged.
let optimisedEvenInDebug: [SwiftSetting] =
    strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// How the released `tender` is linked: with lld, relative relocations packed (DT_RELR, glibc
/// 2.36 and later: Debian 12, Raspberry Pi OS 12) and no symbol of its own exported (the static
/// runtime's link arguments export them all; nothing looks them up). Both are pages the loader
/// reads or writes at every start: the idle node is 5.5 MiB smaller (Docs/BENCHMARKS.md, "Idle
/// memory").
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--no-export-dynamic",
        ], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "Tender",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tender", targets: ["TenderCLI"]),
        .library(name: "Tender", targets: ["Tender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // ── System libraries: the C libraries Tender links (apt packages as providers, pkg-config flags).
        .systemLibrary(
            name: "CSecp256k1", path: "Sources/System/CSecp256k1", pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]),
        .systemLibrary(
            name: "CQREncode", path: "Sources/System/CQREncode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CZBar", path: "Sources/System/CZBar", pkgConfig: "zbar",
            providers: [.apt(["libzbar-dev"])]),
        // zxing-cpp (C++, Debian's libzxing-dev) behind an extern "C" shim: Swift sees plain C.
        // Optimised in debug builds too: its guard reads every pixel of every frame.
        .target(
            name: "CZXing", path: "Sources/System/CZXing",
            cxxSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("ZXing")]),
        .systemLibrary(
            name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CDBus", path: "Sources/System/CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CBlueZ", path: "Sources/System/CBlueZ", pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]),
        // V4L2 ioctls zbar does not expose (frame rate); kernel headers only.
        .systemLibrary(
            name: "CV4L2", path: "Sources/System/CV4L2", providers: [.apt(["linux-libc-dev"])]),

        // ── Core: pure logic (the protocol, encodings, link framing, payment sessions); no I/O, no clock.
        // Keccak-256 of eight short messages at once on AVX-512 (C: Swift cannot pick vector
        // instructions per function at run time). Optimised in debug builds too.
        .target(
            name: "CKeccak", path: "Sources/Core/CKeccak",
            cSettings: [.unsafeFlags(["-O2"])]),
        // Pure encodings: hex, keccak-256, deterministic CBOR, EIP-712 typed-data hashing.
        .target(
            name: "Codecs", dependencies: ["CKeccak"], path: "Sources/Core/Codecs",
            swiftSettings: optimisedEvenInDebug),
        // The protocol core: notes, transfers, proofs, verification, payments, state machines. No I/O.
        .target(
            name: "Tender", dependencies: ["Codecs", "Secp256k1"], path: "Sources/Core/Tender",
            swiftSettings: strict),
        // Payment codes: the tender: request URI and recognition of other payment strings. Pure.
        .target(
            name: "PaymentCodes",
            dependencies: ["Tender", "Codecs", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Core/PaymentCodes", swiftSettings: strict),
        // Cashu ecash (Docs/CASHU.md): tokens V3/V4, keysets and their ids, blind signatures,
        // DLEQ proofs checked offline, P2PK locks, a payee's offline acceptance. Pure.
        .target(
            name: "Cashu",
            dependencies: [
                "Codecs", "Secp256k1", .product(name: "Crypto", package: "swift-crypto"),
            ], path: "Sources/Core/Cashu", swiftSettings: strict),
        // Animated codes: fountain coding, BC-UR (bytewords) and Tender's binary frames. Pure.
        .target(
            name: "Fountain",
            dependencies: ["Codecs", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Core/Fountain", swiftSettings: optimisedEvenInDebug),
        // Bluetooth LE link framing: fragments, bounded reassembly, windowed delivery over
        // datagrams (ATT), message framing over L2CAP packet channels. Pure: no I/O, no clock.
        .target(name: "Link", path: "Sources/Core/Link", swiftSettings: strict),
        // Encrypted sessions: the Noise Protocol Framework (XX and IK over 25519, ChaChaPoly,
        // SHA256) and SecureChannel's records for messages of any size. Pure, no I/O.
        .target(
            name: "Noise", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Core/Noise", swiftSettings: strict),
        // The payment conversation inside a Noise session (XX or IK), over any message link:
        // hello with the request, offer with the payment, answer with the receipt. Pure.
        .target(
            name: "PaymentSession", dependencies: ["Noise", "Codecs"],
            path: "Sources/Core/PaymentSession", swiftSettings: strict),

        // ── Adapters: one owner per C library or system API (kernel, libsecp256k1, keys, SQLite, codes, cameras, printers, D-Bus, BlueZ, the EVM chain).
        // System calls: owned descriptors, EINTR retried with the failing call named, durable
        // atomic writes, secure wipes. The one place Tender talks to the kernel's file API.
        .target(name: "Posix", path: "Sources/Adapters/Posix", swiftSettings: strict),
        // Thin owner of the libsecp256k1 context.
        .target(
            name: "Secp256k1", dependencies: ["CSecp256k1", "Posix"],
            path: "Sources/Adapters/Secp256k1", swiftSettings: strict),
        // Keys at rest: scrypt + ChaCha20-Poly1305 key files, BIP39/BIP32 backup.
        .target(
            name: "Keystore",
            dependencies: [
                "Secp256k1", "Codecs", "Posix",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ], path: "Sources/Adapters/Keystore", swiftSettings: strict),
        // SQLite (through GRDB): coins, notes, transfers, payments, receipts, seen-set, evidence, redeems.
        .target(
            name: "WalletStore",
            dependencies: ["Tender", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Adapters/WalletStore", swiftSettings: strict),
        // QR adapter: libqrencode out, zxing-cpp and libzbar in, renderers (terminal, PNG, SVG, PDF, ESC/POS).
        .target(
            name: "QR", dependencies: ["CQREncode", "CZBar", "CZXing", "CZlib"],
            path: "Sources/Adapters/QR", swiftSettings: optimisedEvenInDebug),
        // One scanning pipeline for camera, images and raw streams; animated code output.
        .target(
            name: "Scanning", dependencies: ["QR", "Fountain", "Codecs"],
            path: "Sources/Adapters/Scanning",
            swiftSettings: optimisedEvenInDebug),
        // Frame sources: V4L2 cameras (through zbar's video API) and raw grey frame streams.
        .target(
            name: "Camera", dependencies: ["CZBar", "CV4L2", "QR", "Posix"],
            path: "Sources/Adapters/Camera", swiftSettings: strict),
        // Printable output: PDF sheets and ESC/POS for thermal receipt printers (native QR or raster).
        .target(
            name: "Printing", dependencies: ["QR", "Posix"], path: "Sources/Adapters/Printing",
            swiftSettings: strict),
        // D-Bus on libdbus: one thread owns the connection; calls, signals and exported
        // objects as Swift concurrency.
        .target(
            name: "DBus", dependencies: ["CDBus", "Posix"], path: "Sources/Adapters/DBus",
            swiftSettings: strict),
        // BlueZ over D-Bus, typed: session, adapters, discovery, devices, GATT (central and
        // peripheral), advertisements; errors a person can act on.
        .target(
            name: "BlueZ", dependencies: ["DBus"], path: "Sources/Adapters/BlueZ",
            swiftSettings: strict),
        // The EVM client: RLP, EIP-1559 transactions, JSON-RPC over HTTP, fees, nonces, receipts
        // and reorgs, the vault's ABI (Docs/EVM.md).
        .target(
            name: "EVM",
            dependencies: [
                "Codecs", "Secp256k1", "Tender", .product(name: "BigInt", package: "BigInt"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/Adapters/EVM", swiftSettings: strict),
        // A Cashu mint over HTTP (NUT-01..07, 09): keys, swap, state checks, restore, mint and
        // melt quotes, through AsyncHTTPClient.
        .target(
            name: "CashuMint",
            dependencies: [
                "Cashu", "Codecs", "Secp256k1",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/Adapters/CashuMint", swiftSettings: strict),
        // The Cashu wallet's store (SQLite via GRDB): mints and keysets, proofs and their states,
        // payments, swaps in flight. Every state change one transaction.
        .target(
            name: "CashuStore",
            dependencies: [
                "Cashu", "Codecs", "Secp256k1", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/Adapters/CashuStore", swiftSettings: strict),

        // ── The node: wallet and exchange, settlement, the payment transports, its host, API and log.
        // The node's Cashu wallet (Docs/CASHU.md): tokens taken offline, swapped at their mint
        // at the next sync, given from the wallet's own proofs.
        .target(
            name: "CashuWallet",
            dependencies: [
                "Cashu", "CashuStore", "CashuMint", "Codecs", "NodeKit", "PaymentCodes",
                "Secp256k1",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Node/CashuWallet", swiftSettings: strict),
        // The node: the wallet service (every operation, typed NodeError, the store behind it)
        // and the payment exchange every transport plugs into.
        .target(
            name: "NodeKit",
            dependencies: [
                "Tender", "Codecs", "Secp256k1", "WalletStore", "Posix",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/Node/NodeKit", swiftSettings: strict),
        // Settlement, all of it but the chain's wire: redeem batches (the vault's calldata),
        // batch planning by gas, each coin's fate read from the vault's events (pure), the
        // engine that drives a wallet's redeems and fraud proofs against a `SettlementChain`,
        // and the chain registry.
        .target(
            name: "Settlement", dependencies: ["Tender", "Codecs", "NodeKit", "WalletStore"],
            path: "Sources/Node/Settlement", swiftSettings: strict),
        // The settlement engine's chain over the EVM client (`EVMSettlementChain`): redeem
        // transactions and fraud proofs signed, sent again, followed to their receipts.
        .target(
            name: "EVMSettlement",
            dependencies: ["Codecs", "EVM", "NodeKit", "Secp256k1", "Settlement", "Tender"],
            path: "Sources/Node/EVMSettlement", swiftSettings: strict),
        // Payments nearby over Bluetooth LE: Tender's GATT profile, links over GATT, the payee
        // service and the payer's client.
        .target(
            name: "Bluetooth",
            dependencies: [
                "BlueZ", "CBlueZ", "Codecs", "DBus", "Link", "NodeKit", "Noise", "PaymentSession",
                "Posix", "Tender",
            ],
            path: "Sources/Node/Bluetooth", swiftSettings: strict),
        // Payments over QR codes: the payment as an animated code, the receipt read by a camera;
        // a payee's camera watching for payments.
        .target(
            name: "QRTransport",
            dependencies: ["NodeKit", "QR", "Scanning", "Camera", "Tender", "PaymentCodes"],
            path: "Sources/Node/QRTransport", swiftSettings: strict),
        // What a node runs on: data folder, key files, passphrases, clock, files it hands out.
        .target(
            name: "NodeHost",
            dependencies: [
                "CashuStore", "CashuWallet",
                "NodeKit", "Settlement", "Tender", "Codecs", "Secp256k1", "Keystore", "Posix",
                "WalletStore", .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            path: "Sources/Node/NodeHost", swiftSettings: strict),
        // The node's local HTTP API (Hummingbird): token authentication, status, balances,
        // requests, payments, evidence, sync, and payments as Server-Sent Events
        // (Docs/OPERATIONS.md).
        // What an API caller sends, read and checked: JSON bodies and their fields. Pure (no
        // HTTP), so the fuzzer reads bodies as the server does.
        .target(
            name: "APIBodies", dependencies: ["Tender", "PaymentCodes"],
            path: "Sources/Node/APIBodies", swiftSettings: strict),
        .target(
            name: "NodeAPI",
            dependencies: [
                "APIBodies", "NodeKit", "Tender", "PaymentCodes", "Secp256k1", "QR",
                "CashuWallet", "CashuStore", "Cashu", "Codecs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/Node/NodeAPI", swiftSettings: strict),
        // The node's log lines: text or JSON, secrets taken out before anything is written.
        .target(
            name: "NodeLogging",
            dependencies: ["Keystore", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Node/NodeLogging", swiftSettings: strict),
        // Development tools: the local issuer, the dev chain's embedded defaults, crash points
        // (compiled into debug builds only, for the crash tests).
        .target(
            name: "DevTools", dependencies: ["NodeKit", "Tender", "Secp256k1"],
            path: "Sources/Node/DevTools",
            swiftSettings: strict + [.define("TENDER_CRASH_POINTS", .when(configuration: .debug))]
        ),

        // ── The runtime: the long-running node and every orchestration a front end starts.
        // The node's runtime: the long-running node (API, payment feed, payee services, sync
        // loop) and every orchestration a front end starts (paying and taking payments nearby,
        // settling), over ports the tests replace with in-memory ones.
        .target(
            name: "NodeRuntime",
            dependencies: [
                "NodeKit", "NodeHost", "NodeAPI", "NodeLogging", "Bluetooth", "BlueZ", "Noise",
                "PaymentSession", "QRTransport", "EVMSettlement", "Settlement", "EVM", "DevTools",
                "Posix", "Camera", "Scanning", "QR", "CashuMint", "CashuStore", "CashuWallet",
                "Secp256k1", "Tender",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Runtime/NodeRuntime", swiftSettings: strict),

        // ── The command line (`tender`): parses, renders, maps errors to exit statuses; holds no loop.
        .executableTarget(
            name: "TenderCLI",
            dependencies: [
                "CashuMint", "CashuStore", "CashuWallet",
                "NodeRuntime", "NodeKit", "NodeHost", "Settlement", "DevTools", "QRTransport",
                "Tender",
                "Keystore", "QR", "Secp256k1", "Printing", "PaymentCodes", "PaymentSession",
                "Scanning", "Camera", "Posix",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/CLI/TenderCLI", swiftSettings: strict,
            linkerSettings: releaseLinking),

        // ── Tools: fuzzing, the BLE lab's probes, benchmarks.
        // libFuzzer targets for every decoder of untrusted bytes. A normal build makes a runner
        // that replays inputs (regressions); Scripts/fuzz.sh builds it with -sanitize=fuzzer.
        .executableTarget(
            name: "TenderFuzz",
            dependencies: [
                "Tender", "Codecs", "Fountain", "PaymentCodes", "QR", "Link", "Secp256k1",
                "PaymentSession", "Noise", "APIBodies",
            ],
            path: "Fuzz/TenderFuzz", swiftSettings: strict),
        // The BLE lab's probe of the D-Bus and BlueZ layers and of the raw GATT rates.
        .executableTarget(
            name: "BLEProbe", dependencies: ["BlueZ", "Bluetooth", "DBus", "Link"],
            path: "Benchmarks/BLEProbe",
            swiftSettings: strict),
        // The BLE lab's hostile payer (Tests/BLELab/scenarios/hostile-payer.sh).
        .executableTarget(
            name: "BLEHostile",
            dependencies: [
                "BlueZ", "Bluetooth", "Link", "Noise", "PaymentSession",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/BLELab/Hostile", swiftSettings: strict),
        .executableTarget(
            name: "TenderBenchmarks",
            dependencies: [
                "Tender", "Secp256k1", "WalletStore", "QR", "Scanning", "Fountain", "CZBar",
                "CZXing",
                "EVMSettlement", "Settlement", "Codecs", "DevTools", "EVM", "NodeKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/TenderBenchmarks", swiftSettings: strict),

        // ── Tests: a target per module with logic, the runtime in process, the end-to-end suite.
        .target(
            name: "TenderTestSupport", dependencies: ["Tender", "Secp256k1"],
            path: "Tests/TenderTestSupport", swiftSettings: strict),
        .testTarget(
            name: "CodecsTests", dependencies: ["Codecs", "TenderTestSupport"],
            exclude: [
                "Vectors/README.md", "Vectors/cbor_vectors.py", "Vectors/eip712_vectors.py",
                "Vectors/keccak_vectors.py",
            ], swiftSettings: strict),
        .testTarget(
            name: "TenderTests",
            dependencies: ["Tender", "Codecs", "Secp256k1", "TenderTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PaymentCodesTests",
            dependencies: ["PaymentCodes", "Tender", "TenderTestSupport"],
            exclude: ["Referee"], swiftSettings: strict),
        .testTarget(
            name: "FountainTests", dependencies: ["Fountain", "TenderTestSupport"],
            exclude: ["Referee"], swiftSettings: strict),
        .testTarget(
            name: "LinkTests", dependencies: ["Link", "TenderTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "NoiseTests", dependencies: ["Noise", "Codecs", "TenderTestSupport"],
            exclude: ["Referee", "Vectors"], swiftSettings: strict),
        .testTarget(
            name: "PaymentSessionTests", dependencies: ["PaymentSession", "Noise"],
            swiftSettings: strict),
        .testTarget(
            name: "PosixTests", dependencies: ["Posix", "TenderTestSupport"], swiftSettings: strict),
        .testTarget(name: "Secp256k1Tests", dependencies: ["Secp256k1"], swiftSettings: strict),
        .target(
            name: "CashuTestSupport",
            dependencies: [
                "Cashu", "Codecs", "Secp256k1", .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/CashuTestSupport", swiftSettings: strict),
        .testTarget(
            name: "CashuTests",
            dependencies: ["Cashu", "CashuTestSupport", "Codecs", "Secp256k1"],
            swiftSettings: strict),
        .testTarget(
            name: "KeystoreTests",
            dependencies: ["Keystore", "Codecs", "Secp256k1", "TenderTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "WalletStoreTests",
            dependencies: [
                "WalletStore", "Tender", "Secp256k1", "TenderTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "QRTests", dependencies: ["QR", "Scanning", "Fountain", "TenderTestSupport"],
            exclude: ["Referee"],
            swiftSettings: strict),
        .testTarget(
            name: "ScanningTests",
            dependencies: ["Scanning", "QR", "Fountain", "Codecs", "TenderTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "CameraTests", dependencies: ["Camera", "QR"], swiftSettings: strict),
        .testTarget(
            name: "PrintingTests", dependencies: ["Printing", "QR", "Posix", "TenderTestSupport"],
            exclude: ["Referee"],
            swiftSettings: strict),
        .target(
            name: "BusTestSupport", dependencies: ["DBus", "TenderTestSupport"],
            path: "Tests/BusTestSupport", swiftSettings: strict),
        .testTarget(
            name: "DBusTests",
            dependencies: ["DBus", "Posix", "TenderTestSupport", "BusTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "DevToolsTests",
            dependencies: ["DevTools", "NodeKit", "Secp256k1", "Tender", "TenderTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "BlueZTests", dependencies: ["BlueZ", "DBus", "BusTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "BluetoothTests",
            dependencies: [
                "Bluetooth", "BlueZ", "Codecs", "DBus", "Link", "Noise", "PaymentSession",
            ],
            swiftSettings: strict),
        .target(
            name: "ChainTestSupport", dependencies: ["EVM", "Codecs", "Secp256k1", "Tender"],
            path: "Tests/ChainTestSupport", swiftSettings: strict),
        .testTarget(
            name: "CashuMintTests",
            dependencies: [
                "CashuMint", "Cashu", "CashuStore", "CashuWallet", "Codecs", "Secp256k1",
                "ChainTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "CashuStoreTests",
            dependencies: [
                "CashuStore", "Cashu", "CashuTestSupport", "Codecs", "Secp256k1",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "EVMTests",
            dependencies: [
                "EVM", "Codecs", "NodeKit", "Secp256k1", "Tender", "TenderTestSupport",
                "ChainTestSupport", .product(name: "BigInt", package: "BigInt"),
            ],
            exclude: ["Referee"], swiftSettings: strict),
        .testTarget(
            name: "EVMSettlementTests",
            dependencies: [
                "EVMSettlement", "DevTools", "EVM", "Codecs", "NodeKit", "Secp256k1", "Settlement",
                "Tender", "TenderTestSupport", "ChainTestSupport",
                .product(name: "BigInt", package: "BigInt"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SystemLibrariesTests",
            dependencies: ["CQREncode", "CZBar", "CZXing", "CDBus", "CBlueZ"],
            swiftSettings: strict),
        .target(
            name: "NodeTestSupport",
            dependencies: ["NodeKit", "Tender", "Secp256k1", "TenderTestSupport"],
            path: "Tests/NodeTestSupport", swiftSettings: strict),
        .testTarget(
            name: "NodeKitTests",
            dependencies: [
                "NodeKit", "Tender", "Secp256k1", "TenderTestSupport", "NodeTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "NodeHostTests",
            dependencies: [
                "NodeHost", "NodeKit", "Settlement", "Keystore", "Posix", "Secp256k1", "Tender",
                "TenderTestSupport", "NodeTestSupport", "Cashu", "CashuStore", "CashuTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "NodeAPITests",
            dependencies: [
                "NodeAPI", "NodeKit", "PaymentCodes", "QR", "Tender", "TenderTestSupport",
                "NodeTestSupport", "Settlement", "Cashu", "CashuStore", "CashuWallet",
                "CashuTestSupport", "Secp256k1", "Codecs",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "NodeLoggingTests",
            dependencies: [
                "NodeLogging", "Keystore", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "QRTransportTests",
            dependencies: [
                "QRTransport", "NodeKit", "Camera", "QR", "Scanning", "Tender", "TenderTestSupport",
                "NodeTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SettlementTests",
            dependencies: [
                "Settlement", "NodeKit", "Tender", "Codecs", "TenderTestSupport", "NodeTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "NodeRuntimeTests",
            dependencies: [
                "NodeRuntime", "NodeAPI", "NodeHost", "NodeKit", "Settlement", "Bluetooth",
                "QRTransport", "QR",
                "Noise", "Secp256k1", "Tender", "TenderTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Tender", "Codecs", "Secp256k1", "Keystore", "WalletStore", "QR",
                "TenderTestSupport",
                // The Cashu sweep: starts the rig's mint, reads cashu.sqlite.
                "ChainTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Referee"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
