#if !FUZZING
#if canImport(Glibc)
import Glibc
#endif

/// The normal build: replays saved inputs through a target, for regressions and triage.
///
///     TenderFuzz <target> FILE|DIR...    every file (directories: their files), then "ok"
///     TenderFuzz --list                  the targets
///     TenderFuzz --seeds <target> DIR    write the inputs the target makes itself
///
/// A broken invariant traps with its message, as under the fuzzer.
@main
struct RegressionRunner {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" {
            print(Targets.listing)
            return
        }
        if arguments.first == "--seeds", arguments.count == 3,
            let target = Targets.named(arguments[1])
        {
            for (index, seed) in target.seeds().enumerated() {
                let path = "\(arguments[2])/made-\(index)"
                guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
                _ = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                fclose(file)
            }
            print("\(target.seeds().count) seeds of \(target.name) in \(arguments[2])")
            return
        }
        guard arguments.count >= 2, let target = Targets.named(arguments[0]) else {
            fail("usage: TenderFuzz <target> FILE|DIR... | --list\ntargets:\n\(Targets.listing)")
        }
        target.oversizeCheck()
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let bytes = read(file) else { fail("cannot read \(file)") }
                target.run(bytes)
                count += 1
            }
        }
        print("\(count) inputs, target \(target.name): ok")
    }

    private static func fail(_ message: String) -> Never {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        exit(2)
    }

    /// `path` itself, or the regular files directly inside it, sorted.
    private static func files(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            guard entry.pointee.d_type != UInt8(DT_DIR) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count { break }
        }
        return bytes
    }
}
#endif
