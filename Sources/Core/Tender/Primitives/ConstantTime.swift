/// Whether `a` and `b` hold the same bytes, in a time that depends only on their lengths (for
/// secrets: a token, a check value; an early exit would tell an attacker how much matched).
public func constantTimeEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
}
