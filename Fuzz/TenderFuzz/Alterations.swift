/// Edits an input describes, applied to messages a target made itself: groups of four bytes
/// (which message, position high and low byte, XOR). An XOR of zero cuts the message at the
/// position instead. A group that changes nothing (position past the end) is skipped.
struct Alterations {
    struct Edit {
        let message: Int
        let position: Int
        let xor: UInt8
    }

    let edits: [Edit]

    init(_ input: some Collection<UInt8>, messages: Int) {
        let bytes = Array(input)
        var edits: [Edit] = []
        var start = 0
        while start + 4 <= bytes.count {
            let position = Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
            edits.append(
                Edit(
                    message: Int(bytes[start]) % messages, position: position,
                    xor: bytes[start + 3]))
            start += 4
        }
        self.edits = edits
    }

    /// `message` (number `index`) with its edits; whether any changed it.
    func apply(to message: [UInt8], index: Int) -> (bytes: [UInt8], altered: Bool) {
        var bytes = message
        for edit in edits where edit.message == index && !bytes.isEmpty {
            let position = edit.position % (bytes.count + 1)
            if edit.xor == 0 {
                bytes.removeSubrange(position...)
            } else if position < bytes.count {
                bytes[position] ^= edit.xor
            }
        }
        return (bytes, bytes != message)
    }
}
