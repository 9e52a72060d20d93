/// The retransmission timeout from measured round trips, as TCP computes it (RFC 6298): a
/// smoothed round trip plus four times its variation, doubled per timeout by the sender,
/// within the configured bounds. Only fragments sent once are measured (Karn's rule: an ack
/// after a resend cannot say which copy it answers). Before any measurement the configured
/// first timeout applies.
struct RoundTripEstimator: Sendable {
    let configuration: LinkConfiguration
    /// Milliseconds.
    private var smoothed: Double?
    private var variation = 0.0

    init(configuration: LinkConfiguration) { self.configuration = configuration }

    var timeout: Duration {
        guard let smoothed else { return configuration.retransmissionTimeout }
        let milliseconds = Int64((smoothed + 4 * variation).rounded(.up))
        return min(
            max(.milliseconds(milliseconds), configuration.minRetransmissionTimeout),
            configuration.maxRetransmissionTimeout)
    }

    mutating func record(_ sample: Duration) {
        let measured = Double(max(0, sample.wholeMilliseconds))
        guard let smoothed else {
            self.smoothed = measured
            variation = measured / 2
            return
        }
        variation = 0.75 * variation + 0.25 * abs(smoothed - measured)
        self.smoothed = 0.875 * smoothed + 0.125 * measured
    }
}
