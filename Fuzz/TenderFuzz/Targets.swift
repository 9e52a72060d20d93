/// Every target, by name.
enum Targets {
    static let all: [FuzzTarget] = [
        EnvelopeTarget.envelope, EnvelopeTarget.cbor,
        FramesTarget.frames, URTarget.ur,
        PaymentCodesTarget.tenderURI, PaymentCodesTarget.paymentCodes,
        ImageTarget.png, ImageTarget.pgm,
        LinkTarget.link,
        EvidenceTarget.evidence, SessionTarget.session, APIBodiesTarget.apiBodies,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    static var listing: String {
        all.map { "\($0.name)\t\($0.summary)" }.joined(separator: "\n")
    }
}
