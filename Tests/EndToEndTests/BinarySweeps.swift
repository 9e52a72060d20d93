import Testing

/// The sweeps through the binary (Docs/MUTATION-SWEEP.md), one suite at a time: each waits on
/// the CLI for minutes from a thread of the concurrency pool (two on a 2-core machine), and
/// two side by side would hold all of it while async suites elsewhere (the D-Bus and BlueZ
/// tests) time out waiting for their replies.
@Suite(.serialized) enum BinarySweeps {}
