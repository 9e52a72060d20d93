import Codecs
import Tender

/// Tender payloads and the deterministic CBOR under them.
enum EnvelopeTarget {
    static let envelope = FuzzTarget(
        name: "envelope",
        summary: "Envelope, ProofBundle, SignedTransfer decode; accepted = re-encodes to the input",
        run: checkEnvelope, oversizeCheck: envelopeOversize)

    static let cbor = FuzzTarget(
        name: "cbor",
        summary: "CBOR.decode strict and lenient; what decodes re-encodes and decodes strictly",
        run: checkCBOR, oversizeCheck: cborOversize)

    private static let selfDescribedPrefix: [UInt8] = [0xD9, 0xD9, 0xF7]

    static func checkEnvelope(_ bytes: [UInt8]) {
        guard bytes.starts(with: selfDescribedPrefix) else {
            // The wallet's own stored forms: no envelope tag, same strict rules.
            if let bundle = try? ProofBundle.decode(bytes) {
                requireSame(bundle.encoded(), bytes, "proof bundle")
            }
            if let transfer = try? SignedTransfer.decode(bytes) {
                requireSame(transfer.encoded(), bytes, "signed transfer")
            }
            return
        }
        guard let envelope = try? Envelope.decode(bytes) else { return }
        let encoded = envelope.encoded()
        requireSame(encoded, bytes, "\(envelope.message.kind) envelope")
        // Decoding what we encode gives the same message (and, deterministic, the same bytes).
        let again = try? Envelope.decode(encoded)
        require(again?.message.kind == envelope.message.kind, "re-encoded envelope is refused")
        require(again?.encoded() == encoded, "re-encoded envelope is not a fixed point")
        // The domain check refuses by name, whatever the message.
        let other = Domain(chainID: envelope.domain.chainID &+ 1, vault: envelope.domain.vault)
        do throws(ProtocolError) {
            _ = try Envelope.decode(bytes, expecting: other)
            require(false, "an envelope for another chain was accepted")
        } catch {
            require(
                error.kind == .wrongDomain(expected: other, actual: envelope.domain),
                "another chain's envelope refused with \(error), not wrongDomain")
        }
    }

    /// A strict decode that accepted `input` must write it back byte for byte.
    private static func requireSame(_ encoded: [UInt8], _ input: [UInt8], _ what: String) {
        require(
            encoded == input,
            "accepted \(what) re-encodes differently (\(input.count) bytes in, \(encoded.count) out): first difference at \(firstDifference(encoded, input)), in \(hexPrefix(input.dropFirst(max(0, firstDifference(encoded, input) - 8))))"
        )
    }

    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let common = min(a.count, b.count)
        return (0..<common).first { a[$0] != b[$0] } ?? common
    }

    static func envelopeOversize() {
        let cap = Envelope.maxBytes
        for size in [cap + 1, 4 * cap] {
            // A well-formed head declaring one long byte string: only the size check stops it.
            let input = selfDescribedPrefix + [0x5A] + bigEndian32(size - 8) + zeros(size - 8)
            AllocationMeter.requireAtMost(cap, "envelope of \(size) bytes") {
                do throws(ProtocolError) {
                    _ = try Envelope.decode(input)
                    require(false, "an envelope of \(size) bytes was accepted")
                } catch {
                    guard case .proofTooLarge = error.kind else {
                        return require(false, "\(size)-byte envelope refused with \(error)")
                    }
                }
            }
        }
        // At the cap: decoded, and refused for what it holds, within the cap.
        let atCap = selfDescribedPrefix + [0x5A] + bigEndian32(cap - 8) + zeros(cap - 8)
        AllocationMeter.requireAtMost(cap, "envelope of exactly \(cap) bytes") {
            require((try? Envelope.decode(atCap)) == nil, "a 1 MiB byte string envelope decoded")
        }
    }

    static func checkCBOR(_ bytes: [UInt8]) {
        let strict = try? CBOR.decode(bytes, options: .deterministic)
        let lenient = try? CBOR.decode(bytes, options: .lenient)
        if let strict {
            require(strict.encoded() == bytes, "strictly decoded CBOR re-encodes differently")
            require(lenient == strict, "lenient decoding disagrees with strict decoding")
        }
        guard let lenient else { return }
        let canonical = lenient.encoded()
        // Maps compare in the order held, and the canonical form sorts them: compare encodings.
        let again = try? CBOR.decode(canonical, options: .deterministic)
        require(again?.encoded() == canonical, "canonical form of a lenient decode is refused")
        if canonical == bytes {
            require(strict != nil, "input in canonical form is refused by the strict decoder")
        }
    }

    static func cborOversize() {
        let cap = CBORDecodingOptions.deterministic.maxInputBytes
        for size in [cap + 1, 4 * cap] {
            let input = [0x5A] + bigEndian32(size - 5) + zeros(size - 5)
            AllocationMeter.requireAtMost(cap, "CBOR of \(size) bytes") {
                do throws(CBORError) {
                    _ = try CBOR.decode(input, options: .lenient)
                    require(false, "CBOR of \(size) bytes was accepted")
                } catch {
                    require(error.kind == .tooLarge, "\(size) bytes of CBOR refused with \(error)")
                }
            }
        }
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
}
