/// Unix seconds as people read them: ISO 8601 in UTC, computed here (the core has no
/// Foundation) with the days-from-civil inverse of Howard Hinnant's date algorithms.
public enum UnixTime {
    public static func iso8601(_ seconds: UInt64) -> String {
        let days = Int64(seconds / 86_400)
        let secondOfDay = Int64(seconds % 86_400)
        // civil_from_days, for days since 1970-01-01.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):"
            + "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }
}
