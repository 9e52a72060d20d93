import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// `tender node` under load on loopback, the real binary (`--tender=PATH`, default the release
/// build): time from start to serving, idle memory, then `clients` API clients polling
/// `/api/status` while payments are made through the API at `rate` a second (each prepared
/// under a spending limit, then exported) for `seconds`; latency percentiles, errors and the
/// node's memory across the run. Then the CLI's cold start (`tender balance`).
enum NodeBenchmark {
    struct Setup {
        let folder: URL
        let tender: String
        let environment: [String: String]
        let payee: String
        var home: String { folder.appendingPathComponent("node").path }
    }

    static func run(tender: String, seconds: Int, clients: Int = 200, rate: Int = 20) async throws {
        print("\n== Node: \(clients) API clients + \(rate) payments/s for \(seconds) s (loopback)")
        print("binary: \(tender), \(describe(binary: tender))")
        let setup = try prepare(tender: tender, payments: seconds * rate + 200)
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let port = 18_871
        let started = ContinuousClock.now
        let node = try spawn(
            setup.tender, ["node", "--data-dir", setup.home, "--listen", "127.0.0.1:\(port)"],
            environment: setup.environment)
        defer { node.terminate() }
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(
                    idleTimeout: .seconds(60),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: clients + 8)))
        do {
            try await waitUntilServing(client, port: port)
            Measure.report(
                "start to serving (/healthz answers)", Measure.seconds(since: started) * 1000,
                "ms")
            try await Task.sleep(for: .seconds(3))
            let idle = residentKiB(node.processIdentifier)
            Measure.report("idle RSS (3 s after start)", Double(idle.rss) / 1024, "MiB")
            Measure.report(
                "idle RSS, anonymous (heap and stacks)", Double(idle.anonymous) / 1024, "MiB")
            let token = try String(
                contentsOfFile: setup.home + "/api-token", encoding: .utf8
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            try await load(
                client, port: port, token: token, payee: setup.payee, clients: clients,
                rate: rate, seconds: seconds, node: node.processIdentifier)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        node.terminate()
        node.waitUntilExit()
        coldStart(setup)
    }

    /// An issuer, the node's wallet holding `payments` notes of 10, a spending limit that
    /// allows them all, sync off (no chain here).
    static func prepare(tender: String, payments: Int) throws -> Setup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tender-node-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let passphrase = folder.appendingPathComponent("passphrase").path
        try "node benchmark\n".write(toFile: passphrase, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TENDER_PASSPHRASE_FILE"] = passphrase
        let issuer = folder.appendingPathComponent("issuer").path
        let payee = folder.appendingPathComponent("payee").path
        func cli(_ arguments: [String]) throws -> String {
            try output(tender, arguments, environment: environment)
        }
        _ = try cli(["issuer", "init", "--data-dir", issuer, "--scrypt-n", "1024"])
        let issuerAddress = try cli(["issuer", "address", "--data-dir", issuer])
        _ = try cli(["init", "--data-dir", payee, "--scrypt-n", "1024"])
        let setup = Setup(
            folder: folder, tender: tender, environment: environment,
            payee: try cli(["address", "--data-dir", payee]))
        _ = try cli(["init", "--data-dir", setup.home, "--scrypt-n", "1024"])
        _ = try cli(["trust", "add", issuerAddress, "--data-dir", setup.home])
        let address = try cli(["address", "--data-dir", setup.home])
        var left = payments
        var file = 0
        while left > 0 {
            let count = min(left, 200)
            let notes = folder.appendingPathComponent("notes-\(file).tender").path
            _ = try cli([
                "issuer", "issue", "--data-dir", issuer, "--to", address, "--amount", "10",
                "--count", String(count), "--out", notes,
            ])
            _ = try cli(["receive", notes, "--data-dir", setup.home])
            left -= count
            file += 1
        }
        try """
        [sync]
        enabled = false
        [[limits]]
        payee = "\(setup.payee)"
        amount = "\(payments * 10)"
        period = "1d"
        """.write(toFile: setup.home + "/node.toml", atomically: true, encoding: .utf8)
        return setup
    }

    /// Latencies in seconds, errors by what went wrong.
    final class Tally: Sendable {
        let state = Mutex<(status: [Double], payments: [Double], errors: [String: Int])>(
            ([], [], [:]))
        func status(_ seconds: Double) { state.withLock { $0.status.append(seconds) } }
        func payment(_ seconds: Double) { state.withLock { $0.payments.append(seconds) } }
        func error(_ what: String) { state.withLock { $0.errors[what, default: 0] += 1 } }
        let memory = Mutex<[(rss: Int, anonymous: Int)]>([])
        func resident(_ pid: Int32) {
            let sample = residentKiB(pid)
            memory.withLock { $0.append(sample) }
        }
    }

    static func load(
        _ client: HTTPClient, port: Int, token: String, payee: String, clients: Int, rate: Int,
        seconds: Int, node: Int32
    ) async throws {
        let base = "http://127.0.0.1:\(port)"
        let tally = Tally()
        let end = ContinuousClock.now + .seconds(seconds)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    while ContinuousClock.now < end {
                        let start = ContinuousClock.now
                        do {
                            let (status, _) = try await call(
                                client, "GET", base + "/api/status", token)
                            status == 200
                                ? tally.status(Measure.seconds(since: start))
                                : tally.error("status \(status) on /api/status")
                        } catch { tally.error("\(error)") }
                    }
                }
            }
            group.addTask {
                var next = ContinuousClock.now
                // Paced by the clock, each payment in its own task: a slow one does not
                // hold back the next (an open-loop load, as real traffic is).
                try await withThrowingTaskGroup(of: Void.self) { payments in
                    while next < end {
                        try await Task.sleep(until: next)
                        next += .milliseconds(1000 / rate)
                        payments.addTask {
                            let start = ContinuousClock.now
                            do {
                                try await pay(client, base, token, to: payee)
                                tally.payment(Measure.seconds(since: start))
                            } catch { tally.error("payment: \(error)") }
                        }
                    }
                    try await payments.waitForAll()
                }
            }
            group.addTask {
                while ContinuousClock.now < end {
                    tally.resident(node)
                    try await Task.sleep(for: .seconds(5))
                }
            }
            try await group.waitForAll()
        }
        let (status, payments, errors) = tally.state.withLock {
            ($0.status, $0.payments, $0.errors)
        }
        Measure.report("/api/status answered", Double(status.count) / Double(seconds), "req/s")
        Measure.reportPercentiles("/api/status", status)
        Measure.report("payments made (prepare + export)", Double(payments.count), "payments")
        Measure.reportPercentiles("payment", payments)
        Measure.report("errors", Double(errors.values.reduce(0, +)), "requests")
        for (what, count) in errors.sorted(by: { $0.value > $1.value }).prefix(5) {
            print("  \(count) × \(what)")
        }
        let samples = tally.memory.withLock { $0 }
        if let first = samples.first, let last = samples.last {
            Measure.report("RSS at the start of the load", Double(first.rss) / 1024, "MiB")
            Measure.report("RSS at the end of the load", Double(last.rss) / 1024, "MiB")
            Measure.report(
                "RSS anonymous, start → end of the load",
                Double(last.anonymous - first.anonymous) / 1024, "MiB")
            let series = samples.map { String(format: "%.1f", Double($0.anonymous) / 1024) }
            print("  anonymous MiB every 5 s: \(series.joined(separator: " "))")
        }
    }

    /// One payment the node makes on its own: prepared under the limit, then exported (the
    /// bytes a kiosk hands over).
    static func pay(
        _ client: HTTPClient, _ base: String, _ token: String, to payee: String
    ) async throws {
        let (status, body) = try await call(
            client, "POST", base + "/api/payments", token,
            body: "{\"to\": \"\(payee)\", \"amount\": \"10\"}")
        guard status == 201,
            let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
                as? [String: Any],
            let id = (object["payment"] as? [String: Any])?["requestId"] as? String
        else {
            throw BenchmarkFailure("POST /api/payments: \(status) \(String(buffer: body))")
        }
        let (exported, bytes) = try await call(
            client, "POST", base + "/api/payments/\(id)/export", token)
        guard exported == 200, bytes.readableBytes > 100 else {
            throw BenchmarkFailure("export: \(exported)")
        }
    }

    /// `tender balance` from process start to exit, 30 runs: the CLI's cold start.
    static func coldStart(_ setup: Setup) {
        let samples = Measure.samples(count: 30) { _ in
            _ = try? output(
                setup.tender, ["balance", "--data-dir", setup.home],
                environment: setup.environment)
        }
        Measure.reportPercentiles("CLI cold start: tender balance", samples, [50, 90])
    }

    // MARK: Plumbing

    /// Its size and how it carries the Swift runtime: memory figures differ between the
    /// static runtime the .deb ships and the toolchain's shared libraries.
    static func describe(binary path: String) -> String {
        // Mapped, not read: the binary is some 100 MB.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        else { return "unreadable" }
        // A shared runtime is named in the dynamic section's strings; a static one is not.
        let shared = data.range(of: Data("libswiftCore.so".utf8)) != nil
        let megabytes = Double(data.count) / 1_048_576
        return String(format: "%.1f MiB, ", megabytes)
            + (shared
                ? "Swift runtime shared (the toolchain's)" : "Swift runtime static (as shipped)")
    }

    /// One request with the API token; the status and the whole body (up to 1 MiB).
    static func call(
        _ client: HTTPClient, _ method: String, _ url: String, _ token: String,
        body: String? = nil
    ) async throws -> (status: Int, body: ByteBuffer) {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), body)
    }

    static func waitUntilServing(_ client: HTTPClient, port: Int) async throws {
        for _ in 0..<2_000 {
            let health = try? await call(client, "GET", "http://127.0.0.1:\(port)/healthz", "")
            if health?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchmarkFailure("the node did not start serving")
    }

    /// The memory resident in process `pid`, in KiB, from one read of /proc/PID/status:
    /// `VmRSS`, and `RssAnon` (the heap and stacks, without the program's and libraries' code
    /// pages); 0 for what cannot be read.
    static func residentKiB(_ pid: Int32) -> (rss: Int, anonymous: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return (0, 0) }
        let lines = status.split(separator: "\n")
        func field(_ name: String) -> Int {
            guard let line = lines.first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (field("VmRSS"), field("RssAnon"))
    }

    /// Starts `path` with standard error to the null device, standard output to `pipe` (the
    /// null device without one).
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], pipe: Pipe? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        if let pipe {
            process.standardOutput = pipe
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Runs `path` to its exit; its standard output, trimmed. Throws if it exits non-zero.
    static func output(
        _ path: String, _ arguments: [String], environment: [String: String]
    ) throws -> String {
        let pipe = Pipe()
        let process = try spawn(path, arguments, environment: environment, pipe: pipe)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(
                "tender \(arguments.prefix(2).joined(separator: " ")) exited \(process.terminationStatus)"
            )
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
