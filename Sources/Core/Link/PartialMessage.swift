/// One incomplete message: fragments `0..<next` in order in `assembled`, and at most a
/// window's worth past the first missing one in `ahead`. Its memory is the payload bytes it
/// holds (`bufferedBytes`) and at most `window` stored fragments.
struct PartialMessage: Sendable {
    /// What a fragment did to the message.
    enum Placement: Equatable {
        /// Kept; `next` moved by `advancedBy` (0 when it lies past a gap).
        case stored(advancedBy: Int)
        /// Already held, byte for byte.
        case duplicate
        /// Past the window after the first missing fragment: not kept.
        case beyondWindow
    }

    let id: UInt16
    let count: UInt16
    var lastHeard: LinkInstant
    /// Length of every fragment but the last, once one of them is held.
    private(set) var fragmentSize: Int?
    /// Length of the last fragment, once it is held.
    private(set) var lastLength: Int?
    private(set) var assembled: [UInt8] = []
    private(set) var next = 0
    private var ahead: [Int: [UInt8]] = [:]
    private(set) var bufferedBytes = 0

    init(id: UInt16, count: UInt16, now: LinkInstant) {
        self.id = id
        self.count = count
        lastHeard = now
    }

    var isComplete: Bool { next == Int(count) }

    /// Checks `fragment` against what is held, then keeps it. On a throw nothing changed (the
    /// reassembler then discards the message).
    mutating func accept(
        _ fragment: LinkFragment, window: Int, cap: Int
    ) throws(LinkError)
        -> Placement
    {
        let index = Int(fragment.index)
        let conflict = LinkError.conflictingFragment(message: id, index: fragment.index)
        guard fragment.count == count else { throw conflict }
        if let held = heldBytes(at: index) {
            guard held.elementsEqual(fragment.payload) else { throw conflict }
            return .duplicate
        }
        guard index < next + window else { return .beyondWindow }
        var size = fragmentSize
        var last = lastLength
        let length = fragment.payload.count
        if fragment.isLast {
            if let size, length > size { throw conflict }
            last = length
        } else {
            if let size, length != size { throw conflict }
            if let last, length < last { throw conflict }
            size = length
        }
        // The smallest message these lengths allow (fragments not yet seen hold at least one
        // byte, and no more than the full ones): refused as soon as it passes the cap.
        let lastAtLeast = last ?? (count == 1 ? 0 : 1)
        let smallest = (Int(count) - 1) * (size ?? last ?? 1) + lastAtLeast
        guard smallest <= cap else {
            throw .messageTooLarge(message: id, bytes: smallest, cap: cap)
        }
        fragmentSize = size
        lastLength = last
        bufferedBytes += length
        guard index == next else {
            ahead[index] = Array(fragment.payload)
            return .stored(advancedBy: 0)
        }
        assembled.append(contentsOf: fragment.payload)
        next += 1
        var advanced = 1
        while let following = ahead.removeValue(forKey: next) {
            assembled.append(contentsOf: following)
            next += 1
            advanced += 1
        }
        return .stored(advancedBy: advanced)
    }

    /// The bytes held for fragment `index`, if any. Fragments before `next` are all full
    /// (the last one would have completed the message), so they sit at `index × size`.
    private func heldBytes(at index: Int) -> ArraySlice<UInt8>? {
        guard index < next else { return ahead[index].map { $0[...] } }
        // `next > 0` means fragment 0, not the last, is held, so the size is known.
        guard let size = fragmentSize else { return [] }
        return assembled[(index * size)..<((index + 1) * size)]
    }
}
