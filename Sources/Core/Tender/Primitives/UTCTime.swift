/// Unix seconds as a UTC calendar time for people, without Foundation (days-from-civil in
/// reverse, after Howard Hinnant's algorithm; proleptic Gregorian calendar).
public enum UTCTime {
    /// `2026-11-24 06:16:38 UTC`.
    public static func format(_ seconds: UInt64) -> String {
        let days = Int64(seconds / 86_400)
        let secondOfDay = Int(seconds % 86_400)
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: some BinaryInteger) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):"
            + "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
    }
}
