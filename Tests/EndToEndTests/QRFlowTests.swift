import Foundation
import QR
import Testing

/// QR paths through the real CLI: codes rendered by `tender`, read back from real pixels.
@Suite struct QRFlowTests {
    /// Alice funded by an issuer, Bob empty; both trust the issuer.
    func pair() throws -> (CLI, alice: String, bob: String) {
        let (cli, _, alice, bob) = try CLI.alicePaysBob(notes: 5, amount: 100)
        return (cli, alice, bob)
    }

    @Test func aPaymentRequestRoundTripsThroughPNGAndPDF() throws {
        let (cli, _, bob) = try pair()
        let request = try cli.ok([
            "request", "--data-dir", cli.path("bob"), "--amount", "250", "--memo", "two teas",
            "--qr", "png", "--out", cli.path("request.png"), "--json",
        ]).json
        let uri = try #require(request["uri"] as? String)
        #expect(uri.hasPrefix("tender:\(bob)?"))
        let scanned = try cli.ok(["scan", "--image", cli.path("request.png"), "--json"]).json
        #expect(scanned["text"] as? String == uri)
        #expect(scanned["payable"] as? Bool == true)
        #expect((scanned["explanation"] as? String)?.contains("250") == true)

        try cli.ok([
            "request", "--data-dir", cli.path("bob"), "--amount", "7", "--qr", "pdf", "--out",
            cli.path("sheet.pdf"), "--name", "Ana's stall",
        ])
        let render = try CLI.launch(
            URL(fileURLWithPath: "/usr/bin/pdftoppm"),
            ["-r", "100", "-png", cli.path("sheet.pdf"), cli.path("sheet")],
            environment: nil, directory: cli.workDirectory)
        try #require(render.status == 0, "pdftoppm (poppler-utils) is needed: \(render.stderr)")
        let fromPaper = try cli.ok(["scan", "--image", cli.path("sheet-1.png"), "--json"]).json
        #expect((fromPaper["text"] as? String)?.contains("amount=7&") == true)
    }

    @Test func aStaticPayMeCodePrintsOnAThermalPrinterAndScans() throws {
        let (cli, _, bob) = try pair()
        let printed = try cli.ok([
            "print", "--data-dir", cli.path("bob"), "--name", "Ana's stall", "--qr", "escpos",
            "--out", cli.path("receipt.escpos"),
        ])
        let uri = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            uri
                == "tender:\(bob)?chain=31337&vault=0x5FbDB2315678afecb367f032d93F642f64180aa3&name=Ana%27s%20stall"
        )
        // The printer stream carries the stall's name and the code as a raster image.
        let stream = try cli.bytes("receipt.escpos")
        #expect(stream.starts(with: [0x1B, 0x40]))
        #expect(String(decoding: stream, as: UTF8.self).contains("Ana's stall"))
        try cli.ok([
            "print", "--data-dir", cli.path("bob"), "--name", "Ana's stall", "--qr", "png", "--out",
            cli.path("payme.png"),
        ])
        let scanned = try cli.ok(["scan", "--image", cli.path("payme.png"), "--json"]).json
        #expect(scanned["text"] as? String == uri)
        #expect((scanned["explanation"] as? String)?.contains("payer chooses the amount") == true)
        #expect(
            try cli.run([
                "print", "--data-dir", cli.path("bob"), "--name", String(repeating: "x", count: 65),
            ]).status == 64)
    }

    @Test func aScannedRequestIsPaidOnItsTermsAndTheReceiptIsShownAsACode() throws {
        let (cli, _, bob) = try pair()
        let request = try cli.ok([
            "request", "--data-dir", cli.path("bob"), "--amount", "40", "--memo", "bread", "--qr",
            "png", "--out", cli.path("req.png"), "--json",
        ]).json
        let uri = try #require(request["uri"] as? String)
        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("payment"),
            "--json",
        ]).json
        #expect(paid["requestId"] as? String == request["requestId"] as? String)
        #expect(paid["amount"] as? String == "40")
        #expect(paid["payee"] as? String == bob)

        // Bob scans the payment from frames and shows his receipt as a code on the terminal.
        try cli.ok(["show", cli.path("payment"), "--frames-out", cli.path("payment.grey")])
        let received = try cli.run(
            [
                "receive", "--data-dir", cli.path("bob"), "--frames", "640x480", "--qr",
                "--receipt-out", cli.path("receipt"),
            ], stdin: "payment.grey")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(received.stdout.contains("▀") || received.stdout.contains("█"))
        #expect(received.stdout.contains("Received 40"))
        try cli.ok(["receipt", cli.path("receipt"), "--data-dir", cli.path("alice")])

        // The same request cannot be paid twice by the same payer (the id is recorded).
        let again = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("again"),
        ])
        #expect(again.status == 73, "\(again.stderr)")
        #expect(again.stderr.contains("already paid request"), "\(again.stderr)")
        // A request for another chain is refused by name.
        let elsewhere = uri.replacingOccurrences(of: "chain=31337", with: "chain=1")
        let refused = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--request", elsewhere, "--out", cli.path("x"),
        ])
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains("the payee asks to be paid in chain 1, vault"),
            "\(refused.stderr)")
    }

    @Test func payWithQRShowsTheLoopOnTheTerminal() throws {
        let (cli, _, bob) = try pair()
        let shown = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "15", "--qr",
            "--loops", "1",
        ])
        #expect(shown.stdout.contains("show this to the payee: frame 1/1"))
        #expect(shown.stdout.contains("pending until the payee's receipt"))
        // The amount paid is pending; the change of the 100 coin is spendable again.
        #expect(try cli.balance("alice").pending == 15)
    }

    /// No Bluetooth: the payment goes over as an animated code, the receipt comes back as one.
    @Test(arguments: ["binary", "ur"])
    func aPaymentAndItsReceiptTravelAsQRCodes(_ encoding: String) throws {
        let (cli, _, bob) = try pair()
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "130", "--out",
            cli.path("payment"),
        ])
        try cli.ok([
            "show", cli.path("payment"), "--encoding", encoding, "--fragment", "200",
            "--frames-out", cli.path("payment.grey"),
        ])
        let seen = try cli.run(
            ["scan", "--frames", "640x480", "--out", cli.path("scanned-payment")],
            stdin: "payment.grey")
        #expect(seen.status == 0, "\(seen.stderr)")
        #expect(seen.stderr.contains("animated code"))
        #expect(try cli.bytes("scanned-payment") == cli.bytes("payment"))
        try cli.ok([
            "receive", cli.path("scanned-payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"),
        ])

        try cli.ok(["show", cli.path("receipt"), "--frames-out", cli.path("receipt.grey")])
        let back = try cli.run(
            ["scan", "--frames", "640x480", "--out", cli.path("scanned-receipt")],
            stdin: "receipt.grey")
        #expect(back.status == 0, "\(back.stderr)")
        try cli.ok(["receipt", cli.path("scanned-receipt"), "--data-dir", cli.path("alice")])
        #expect(try cli.balance("alice") == (370, 0, 0))
        #expect(try cli.balance("bob") == (130, 0, 0))
    }

    /// A clip loops in a player: `pay --qr --frames-out` writes `--loops` passes, the codes of
    /// one pass and then the fountain's mixed parts, so a camera that keeps catching the same
    /// frames of a short loop still sees new codes.
    @Test func payWritesItsLoopsAsMixedPartsAfterTheFirstPass() throws {
        let (cli, _, bob) = try pair()
        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "130", "--qr",
            "--fragment", "200", "--loops", "3", "--frames-out", cli.path("screen.grey"),
            "--json",
        ])
        let json = try #require(paid.stdout.range(of: "{\n", options: .backwards))
        let result = try JSONSerialization.jsonObject(
            with: Data(paid.stdout[json.lowerBound...].utf8))
        let requestID = try #require((result as? [String: Any])?["requestId"] as? String)
        try cli.ok([
            "payments", "export", requestID, "--data-dir", cli.path("alice"), "--out",
            cli.path("payment"),
        ])
        let shown = try cli.ok([
            "show", cli.path("payment"), "--fragment", "200", "--frames-out", cli.path("one.grey"),
            "--json",
        ])
        let codes = try #require(shown.json["codes"] as? Int)
        let frame = 640 * 480
        let clip = try cli.bytes("screen.grey")
        #expect(codes > 1 && clip.count == 3 * codes * frame)
        let frames = stride(from: 0, to: clip.count, by: frame).map { clip[$0..<($0 + frame)] }
        let firstPass = Set(frames.prefix(codes).map { Array($0) })
        #expect(firstPass.count == codes)
        #expect(frames.dropFirst(codes).allSatisfy { !firstPass.contains(Array($0)) })
        let scanned = try cli.run(
            ["scan", "--frames", "640x480", "--out", cli.path("scanned")], stdin: "screen.grey")
        #expect(scanned.status == 0)
        #expect(try cli.bytes("scanned") == cli.bytes("payment"))
        // Every pass is drawn in memory before it is written: a bounded number of them.
        let tooMany = try cli.run([
            "show", cli.path("payment"), "--loops", "101", "--frames-out", cli.path("many.grey"),
        ])
        #expect(tooMany.status == 64 && tooMany.stderr.contains("--loops must be 0…100"))
    }

    /// Both screens as video (what the camera lab plays into real cameras): `pay --qr
    /// --frames-out` writes its loop, `receive --frames … --qr --frames-out` scans it and writes
    /// the receipt code as a frame, and that frame scanned back is the receipt Alice records.
    @Test func payAndReceiveWriteTheirCodesAsVideoFrames() throws {
        let (cli, _, bob) = try pair()
        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "130", "--qr",
            "--loops", "1", "--frames-out", cli.path("alice-screen.grey"), "--hold", "2", "--json",
        ])
        // The JSON result follows the terminal frames; it has no nested objects.
        let json = try #require(paid.stdout.range(of: "{\n", options: .backwards))
        let result = try JSONSerialization.jsonObject(
            with: Data(paid.stdout[json.lowerBound...].utf8))
        let requestID = try #require((result as? [String: Any])?["requestId"] as? String)
        let clip = try cli.bytes("alice-screen.grey")
        #expect(clip.count % (640 * 480 * 2) == 0 && !clip.isEmpty)
        try cli.ok([
            "payments", "export", requestID, "--data-dir", cli.path("alice"), "--out",
            cli.path("payment"),
        ])
        let received = try cli.run(
            [
                "receive", "--data-dir", cli.path("bob"), "--frames", "640x480", "--qr",
                "--frames-out", cli.path("bob-screen.grey"), "--receipt-out", cli.path("receipt"),
            ], stdin: "alice-screen.grey")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(try cli.bytes("bob-screen.grey").count == 640 * 480)
        let back = try cli.run(
            ["scan", "--frames", "640x480", "--out", cli.path("scanned-receipt")],
            stdin: "bob-screen.grey")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try cli.bytes("scanned-receipt") == cli.bytes("receipt"))
        try cli.ok(["receipt", cli.path("scanned-receipt"), "--data-dir", cli.path("alice")])
        #expect(try cli.balance("alice") == (370, 0, 0))
        let misplaced = try cli.run([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--frames-out",
            cli.path("x.grey"),
        ])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("--frames-out goes with --qr"))
    }

    /// What fails before the payment could leave (no camera, codes that do not fit the frame
    /// size, options that contradict the scanned request) spends nothing.
    @Test func payWithQRSpendsNothingWhenItCannotShowOrScan() throws {
        let (cli, _, bob) = try pair()
        let before = try cli.balance("alice")
        let noCamera = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "10", "--qr",
            "--camera", "/dev/video-none",
        ])
        #expect(noCamera.status == 66)
        #expect(noCamera.stderr.contains("no camera at /dev/video-none"))
        let tooSmall = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "10", "--qr",
            "--frames-out", cli.path("x.grey"), "--frame-size", "40x40",
        ])
        #expect(tooSmall.status == 64)
        #expect(tooSmall.stderr.contains("does not fit in 40x40"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("x.grey")))
        #expect(try cli.balance("alice") == before)
        #expect(
            try cli.ok(["history", "--data-dir", cli.path("alice")]).stdout.contains("cancelled"))

        let request =
            try cli.ok([
                "request", "--data-dir", cli.path("bob"), "--amount", "50", "--qr", "png", "--out",
                cli.path("request.png"), "--json",
            ]).json["uri"] as? String
        let uri = try #require(request)
        for extra in [
            ["--to", bob], ["--amount", "1"], ["--request-id", "00"], ["--memo", "hi"],
        ] {
            let refused = try cli.run(
                ["pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("p")]
                    + extra)
            #expect(refused.status == 64, "\(extra)")
        }
        #expect(try cli.balance("alice") == before)
    }

    /// The payee's camera sees its own request code before the payer's payment: receive
    /// skips what is not a payment (saying what it was) and takes the payment.
    @Test func receiveScansPastCodesThatAreNotPayments() throws {
        let (cli, _, bob) = try pair()
        try cli.ok([
            "request", "--data-dir", cli.path("bob"), "--amount", "40", "--qr", "png", "--out",
            cli.path("request.png"),
        ])
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "40", "--out",
            cli.path("payment"),
        ])
        let code = try QREncoder.encode(try cli.bytes("payment")).rasterize(scale: 4, border: 4)
        try cli.write(PNG.encode(code), to: "payment.png")
        let received = try cli.run([
            "receive", "--data-dir", cli.path("bob"), "--image", cli.path("request.png"),
            cli.path("payment.png"),
        ])
        #expect(received.status == 0, "\(received.stderr)")
        #expect(received.stderr.contains("skipped a code: Tender payment request"))
        #expect(received.stdout.contains("Received 40"))
    }

    /// A code's text could carry terminal escape sequences (clear the screen, fake a
    /// "Received" line): `scan` shows them as visible escapes, never raw.
    @Test func scannedTextNeverReachesTheTerminalRaw() throws {
        let cli = try CLI()
        let hostile = "\u{1B}[2J\u{1B}[HReceived 1000\u{202E}olleh\nsecond line"
        let code = try QREncoder.encode(Array(hostile.utf8)).rasterize(scale: 4, border: 4)
        try cli.write(PNG.encode(code), to: "hostile.png")
        let scanned = try cli.ok(["scan", "--image", cli.path("hostile.png")])
        #expect(!scanned.stdout.contains("\u{1B}"))
        #expect(!scanned.stdout.contains("\u{202E}"))
        #expect(scanned.stdout.contains(#"\u{1B}[2J\u{1B}[HReceived 1000\u{202E}olleh"#))
        #expect(scanned.stdout.contains("\nsecond line"))
    }

    /// The payee keeps its own requests: a payment naming one must meet its amount and
    /// expiry, so a wrong payment can neither be accepted nor burn the request id.
    @Test func aPaymentMustMeetThePayeesOwnRequest() throws {
        let (cli, issuer, _, bob) = try CLI.alicePaysBob(notes: 5, amount: 100)
        let shown = try cli.ok([
            "request", "--data-dir", cli.path("bob"), "--amount", "100", "--qr", "png", "--out",
            cli.path("request.png"), "--json",
        ]).json
        let uri = try #require(shown["uri"] as? String)
        let id = try #require(shown["requestId"] as? String)
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "1", "--request-id",
            id, "--out", cli.path("wrong"),
        ])
        let wrong = try cli.run(["receive", cli.path("wrong"), "--data-dir", cli.path("bob")])
        #expect(wrong.status == 65)
        // The amounts in the CLI's units (an asset without a denomination: base units).
        #expect(wrong.stderr.contains("amount 1 base units, requested 100 base units"))
        #expect(try cli.balance("bob") == (0, 0, 0))

        // A second wallet pays the code as shown: accepted (the id was not burned).
        let carol = try cli.initWallet("carol")
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", carol, "--amount", "200", "--out",
            cli.path("to-carol"),
        ])
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("carol")])
        try cli.ok(["receive", cli.path("to-carol"), "--data-dir", cli.path("carol")])
        try cli.ok([
            "pay", "--data-dir", cli.path("carol"), "--request", uri, "--out", cli.path("right"),
        ])
        try cli.ok(["receive", cli.path("right"), "--data-dir", cli.path("bob")])
        #expect(try cli.balance("bob").spendable == 100)
    }

    @Test func aPaymentAfterTheRequestExpiredIsRefused() throws {
        let (cli, _, _) = try pair()
        let start = UInt64(Date().timeIntervalSince1970)
        let shown = try cli.ok(
            [
                "request", "--data-dir", cli.path("bob"), "--amount", "10", "--expires-in", "60",
                "--qr", "png", "--out", cli.path("request.png"), "--json",
            ], extraEnvironment: ["TENDER_NOW": String(start)]
        ).json
        let uri = try #require(shown["uri"] as? String)
        try cli.ok(
            ["pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("late")],
            extraEnvironment: ["TENDER_NOW": String(start + 10)])
        let late = try cli.run(
            ["receive", cli.path("late"), "--data-dir", cli.path("bob")],
            extraEnvironment: ["TENDER_NOW": String(start + 120)])
        #expect(late.status == 65)
        #expect(late.stderr.contains("expired"))
    }

    @Test func scanSaysWhenNothingIsThereAndRefusesTornStreams() throws {
        let cli = try CLI()
        try cli.write([UInt8](repeating: 255, count: 640 * 480 * 2), to: "blank.grey")
        let blank = try cli.run(["scan", "--frames", "640x480"], stdin: "blank.grey")
        #expect(blank.status == 66)
        #expect(blank.stderr.contains("no code found (2 frame(s) scanned)"))
        try cli.write([UInt8](repeating: 255, count: 1000), to: "torn.grey")
        let torn = try cli.run(["scan", "--frames", "640x480"], stdin: "torn.grey")
        #expect(torn.status == 74)
        #expect(torn.stderr.contains("ended inside a frame"))
        let nocam = try cli.run(["scan", "--camera", "/dev/video-none"])
        #expect(nocam.status == 66)
        #expect(nocam.stderr.contains("no camera at /dev/video-none"))
        try cli.write(Array("not an image".utf8), to: "note.txt")
        #expect(try cli.run(["scan", "--image", cli.path("note.txt")]).status == 64)
        #expect(try cli.run(["scan"]).status == 64)
    }
}
