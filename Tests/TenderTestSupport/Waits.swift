/// The bound on a wait that is expected to succeed (a receipt, a confirmation): it returns as
/// soon as its condition holds, so the bound costs nothing when things work, and it is long
/// because a busy machine's test run can leave a task without a thread for over a minute
/// (Docs/TESTING.md).
extension Duration {
    public static let generousWait: Duration = .seconds(600)
}
